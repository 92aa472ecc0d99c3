//! The tailoring file's front of the shared model (`File`: byte ranges, string texts), and
//! reading TOML values with every mistake reported at its byte range: the keys a table may
//! have, and a value's expected kind.

use super::{Diagnostic, Location};
use mcp_tailor_model::ast::Front;
use mcp_tailor_model::{Errors, Sink, rules};
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

/// The file's front of the shared model: locations are byte ranges of the file, texts are
/// strings.
#[derive(Clone, Copy, Debug)]
pub struct File;

/// A text as the file wrote it: a string, or `false` (say nothing).
#[derive(Clone, Debug)]
pub struct FileText {
    /// The text (empty for `false`).
    pub value: String,
    /// Where it stands in the file, in bytes.
    pub span: Range<usize>,
    /// `false` was written: the key is left out where this answers.
    pub nothing: bool,
}

impl Front for File {
    type Loc = Range<usize>;
    type Text = FileText;

    fn literal(text: &FileText) -> Option<&str> {
        (!text.nothing).then_some(text.value.as_str())
    }

    fn text_loc(text: &FileText) -> Range<usize> {
        text.span.clone()
    }

    fn is_nothing(text: &FileText) -> bool {
        text.nothing
    }
}

/// Where something was written: a byte range of the file.
pub type Span = Range<usize>;
/// A TOML value with its span.
pub type Value<'i> = Spanned<DeValue<'i>>;

/// The keys of `table` that are among `known`, each unknown one reported with the closest
/// known key (darling's wording, as the macro reports it).
pub fn keys<'t, 'i>(
    table: &'t DeTable<'i>,
    known: &'static [&'static str],
    errors: &mut Errors<Span>,
) -> Vec<(&'static str, &'t Value<'i>)> {
    let mut out = Vec::new();
    for (key, value) in table.iter() {
        match known.iter().find(|k| **k == key.get_ref().as_ref()) {
            Some(k) => out.push((*k, value)),
            None => errors.error(key.span(), rules::unknown_key(key.get_ref(), known)),
        }
    }
    out
}

/// A short phrase naming what kind of value the file wrote.
pub fn describe(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date-time",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

/// `value` as a table, or an error saying it is not `what`.
pub fn table<'t, 'i>(
    value: &'t Value<'i>,
    what: &str,
    errors: &mut Errors<Span>,
) -> Option<&'t DeTable<'i>> {
    match value.get_ref() {
        DeValue::Table(table) => Some(table),
        other => {
            errors.error(
                value.span(),
                format!("expected {what}; found {}", describe(other)),
            );
            None
        }
    }
}

/// `value` as an array, or an error saying it is not of `form`.
pub fn array<'t, 'i>(
    value: &'t Value<'i>,
    form: &str,
    errors: &mut Errors<Span>,
) -> Option<&'t DeArray<'i>> {
    match value.get_ref() {
        DeValue::Array(array) => Some(array),
        other => {
            errors.error(
                value.span(),
                format!("expected a list: {form}; found {}", describe(other)),
            );
            None
        }
    }
}

/// Where each line of a source starts, so a byte offset becomes `LINE:COL` in a binary
/// search (a file of thousands of tools has thousands of locations).
pub struct Lines<'s> {
    file: &'s str,
    source: &'s str,
    starts: Vec<usize>,
}

impl<'s> Lines<'s> {
    /// The lines of `source`, the file named `file`.
    pub fn new(file: &'s str, source: &'s str) -> Self {
        let starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines {
            file,
            source,
            starts,
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub fn locate(&self, offset: usize) -> Location {
        let offset = offset.min(self.source.len());
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        Location {
            file: self.file.to_owned(),
            line,
            column: self
                .source
                .get(start..offset)
                .map_or(1, |s| s.chars().count() + 1),
        }
    }
}

/// A TOML syntax error's message; a key given twice is named (TOML forbids it, so the
/// rule "one `default` per list" and its kin are TOML's there).
fn syntax_message(message: &str, at: Option<&str>) -> String {
    match at {
        Some(key) if message == "duplicate key" && !key.is_empty() => {
            format!("`{key}` given twice; keep one")
        }
        _ => message.to_owned(),
    }
}

/// Every mistake of a TOML source — its syntax errors, then `errors` — in file order, each
/// located.
pub fn diagnostics(
    lines: &Lines<'_>,
    syntax: &[toml::de::Error],
    errors: Errors<Span>,
) -> Vec<Diagnostic> {
    let mut found: Vec<(usize, String)> = syntax
        .iter()
        .map(|e| {
            let span = e.span().unwrap_or(0..0);
            (
                span.start,
                syntax_message(e.message(), lines.source.get(span.clone())),
            )
        })
        .chain(
            errors
                .into_vec()
                .into_iter()
                .map(|(span, m)| (span.start, m)),
        )
        .collect();
    found.sort_by_key(|(offset, _)| *offset);
    found
        .into_iter()
        .map(|(offset, message)| Diagnostic {
            at: lines.locate(offset),
            message,
        })
        .collect()
}
