//! The tailoring file's values: texts, tags, levels and level specs (`N`, `"LO..=HI"`,
//! `[A, B, …]`), entry lists and matchers, each read into the shared model or reported with
//! the wording the macro uses for the same mistake.

use super::source::{File, FileText, Span, Value, array, describe, keys, table};
use mcp_tailor_model::ast::{Level, LevelSpec, Model, Tag};
use mcp_tailor_model::{Errors, Sink, rules};
use toml::de::DeValue;

/// A list of `{ verbosity = S, <what> = … }` entries, `what` read by `read`.
pub(super) fn entries<T>(
    value: &Value<'_>,
    known: &'static [&'static str],
    what: &str,
    errors: &mut Errors<Span>,
    read: impl Fn(&Value<'_>, &mut Errors<Span>) -> Option<T>,
) -> Vec<(LevelSpec<File>, T)> {
    let entry_form = format!("`{{ verbosity = S, {what} = … }}`");
    let form = format!("`[{{ verbosity = S, {what} = … }}, …]`");
    let Some(items) = array(value, &form, errors) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let entry = table(item, &format!("an entry {entry_form}"), errors)?;
            let mut spec = None;
            let mut found = None;
            for (key, value) in keys(entry, known, errors) {
                if key == "verbosity" {
                    spec = level_spec(value, errors).map(Some);
                } else {
                    found = read(value, errors).map(Some);
                }
            }
            for (key, seen) in [("verbosity", spec.is_some()), (what, found.is_some())] {
                if !seen && !entry.iter().any(|(k, _)| k.get_ref() == key) {
                    errors.error(
                        item.span(),
                        format!("missing key `{key}` in this entry; write {entry_form}"),
                    );
                }
            }
            spec.flatten().zip(found.flatten())
        })
        .collect()
}

/// A text: a string the rules accept.
pub(super) fn text(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<FileText> {
    match value.get_ref() {
        DeValue::String(s) => {
            if let Some(problem) = rules::text_problem(s) {
                errors.error(value.span(), problem.to_owned());
                return None;
            }
            Some(FileText {
                value: s.to_string(),
                span: value.span(),
                nothing: false,
            })
        }
        // `false`: say nothing — the key is left out where this answers.
        DeValue::Boolean(false) => Some(FileText {
            value: String::new(),
            span: value.span(),
            nothing: true,
        }),
        other => {
            errors.error(
                value.span(),
                format!(
                    "expected text: a string, or `false` to say nothing; found {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

pub(super) fn tag(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<Tag<File>> {
    match value.get_ref() {
        DeValue::String(s) => Some(Tag {
            name: s.to_string(),
            loc: value.span(),
        }),
        other => {
            errors.error(
                value.span(),
                format!(
                    "expected a variant tag (a string); found {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

/// A level `N` as an integer (any sign or size, so the domain rule words the error).
pub(super) fn level(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<Level<File>> {
    match value.get_ref() {
        DeValue::Integer(int) => {
            let digits = int.as_str().replace('_', "");
            match i128::from_str_radix(&digits, int.radix()) {
                Ok(value_) => Some(Level {
                    value: value_,
                    loc: value.span(),
                }),
                Err(_) => {
                    errors.error(value.span(), rules::expected_level("an integer too large"));
                    None
                }
            }
        }
        other => {
            errors.error(value.span(), rules::expected_level(describe(other)));
            None
        }
    }
}

/// A level spec `S`: `N`, `"LO..=HI"` or `[A, B, …]`.
pub(super) fn level_spec(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<LevelSpec<File>> {
    match value.get_ref() {
        DeValue::String(s) => range(s, value.span(), errors),
        DeValue::Array(set) => {
            let members: Vec<_> = set.iter().filter_map(|m| level(m, errors)).collect();
            (members.len() == set.len()).then(|| LevelSpec::Set {
                members,
                loc: value.span(),
            })
        }
        _ => level(value, errors).map(LevelSpec::One),
    }
}

/// `"LO..=HI"` (a string: TOML has no ranges).
fn range(written: &str, span: Span, errors: &mut Errors<Span>) -> Option<LevelSpec<File>> {
    let (lo, hi, inclusive) = match written.split_once("..") {
        Some((lo, hi)) => match hi.strip_prefix('=') {
            Some(hi) => (lo.trim(), hi.trim(), true),
            None => (lo.trim(), hi.trim(), false),
        },
        None => {
            errors.error(span, rules::expected_level("a string"));
            return None;
        }
    };
    if lo.is_empty() || hi.is_empty() {
        errors.error(span, rules::OPEN_RANGE.to_owned());
        return None;
    }
    let (Ok(lo), Ok(hi)) = (lo.parse::<i128>(), hi.parse::<i128>()) else {
        errors.error(span, rules::expected_level("a string"));
        return None;
    };
    if !inclusive {
        errors.error(span, rules::exclusive_range(lo, hi));
        return None;
    }
    let level = |value| Level {
        value,
        loc: span.clone(),
    };
    Some(LevelSpec::Range {
        lo: level(lo),
        hi: level(hi),
        loc: span.clone(),
    })
}

/// `"_"` → `Some(None)`; a name → `Some(Some(name))`; else an error.
pub(super) fn matcher(
    value: &Value<'_>,
    what: &str,
    errors: &mut Errors<Span>,
) -> Option<Option<String>> {
    match value.get_ref() {
        DeValue::String(s) if s == "_" => Some(None),
        DeValue::String(s) => Some(Some(s.to_string())),
        DeValue::Integer(n) => {
            errors.error(value.span(), rules::numeric_matcher(what, n.as_str()));
            None
        }
        DeValue::Float(n) => {
            errors.error(value.span(), rules::numeric_matcher(what, n.as_str()));
            None
        }
        other => {
            errors.error(
                value.span(),
                format!(
                    "expected a {what} matcher: `\"_\"` or a name; found {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

pub(super) fn model_match(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<Model> {
    if let DeValue::Array(list) = value.get_ref() {
        let names: Vec<_> = list
            .iter()
            .filter_map(|m| match matcher(m, "model", errors) {
                Some(Some(name)) => Some(name),
                Some(None) => {
                    errors.error(m.span(), rules::ANY_IN_LIST.to_owned());
                    None
                }
                None => None,
            })
            .collect();
        return (names.len() == list.len()).then_some(Model::List(names));
    }
    match matcher(value, "model", errors)? {
        None => Some(Model::Any),
        Some(name) => Some(Model::Exact(name)),
    }
}
