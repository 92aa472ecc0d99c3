//! The packed tables `#[mcp_tool]` and `#[mcp_args]` emit, and their decoding.
//!
//! Each type gets one associated constant: its texts, and a byte string that lays out
//! every description over them. One constant of literals is what keeps `cargo check` cheap
//! (rustc builds, type-checks and borrow-checks every item and body it is given; a string
//! literal and a byte string cost it almost nothing). The first use of a type decodes its
//! tables into the same [`Tailored`] tables a `description!` builds in place, kept for the
//! life of the process, so resolution is the same code either way.
//!
//! `texts` is one string literal holding every text the macro could read, back to back,
//! then each text it could not (a const, `concat!`, `include_str!`) as an element of its
//! own. The layout, all integers little-endian, every text an index into the type's list of
//! texts (`u16`), which the layout's header rebuilds:
//!
//! ```text
//! tool        = FORMAT entries description(title) description(description) fields
//!               annotations scopes
//! args        = FORMAT entries fields
//! entries     = count:u16 entry*
//! entry       = varint (below)
//! description = 0 (absent) | 1 text (bare)
//!             | 2 run base:[u8; 10] default_verbosity:u8 definitive:u8
//!                 rules:u16 rule*                                  (tailored)
//! rule        = runner:u16 model slots:[u8; 10]                     (runner NO_TEXT: any)
//! model       = 0 (any) | 1 text (exact) | 2 run (list)
//! fields      = count:u16 (name:u16 description)*
//! annotations = 0 (none) | 1 title:u16 hint hint hint hint          (title NO_TEXT: none)
//! hint        = 0 (none) | 1 (false) | 2 (true)
//! scopes      = count:u16 run*
//! run         = first:u16 count:u16                                 (texts[first..first + count])
//! ```
//!
//! An entry is `0` for the next element of `texts` after the literal (a text the macro
//! could not read), or `1 + len` as a LEB128 varint for the next `len` bytes of the
//! literal. A tailored description's texts are one run, so its slots index them directly;
//! `default_verbosity` 255 means none. `macros/src/packed.rs` writes the layout.

use crate::annotations::Annotations;
use crate::def::{Fields, Generated, ToolDef, ToolParts};
use crate::description::{CompiledModelMatch, CompiledRule, Description, Tailored};
use crate::locked::Locked;
use std::any::{Any, TypeId};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

/// The layout's version, its first byte: the macros and the runtime ship together (the
/// macros are pinned to this version), so a mismatch is a broken build, said plainly.
const FORMAT: u8 = 1;

/// The text index meaning "none".
const NO_TEXT: u16 = u16::MAX;

/// An `#[mcp_args]` type's packed tables, as the macro emits them. Not a stable API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Packed {
    /// The type's texts: field, runner and model names and description texts, as the
    /// module documentation says.
    pub texts: &'static [&'static str],
    /// The layout of the module documentation over `texts`.
    pub layout: &'static [u8],
}

/// A tool's packed tables, as `#[mcp_tool]` emits them: everything the tool declares in
/// one constant, the one item rustc has to check per tool. Not a stable API.
#[doc(hidden)]
#[derive(Debug)]
pub struct ToolTable {
    /// The tool's name.
    pub name: &'static str,
    /// The tool's texts: field, runner and model names, scopes, description texts, as the
    /// module documentation says.
    pub texts: &'static [&'static str],
    /// The layout of the module documentation over `texts`.
    pub layout: &'static [u8],
}

/// The definition of the tool whose type is `key`: decoded from `table` on first use, then
/// kept.
pub(crate) fn tool_def(
    key: TypeId,
    table: &ToolTable,
    schema: fn() -> Generated,
) -> &'static ToolDef {
    per_type(key, || {
        let mut r = TableCursor::new(table.texts, table.layout);
        let title = r.description();
        let description = r.description();
        let fields = r.fields();
        let annotations = r.annotations();
        let scopes = r.scopes();
        r.end();
        ToolDef::from_parts(ToolParts {
            name: table.name,
            title,
            description,
            fields,
            annotations,
            scopes,
            schema,
        })
    })
}

/// The field table of the `#[mcp_args]` type whose type is `key`: decoded from `table` on
/// first use, then kept.
pub(crate) fn args_fields(key: TypeId, table: &Packed) -> Fields {
    per_type(key, || {
        let mut r = TableCursor::new(table.texts, table.layout);
        let fields = r.fields();
        r.end();
        fields
    })
}

/// The value `make` builds for the type `key`, built once per process and kept: a lookup
/// in one map of every type's decoded tables (a read lock and a hash of the type id).
fn per_type<V: Send + Sync + 'static>(key: TypeId, make: impl FnOnce() -> V) -> &'static V {
    type Values = RwLock<HashMap<(TypeId, TypeId), &'static (dyn Any + Send + Sync)>>;
    static VALUES: OnceLock<Values> = OnceLock::new();
    let values = VALUES.get_or_init(Values::default);
    let key = (key, TypeId::of::<V>());
    let found = values.locked().get(&key).copied();
    let value = match found {
        Some(value) => value,
        None => {
            // Decoded under the lock, after looking again: two threads meeting a type for
            // the first time never decode it twice (decoding leaks its tables, so a lost
            // race would keep a second copy forever). Decoding takes no lock of its own.
            let mut values = values.locked_mut();
            match values.get(&key) {
                Some(value) => *value,
                None => {
                    let made: &'static (dyn Any + Send + Sync) = Box::leak(Box::new(make()));
                    values.insert(key, made);
                    made
                }
            }
        }
    };
    value
        .downcast_ref()
        .expect("the map holds a `V` under the type id of `V`")
}

/// A list of the binary's texts as a table holds it.
fn borrowed(texts: &'static [&'static str]) -> Cow<'static, [Cow<'static, str>]> {
    texts.iter().copied().map(Cow::Borrowed).collect()
}

/// A cursor over one packed table.
struct TableCursor {
    texts: &'static [&'static str],
    layout: &'static [u8],
    at: usize,
}

impl TableCursor {
    /// A reader of `layout`, past its header: the list of texts rebuilt from `packed`.
    fn new(packed: &'static [&'static str], layout: &'static [u8]) -> Self {
        let mut reader = TableCursor {
            texts: &[],
            layout,
            at: 0,
        };
        let format = reader.byte();
        assert_eq!(
            format, FORMAT,
            "mcp-tailor: a table packed in format {format}, read by a runtime of format \
             {FORMAT}: `mcp-tailor` and `mcp-tailor-macros` must be the same version"
        );
        let (mut literal, mut others) = match packed {
            [literal, others @ ..] => (*literal, others.iter()),
            [] => ("", [].iter()),
        };
        let texts = (0..reader.u16())
            .map(|_| match reader.varint() {
                0 => *others.next().expect("a text for every entry"),
                len => {
                    let (text, rest) = literal.split_at(len - 1);
                    literal = rest;
                    text
                }
            })
            .collect::<Vec<_>>();
        reader.texts = Box::leak(texts.into_boxed_slice());
        reader
    }

    /// An unsigned LEB128 number.
    fn varint(&mut self) -> usize {
        let mut value = 0;
        let mut shift = 0;
        loop {
            let byte = self.byte();
            value |= usize::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return value;
            }
            shift += 7;
        }
    }

    fn byte(&mut self) -> u8 {
        let byte = self.layout[self.at];
        self.at += 1;
        byte
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    fn ten(&mut self) -> &'static [u8; 10] {
        let slots = self.layout[self.at..self.at + 10]
            .try_into()
            .expect("ten bytes");
        self.at += 10;
        slots
    }

    fn text(&mut self) -> &'static str {
        self.texts[usize::from(self.u16())]
    }

    fn optional_text(&mut self) -> Option<&'static str> {
        match self.u16() {
            NO_TEXT => None,
            index => Some(self.texts[usize::from(index)]),
        }
    }

    fn run(&mut self) -> &'static [&'static str] {
        let first = usize::from(self.u16());
        let count = usize::from(self.u16());
        &self.texts[first..first + count]
    }

    fn description(&mut self) -> Description {
        match self.byte() {
            0 => Description::ABSENT,
            1 => Description::bare(self.text()),
            _ => {
                let texts = borrowed(self.run());
                let base = *self.ten();
                let default_verbosity = Some(self.byte()).filter(|&v| v != u8::MAX);
                let definitive = self.byte();
                let rules = (0..self.u16()).map(|_| self.rule()).collect::<Vec<_>>();
                Description::from_tables(Box::leak(Box::new(Tailored {
                    texts,
                    base,
                    rules: Cow::Owned(rules),
                    default_verbosity,
                    definitive,
                })))
            }
        }
    }

    fn rule(&mut self) -> CompiledRule {
        let runner = self.optional_text();
        let model = match self.byte() {
            0 => CompiledModelMatch::Any,
            1 => CompiledModelMatch::Exact(Cow::Borrowed(self.text())),
            _ => CompiledModelMatch::List(borrowed(self.run())),
        };
        CompiledRule {
            runner: runner.map(Cow::Borrowed),
            model,
            slots: *self.ten(),
        }
    }

    fn fields(&mut self) -> Fields {
        let fields = (0..self.u16())
            .map(|_| (self.text(), self.description()))
            .collect::<Vec<_>>();
        Box::leak(fields.into_boxed_slice())
    }

    fn annotations(&mut self) -> Option<Annotations> {
        if self.byte() == 0 {
            return None;
        }
        let title = self.optional_text();
        let mut hint = || match self.byte() {
            0 => None,
            hint => Some(hint == 2),
        };
        Some(Annotations {
            title,
            read_only_hint: hint(),
            destructive_hint: hint(),
            idempotent_hint: hint(),
            open_world_hint: hint(),
        })
    }

    fn scopes(&mut self) -> &'static [&'static [&'static str]] {
        let groups = (0..self.u16()).map(|_| self.run()).collect::<Vec<_>>();
        Box::leak(groups.into_boxed_slice())
    }

    /// Asserts the whole layout was read: a table the macros and this reader disagree on
    /// fails here, on first use, not with a wrong text later.
    fn end(self) {
        assert_eq!(
            self.at,
            self.layout.len(),
            "mcp-tailor: a packed table longer than its layout; `mcp-tailor` and \
             `mcp-tailor-macros` must be the same version"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{FORMAT, TableCursor, per_type};
    use std::any::TypeId;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier};

    #[test]
    fn texts_are_sliced_from_the_literal_with_the_others_in_their_places() {
        // Four entries: "ab" (1 + 2), the next other text (0), "" (1 + 0), "cde" (1 + 3).
        static LAYOUT: [u8; 7] = [FORMAT, 4, 0, 3, 0, 1, 4];
        let reader = TableCursor::new(&["abcde", "X"], &LAYOUT);
        assert_eq!(reader.texts, ["ab", "X", "", "cde"]);
        reader.end();
    }

    #[test]
    fn a_table_of_another_format_or_length_fails_plainly_on_first_use() {
        let message = |f: fn()| {
            let payload = std::panic::catch_unwind(f).unwrap_err();
            payload
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default()
        };
        let other = message(|| {
            TableCursor::new(&[""], &[FORMAT + 1, 0, 0]);
        });
        assert!(other.contains("must be the same version"), "{other}");
        let longer = message(|| TableCursor::new(&[""], &[FORMAT, 0, 0, 9]).end());
        assert!(longer.contains("longer than its layout"), "{longer}");
    }

    #[test]
    fn threads_meeting_a_type_at_once_decode_it_once() {
        struct Probe;
        let made = Arc::new(AtomicUsize::new(0));
        let start = Arc::new(Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (made, start) = (made.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    let value: &'static u64 = per_type(TypeId::of::<Probe>(), || {
                        made.fetch_add(1, Ordering::SeqCst);
                        42
                    });
                    std::ptr::from_ref(value) as usize
                })
            })
            .collect();
        let addresses: Vec<usize> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(made.load(Ordering::SeqCst), 1, "decoded once");
        assert!(addresses.windows(2).all(|w| w[0] == w[1]), "one value");
    }
}
