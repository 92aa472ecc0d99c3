//! The views of a catalog: `matrix` (every string per reader and level), `tokens` (the
//! catalog per reader and level, and what each level saves), and `diff` (two readers), each
//! a value that prints for people (`Display`) and, where it is a table, as JSON.

use super::catalog::Size;
use super::readers::ReaderClass;
use mcp_tailor_core::{Description, MAX_VERBOSITY, ToolDef};
use serde_json::{Value, json};
use std::fmt::{self, Write as _};

/// `matrix`: every string of every tool per reader class and level, then the catalog.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub(super) defs: Vec<&'static ToolDef>,
    pub(super) classes: Vec<ReaderClass>,
    pub(super) tokens: Tokens,
}

/// `tokens`: the whole catalog's size per reader class at each level 0..=9 (every
/// `tools/list` page, less the `nextCursor` a harness follows and no model reads).
#[derive(Clone, Debug)]
pub struct Tokens {
    pub(super) sizes: Vec<(ReaderClass, [Size; 10])>,
}

/// `diff A B`: the strings two readers read differently, and their catalogs per level.
#[derive(Clone, Debug)]
pub struct Diff {
    pub(super) defs: Vec<&'static ToolDef>,
    pub(super) sizes: [(ReaderClass, [Size; 10]); 2],
}

impl Tokens {
    /// Each reader class and its catalog's size at levels 0..=9.
    pub fn sizes(&self) -> &[(ReaderClass, [Size; 10])] {
        &self.sizes
    }

    /// `{reader: [{level, tokens, bytes, saving_percent}, …]}`.
    pub fn json(&self) -> Value {
        tokens_json(&self.sizes)
    }
}

impl Matrix {
    /// `{readers, tools: [{name, definitive, strings: [{string, readers: {reader:
    /// [cell per level]}}]}], catalog}`, a cell `{text, bytes, tokens, source?}` or `null`.
    pub fn json(&self) -> Value {
        matrix_json(&self.defs, &self.classes, &self.tokens.sizes)
    }
}

impl fmt::Display for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tokens_text(&self.sizes))
    }
}

impl fmt::Display for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&matrix_text(&self.defs, &self.classes, &self.tokens.sizes))
    }
}

impl fmt::Display for Diff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [(a, sa), (b, sb)] = &self.sizes;
        f.write_str(&diff_text(&self.defs, a, b, (sa, sb)))
    }
}

/// A string of a tool that can be tailored: its label in reports, its key (`title`,
/// `description`, an argument's path) and its description.
pub(super) struct Tailorable {
    pub(super) label: String,
    pub(super) key: String,
    pub(super) description: &'static Description,
}

/// The strings of a tool that can be tailored: title, description, each annotated argument.
pub(super) fn strings(def: &'static ToolDef) -> Vec<Tailorable> {
    let item = |label: String, key: String, description| Tailorable {
        label,
        key,
        description,
    };
    let mut out = vec![
        item("title".into(), "title".into(), def.title()),
        item(
            "description".into(),
            "description".into(),
            def.description(),
        ),
    ];
    out.extend(
        def.arguments()
            .map(|(path, d)| item(format!("argument `{path}`"), path, d)),
    );
    out
}

/// What a reader reads at one level: the text, and whose words it is (see [`source`]).
type Cell = (Option<&'static str>, &'static str);

/// Whose words a cell is, where a tailoring file overlays a server's catalog: ` · file`,
/// ` · server's own`; nothing for a compiled definition.
fn source(def: &ToolDef, key: &str, class: &ReaderClass, level: usize) -> &'static str {
    match def.reads_file(key, &class.ctx(level as u8)) {
        Some(true) => " · file",
        Some(false) => " · server's own",
        None => "",
    }
}

/// What `class` reads of `description` at each level.
pub(super) fn cells<'a>(description: &'a Description, class: &ReaderClass) -> Vec<Option<&'a str>> {
    (0..=MAX_VERBOSITY)
        .map(|level| description.resolve(&class.ctx(level)))
        .collect()
}

/// Runs of levels with the same cell: `(first, last)`.
pub(super) fn runs<T: PartialEq>(cells: &[T]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < cells.len() {
        let mut end = start;
        while end + 1 < cells.len() && cells[end + 1] == cells[start] {
            end += 1;
        }
        out.push((start, end));
        start = end + 1;
    }
    out
}

/// `4`, or `0..=2`.
pub(super) fn levels(first: usize, last: usize) -> String {
    if first == last {
        format!("{first}")
    } else {
        format!("{first}..={last}")
    }
}

/// `matrix`, for people: per tool and string, the readers that read alike and what they
/// read at each run of levels (with tokens), then the catalog per reader and level.
fn matrix_text(
    defs: &[&'static ToolDef],
    classes: &[ReaderClass],
    catalog: &[(ReaderClass, [Size; 10])],
) -> String {
    let mut out = String::new();
    for def in defs {
        let _ = writeln!(out, "{}", def.name());
        if let Some(definitive) = def.description().definitive() {
            let _ = writeln!(out, "  definitive: {definitive:?}");
        }
        for string in strings(def) {
            let _ = writeln!(out, "  {}", string.label);
            // Readers read alike when their texts and their texts' sources are alike.
            let mut groups: Vec<(Vec<&ReaderClass>, Vec<Cell>)> = Vec::new();
            for class in classes {
                let cells: Vec<_> = cells(string.description, class)
                    .into_iter()
                    .enumerate()
                    .map(|(level, text)| (text, source(def, &string.key, class, level)))
                    .collect();
                match groups.iter_mut().find(|(_, c)| *c == cells) {
                    Some((names, _)) => names.push(class),
                    None => groups.push((vec![class], cells)),
                }
            }
            for (names, cells) in groups {
                let names: Vec<String> = names.iter().map(|c| c.label()).collect();
                let who = if names.len() == classes.len() {
                    "everyone".to_owned()
                } else {
                    names.join(", ")
                };
                let _ = writeln!(out, "    {who}");
                for (first, last) in runs(&cells) {
                    let (text, source) = cells[first];
                    let text = match text {
                        Some(t) => match super::tokens::count(t) {
                            1 => format!("{t:?} (1 token){source}"),
                            n => format!("{t:?} ({n} tokens){source}"),
                        },
                        None => format!("(nothing){source}"),
                    };
                    let _ = writeln!(out, "      {:<6} {text}", levels(first, last));
                }
            }
        }
        out.push('\n');
    }
    out.push_str(&tokens_text(catalog));
    out
}

/// `matrix --json`.
fn matrix_json(
    defs: &[&'static ToolDef],
    classes: &[ReaderClass],
    catalog: &[(ReaderClass, [Size; 10])],
) -> Value {
    let tools: Vec<Value> = defs
        .iter()
        .map(|def| {
            let strings: Vec<Value> = strings(def)
                .into_iter()
                .map(|string| {
                    let readers: serde_json::Map<String, Value> = classes
                        .iter()
                        .map(|class| {
                            let cells: Vec<Value> = cells(string.description, class)
                                .into_iter()
                                .enumerate()
                                .map(|(level, text)| match text {
                                    Some(t) => {
                                        let mut cell = json!({"text": t, "bytes": t.len(), "tokens": super::tokens::count(t)});
                                        if let Some(file) = def.reads_file(&string.key, &class.ctx(level as u8)) {
                                            cell["source"] = (if file { "file" } else { "own" }).into();
                                        }
                                        cell
                                    }
                                    None => Value::Null,
                                })
                                .collect();
                            (class.label(), Value::Array(cells))
                        })
                        .collect();
                    json!({"string": string.label, "readers": readers})
                })
                .collect();
            json!({"name": def.name(), "definitive": def.description().definitive(), "strings": strings})
        })
        .collect();
    json!({
        "readers": classes.iter().map(ReaderClass::label).collect::<Vec<_>>(),
        "tools": tools,
        "catalog": tokens_json(catalog),
    })
}

/// The saving of `size` against the richest (largest) level, in percent.
fn saving(size: &Size, sizes: &[Size; 10]) -> f64 {
    let richest = sizes.iter().map(|s| s.tokens).max().unwrap_or(0);
    if richest == 0 {
        0.0
    } else {
        100.0 * (1.0 - size.tokens as f64 / richest as f64)
    }
}

/// `tokens`, for people: per reader, the catalog's tokens and bytes at each level and what
/// each level saves against the richest.
fn tokens_text(catalog: &[(ReaderClass, [Size; 10])]) -> String {
    let mut out = String::from(
        "catalog per reader and level: o200k_base tokens (bytes), saving against the richest level\n",
    );
    for (class, sizes) in catalog {
        let _ = writeln!(out, "  {}", class.label());
        for (level, size) in sizes.iter().enumerate() {
            let _ = writeln!(
                out,
                "    {level}  {:>7} tokens  {:>8} bytes  {:>5.1}%",
                size.tokens,
                size.bytes,
                saving(size, sizes)
            );
        }
    }
    out
}

/// `tokens --json`: `{reader: [{level, tokens, bytes, saving_percent}, …]}`.
fn tokens_json(catalog: &[(ReaderClass, [Size; 10])]) -> Value {
    let readers: serde_json::Map<String, Value> = catalog
        .iter()
        .map(|(class, sizes)| {
            let levels: Vec<Value> = sizes
                .iter()
                .enumerate()
                .map(|(level, size)| {
                    json!({
                        "level": level,
                        "tokens": size.tokens,
                        "bytes": size.bytes,
                        "saving_percent": (saving(size, sizes) * 10.0).round() / 10.0,
                    })
                })
                .collect();
            (class.label(), Value::Array(levels))
        })
        .collect();
    Value::Object(readers)
}

/// `diff A B`: every string the two readers read differently, per run of levels, and the
/// catalog's tokens for each at each level.
fn diff_text(
    defs: &[&'static ToolDef],
    a: &ReaderClass,
    b: &ReaderClass,
    sizes: (&[Size; 10], &[Size; 10]),
) -> String {
    let (la, lb) = (a.label(), b.label());
    let mut out = format!("{la} vs {lb}\n");
    let mut same = true;
    for def in defs {
        for string in strings(def) {
            let (label, description) = (&string.label, string.description);
            let pairs: Vec<_> = cells(description, a)
                .into_iter()
                .zip(cells(description, b))
                .collect();
            for (first, last) in runs(&pairs) {
                let (ta, tb) = pairs[first];
                if ta == tb {
                    continue;
                }
                same = false;
                let show = |t: Option<&str>| t.map_or("(nothing)".to_owned(), |t| format!("{t:?}"));
                let _ = writeln!(out, "{} {label} at {}", def.name(), levels(first, last));
                let _ = writeln!(out, "  {la}: {}", show(ta));
                let _ = writeln!(out, "  {lb}: {}", show(tb));
            }
        }
    }
    if same {
        out.push_str("(every string reads the same)\n");
    }
    out.push_str("catalog tokens per level\n");
    for level in 0..10 {
        let _ = writeln!(
            out,
            "  {level}  {la}: {:>7}  {lb}: {:>7}",
            sizes.0[level].tokens, sizes.1[level].tokens
        );
    }
    out
}
