//! The tailoring file's front end: TOML (parsed with spans by `toml`) read into the shared
//! model (`mcp-tailor-model`), every structural mistake reported at its byte range and the
//! reading carried on, so one load shows every mistake. The model's rules come after
//! (`valid`), the same as the macro's.

use mcp_tailor_model::ast::{
    DescList, DescSpec, DescValue, Front, Level, LevelSpec, Model, Runner, RunnerMatch, Tag,
};
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

/// What the file declares for one tool, read but not yet checked.
pub(crate) struct ToolSpec {
    pub(crate) name: String,
    pub(crate) span: Range<usize>,
    pub(crate) title: Option<DescSpec<File>>,
    pub(crate) description: Option<DescSpec<File>>,
    /// Each argument by serialized name (or a dotted path into a nested object).
    pub(crate) arguments: Vec<(String, Range<usize>, DescSpec<File>)>,
}

/// The whole file, read.
#[derive(Default)]
pub(crate) struct FileSpec {
    pub(crate) instructions: Option<DescSpec<File>>,
    pub(crate) tools: Vec<ToolSpec>,
}

const ROOT_KEYS: &[&str] = &["tools", "instructions"];
const TOOL_KEYS: &[&str] = &["title", "description", "arguments"];
const ARGUMENT_KEYS: &[&str] = &["description"];
const DESC_KEYS: &[&str] = &[
    "levels",
    "default",
    "default_verbosity",
    "descriptions",
    "verbosity_map",
    "runners",
    "allow",
];
const TITLE_KEYS: &[&str] = &["levels", "default", "default_verbosity", "allow"];
const LEVEL_ENTRY_KEYS: &[&str] = &["verbosity", "text"];
const TAG_ENTRY_KEYS: &[&str] = &["verbosity", "tag"];
const RUNNER_KEYS: &[&str] = &["runner", "model", "levels", "default"];

type Span = Range<usize>;
type Value<'i> = Spanned<DeValue<'i>>;

/// Reads a parsed file; errors go to `errors`.
pub(crate) fn file(root: &Spanned<DeTable<'_>>, errors: &mut Errors<Span>) -> FileSpec {
    let mut out = FileSpec::default();
    for (key, value) in keys(root.get_ref(), ROOT_KEYS, errors) {
        match key {
            "instructions" => out.instructions = desc(value, false, errors),
            _ => {
                let Some(tools) = table(value, "a table of tools", errors) else {
                    continue;
                };
                for (name, tool_value) in tools.iter() {
                    out.tools.extend(tool(name, tool_value, errors));
                }
            }
        }
    }
    out
}

fn tool(
    name: &Spanned<std::borrow::Cow<'_, str>>,
    value: &Value<'_>,
    errors: &mut Errors<Span>,
) -> Option<ToolSpec> {
    if let Some(message) = rules::tool_name(name.get_ref()) {
        errors.error(name.span(), message);
    }
    let table = table(value, "a tool's table", errors)?;
    let mut spec = ToolSpec {
        name: name.get_ref().to_string(),
        span: name.span(),
        title: None,
        description: None,
        arguments: Vec::new(),
    };
    for (key, value) in keys(table, TOOL_KEYS, errors) {
        match key {
            "title" => spec.title = desc(value, true, errors),
            "description" => spec.description = desc(value, false, errors),
            _ => {
                let Some(arguments) = self::table(value, "a table of arguments", errors) else {
                    continue;
                };
                for (arg, value) in arguments.iter() {
                    let Some(arg_table) = self::table(value, "an argument's table", errors) else {
                        continue;
                    };
                    for (_, value) in keys(arg_table, ARGUMENT_KEYS, errors) {
                        if let Some(desc) = desc(value, false, errors) {
                            spec.arguments
                                .push((arg.get_ref().to_string(), arg.span(), desc));
                        }
                    }
                }
            }
        }
    }
    Some(spec)
}

/// The keys of `table` that are among `known`, each unknown one reported with the closest
/// known key (darling's wording, as the macro reports it).
fn keys<'t, 'i>(
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
fn describe(value: &DeValue<'_>) -> &'static str {
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

fn table<'t, 'i>(
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

fn array<'t, 'i>(
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

/// `title = …`, `description = …` or `[instructions]`: a text, or a table.
fn desc(value: &Value<'_>, is_title: bool, errors: &mut Errors<Span>) -> Option<DescSpec<File>> {
    let table = match value.get_ref() {
        DeValue::Table(table) => table,
        _ => {
            return text(value, errors).map(|text| DescSpec {
                description: Some(DescValue::Bare(text)),
                ..DescSpec::default()
            });
        }
    };
    let mut spec = DescSpec::default();
    let mut list = DescList::default();
    let mut listed = false;
    for (key, value) in table.iter() {
        let name = key.get_ref().as_ref();
        if !DESC_KEYS.contains(&name) {
            errors.error(
                key.span(),
                rules::unknown_key(name, if is_title { TITLE_KEYS } else { DESC_KEYS }),
            );
            continue;
        }
        if is_title && !TITLE_KEYS.contains(&name) {
            errors.error(key.span(), rules::misplaced_key(name, true));
            continue;
        }
        match name {
            "levels" => {
                listed = true;
                list.entries = entries(value, LEVEL_ENTRY_KEYS, "text", errors, text);
            }
            "default" => {
                listed = true;
                list.default = text(value, errors);
            }
            "default_verbosity" => {
                listed = true;
                list.default_verbosity = level(value, errors);
            }
            "descriptions" => spec.descriptions = descriptions(value, errors),
            "verbosity_map" => {
                spec.verbosity_map = entries(value, TAG_ENTRY_KEYS, "tag", errors, tag);
            }
            "runners" => spec.runners = runners(value, errors),
            _ => spec.allow_dead = allow(value, errors),
        }
    }
    if listed {
        spec.description = Some(DescValue::List(list));
    }
    Some(spec)
}

/// `allow = ["dead_variants"]`.
fn allow(value: &Value<'_>, errors: &mut Errors<Span>) -> bool {
    let form = "`allow = [\"dead_variants\"]`";
    let Some(items) = array(value, form, errors) else {
        return false;
    };
    let mut dead = false;
    for item in items.iter() {
        match item.get_ref().as_str() {
            Some("dead_variants") => dead = true,
            Some(other) => errors.error(item.span(), rules::unknown_key(other, &["dead_variants"])),
            None => errors.error(item.span(), format!("expected {form}")),
        }
    }
    dead
}

/// A list of `{ verbosity = S, <what> = … }` entries, `what` read by `read`.
fn entries<T>(
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
fn text(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<FileText> {
    match value.get_ref() {
        DeValue::String(s) => {
            if let Some(problem) = rules::text_problem(s) {
                errors.error(value.span(), problem.to_owned());
                return None;
            }
            Some(FileText {
                value: s.to_string(),
                span: value.span(),
            })
        }
        other => {
            errors.error(
                value.span(),
                format!("expected text: a string; found {}", describe(other)),
            );
            None
        }
    }
}

fn tag(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<Tag<File>> {
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

/// `descriptions = { tag = "text", … }`.
fn descriptions(value: &Value<'_>, errors: &mut Errors<Span>) -> Vec<(Tag<File>, FileText)> {
    let Some(variants) = table(value, "a table of variants `{ tag = \"text\", … }`", errors)
    else {
        return Vec::new();
    };
    variants
        .iter()
        .filter_map(|(key, value)| {
            let tag = Tag {
                name: key.get_ref().to_string(),
                loc: key.span(),
            };
            text(value, errors).map(|text| (tag, text))
        })
        .collect()
}

/// A level `N` as an integer (any sign or size, so the domain rule words the error).
fn level(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<Level<File>> {
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
fn level_spec(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<LevelSpec<File>> {
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

const RUNNER_FORM: &str = "`{ runner = \"name\" | \"_\", model = \"name\" | \"_\" | [\"a\", …], levels = [{ verbosity = S, tag = \"…\" }, …], default = \"tag\" }`";

/// `runners = [{ runner, model, levels, default }, …]`.
fn runners(value: &Value<'_>, errors: &mut Errors<Span>) -> Vec<Runner<File>> {
    let Some(items) = array(value, RUNNER_FORM, errors) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| runner(item, errors))
        .collect()
}

fn runner(item: &Value<'_>, errors: &mut Errors<Span>) -> Option<Runner<File>> {
    let entry = table(item, &format!("a runner rule {RUNNER_FORM}"), errors)?;
    let (mut runner, mut model, mut rules_, mut default) = (None, None, Vec::new(), None);
    let mut matchers = item.span();
    let mut ok = true;
    for (key, value) in keys(entry, RUNNER_KEYS, errors) {
        match key {
            "runner" => {
                matchers = value.span();
                runner = matcher(value, "runner", errors);
                ok &= runner.is_some();
            }
            "model" => {
                model = model_match(value, errors);
                ok &= model.is_some();
            }
            "levels" => rules_ = entries(value, TAG_ENTRY_KEYS, "tag", errors, tag),
            _ => default = tag(value, errors),
        }
    }
    for (key, seen) in [("runner", runner.is_some()), ("model", model.is_some())] {
        if !seen && !entry.iter().any(|(k, _)| k.get_ref() == key) {
            errors.error(
                item.span(),
                format!("missing key `{key}` in this runner rule; write {RUNNER_FORM}"),
            );
            ok = false;
        }
    }
    if let Some((_, value)) = entry.iter().find(|(k, _)| k.get_ref() == "model") {
        matchers = matchers.start.min(value.span().start)..matchers.end.max(value.span().end);
    }
    if !ok {
        return None;
    }
    Some(Runner {
        runner: match runner.flatten() {
            None => RunnerMatch::Any,
            Some(name) => RunnerMatch::Exact(name),
        },
        model: model?,
        rules: rules_,
        default,
        matchers,
    })
}

/// `"_"` → `Some(None)`; a name → `Some(Some(name))`; else an error.
fn matcher(value: &Value<'_>, what: &str, errors: &mut Errors<Span>) -> Option<Option<String>> {
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

fn model_match(value: &Value<'_>, errors: &mut Errors<Span>) -> Option<Model> {
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
