//! The tailoring file's front of the shared model (`File`: byte ranges, string texts), and
//! reading TOML values with every mistake reported at its byte range: the keys a table may
//! have, and a value's expected kind.

use mcp_tailor_model::ast::Front;
use mcp_tailor_model::{Errors, Sink, rules};
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue};

/// The file's front of the shared model: locations are byte ranges of the file, texts are
/// strings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct File;

/// A text as the file wrote it.
#[derive(Clone, Debug)]
pub(crate) struct FileText {
    pub(crate) value: String,
    pub(crate) span: Range<usize>,
}

impl Front for File {
    type Loc = Range<usize>;
    type Text = FileText;

    fn literal(text: &FileText) -> Option<&str> {
        Some(&text.value)
    }

    fn text_loc(text: &FileText) -> Range<usize> {
        text.span.clone()
    }
}

/// Where something was written: a byte range of the file.
pub(super) type Span = Range<usize>;
/// A TOML value with its span.
pub(super) type Value<'i> = Spanned<DeValue<'i>>;

/// The keys of `table` that are among `known`, each unknown one reported with the closest
/// known key (darling's wording, as the macro reports it).
pub(super) fn keys<'t, 'i>(
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
pub(super) fn describe(value: &DeValue<'_>) -> &'static str {
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

pub(super) fn table<'t, 'i>(
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

pub(super) fn array<'t, 'i>(
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
