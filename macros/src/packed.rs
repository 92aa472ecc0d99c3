//! Validated tool or `#[mcp_args]` fields → one packed table: every text the type needs in
//! one string literal (and the texts the macro cannot read beside it), every description
//! laid out over them in one byte string, in the format the runtime's `decode.rs` documents
//! and reads. No tokens here: `expand` writes them.
//!
//! One table per type instead of a static initializer per description is what keeps the
//! expansion cheap for rustc to check (BENCHMARKS.md §3).

use crate::ast::{AnnotationsAttr, Text};
use crate::attr::Hint;
use crate::valid::ValidField;
use mcp_tailor_model::tables::{self, ModelMatch, Shape, Table};

/// The layout's version; the runtime refuses any other.
const FORMAT: u8 = 1;

/// The text index meaning "none".
const NO_TEXT: u16 = u16::MAX;

/// One entry of the table's text list.
pub enum Entry<'a> {
    /// A description text, as written (a literal, or an expression the runtime trims).
    Text(&'a Text),
    /// A name: a field's, a runner's, a model's, a scope.
    Name(String),
}

/// A table being packed.
pub struct Packer<'a> {
    entries: Vec<Entry<'a>>,
    layout: Vec<u8>,
}

/// A packed table: `literal` (every text the macro could read, back to back), `others`
/// (each text it could not, in order) and `layout` (the header that rebuilds the list of
/// texts from both, then the tables).
pub struct Packing<'a> {
    pub literal: String,
    pub others: Vec<&'a Text>,
    pub layout: Vec<u8>,
}

impl<'a> Packer<'a> {
    pub fn new() -> Self {
        Packer {
            entries: Vec::new(),
            layout: Vec::new(),
        }
    }

    /// The finished table: the header (`FORMAT`, then each entry as `1 + len` of the
    /// literal, or `0` for the next of `others`) before the tables.
    pub fn finish(self) -> Packing<'a> {
        let mut packed = Packing {
            literal: String::new(),
            others: Vec::new(),
            layout: vec![FORMAT],
        };
        let count = u16::try_from(self.entries.len()).expect("checked as entries were added");
        packed.layout.extend_from_slice(&count.to_le_bytes());
        for entry in self.entries {
            let text = match entry {
                Entry::Text(Text::Lit { value, .. }) => value.as_str(),
                Entry::Name(ref name) => name.as_str(),
                Entry::Text(other) => {
                    packed.others.push(other);
                    packed.layout.push(0);
                    continue;
                }
            };
            packed.literal.push_str(text);
            varint(&mut packed.layout, text.len() + 1);
        }
        packed.layout.extend(self.layout);
        packed
    }

    fn u16(&mut self, value: u16) {
        self.layout.extend_from_slice(&value.to_le_bytes());
    }

    /// Appends an entry and writes its index.
    fn entry(&mut self, entry: Entry<'a>) {
        let index = self.next_index();
        self.entries.push(entry);
        self.u16(index);
    }

    fn next_index(&self) -> u16 {
        u16::try_from(self.entries.len())
            .ok()
            .filter(|&i| i != NO_TEXT)
            .expect("a tool's tables hold at most 65,534 texts and names")
    }

    /// Appends `entries` as one run and writes its first index and its length.
    fn run(&mut self, entries: impl IntoIterator<Item = Entry<'a>>) {
        let first = self.next_index();
        self.entries.extend(entries);
        let count = self.entries.len() - usize::from(first);
        self.u16(first);
        self.u16(u16::try_from(count).expect("a run of fewer than 65,536 entries"));
    }

    /// Writes a description: its texts (indexed by `plan`'s handles) and its tables.
    pub fn description(&mut self, texts: &'a [Text], plan: tables::Plan<usize>) {
        match tables::build(plan) {
            Shape::Absent => self.layout.push(0),
            Shape::Bare(handle) => {
                self.layout.push(1);
                self.entry(Entry::Text(&texts[handle]));
            }
            Shape::Tailored(table) => {
                self.layout.push(2);
                self.tailored(&table, texts);
            }
        }
    }

    fn tailored(&mut self, table: &Table<usize>, texts: &'a [Text]) {
        let pool = tables::pool(table);
        // A slot is an index into the description's run; `NO_TEXT` (255) and `SILENT` (254,
        // says nothing) are past its end.
        let slots = |slots: &[Option<usize>]| tables::slot_bytes(table, &pool, slots);
        self.run(pool.iter().map(|h| Entry::Text(&texts[*h])));
        self.layout.extend(slots(&table.base));
        self.layout.push(table.default_verbosity.unwrap_or(u8::MAX));
        self.layout.extend(slots(&[table.definitive]));
        self.u16(u16::try_from(table.rules.len()).expect("fewer than 65,536 runners"));
        for rule in &table.rules {
            match &rule.runner {
                Some(runner) => self.entry(Entry::Name(runner.clone())),
                None => self.u16(NO_TEXT),
            }
            match &rule.model {
                ModelMatch::Any => self.layout.push(0),
                ModelMatch::Exact(model) => {
                    self.layout.push(1);
                    self.entry(Entry::Name(model.clone()));
                }
                ModelMatch::List(models) => {
                    self.layout.push(2);
                    self.run(models.iter().cloned().map(Entry::Name));
                }
            }
            self.layout.extend(slots(&rule.slots));
        }
    }

    /// Writes the annotated fields: each serialized name and its description.
    pub fn fields(&mut self, fields: &'a [ValidField]) {
        let count = u16::try_from(fields.len()).expect("a struct has fewer than 65,536 fields");
        self.u16(count);
        for field in fields {
            self.entry(Entry::Name(field.name.clone()));
            self.description(&field.checked.texts, field.checked.plan.clone());
        }
    }

    /// Writes the declared annotations.
    pub fn annotations(&mut self, annotations: Option<&'a AnnotationsAttr>) {
        let Some(a) = annotations else {
            self.layout.push(0);
            return;
        };
        self.layout.push(1);
        match &a.title {
            Some(title) => self.entry(Entry::Text(title)),
            None => self.u16(NO_TEXT),
        }
        let h = &a.hints;
        for hint in [
            h.read_only_hint,
            h.destructive_hint,
            h.idempotent_hint,
            h.open_world_hint,
        ] {
            self.layout.push(match hint {
                None => 0,
                Some(Hint(false)) => 1,
                Some(Hint(true)) => 2,
            });
        }
    }

    /// Writes the required scopes: every group a run of names.
    pub fn scopes(&mut self, scopes: &[Vec<String>]) {
        let count = u16::try_from(scopes.len()).expect("fewer than 65,536 scope groups");
        self.u16(count);
        for group in scopes {
            self.run(group.iter().cloned().map(Entry::Name));
        }
    }
}

/// Appends `value` as an unsigned LEB128 number.
fn varint(out: &mut Vec<u8>, mut value: usize) {
    while value >= 0x80 {
        out.push((value & 0x7F) as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}
