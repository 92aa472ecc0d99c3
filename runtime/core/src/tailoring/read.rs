//! The tailoring file's front end: TOML (parsed with spans by `toml`) read into the shared
//! model (`mcp-tailor-model`), every structural mistake reported at its byte range and the
//! reading carried on, so one load shows every mistake. The model's rules come after
//! (`valid`), the same as the macro's.

use super::dsl_values::{entries, level, level_spec, matcher, model_match, tag, text};
use super::source::{File, FileText, Span, Value, array, keys, table};
use mcp_tailor_model::ast::{DescList, DescSpec, DescValue, LevelSpec, Runner, RunnerMatch, Tag};
use mcp_tailor_model::{Errors, Sink, rules};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// What the file declares for one tool, read but not yet checked.
pub(crate) struct ToolSpec {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) title: Option<DescSpec<File>>,
    pub(crate) description: Option<DescSpec<File>>,
    /// Each argument by serialized name (or a dotted path into a nested object).
    pub(crate) arguments: Vec<(String, Span, DescSpec<File>)>,
    /// `drafted_from = "…"`: the fingerprint of the server's words `init` drafted from.
    pub(crate) drafted_from: Option<(String, Span)>,
}

/// The whole file, read.
#[derive(Default)]
pub(crate) struct FileSpec {
    /// `fallback_verbosity = N`: the level a reader naming none reads the file at.
    pub(crate) fallback_verbosity: Option<mcp_tailor_model::ast::Level<File>>,
    pub(crate) instructions: Option<DescSpec<File>>,
    /// `[arguments]`: the description of every argument no entry words.
    pub(crate) every_argument: Option<DescSpec<File>>,
    /// `[schemas]`: the levels each kind of schema boilerplate is left out at, by key
    /// (`dialect`, `titles`).
    pub(crate) schemas: Vec<(&'static str, LevelSpec<File>)>,
    pub(crate) tools: Vec<ToolSpec>,
    /// `[surface]`: which readers get which surface.
    pub(crate) surfaces: Vec<super::surfaces::FileSurfaceRule>,
}

const ROOT_KEYS: &[&str] = &[
    "fallback_verbosity",
    "arguments",
    "schemas",
    "tools",
    "instructions",
    "surface",
];
const SCHEMA_KEYS: &[&str] = &["dialect", "titles"];
const TOOL_KEYS: &[&str] = &["title", "description", "arguments", "drafted_from"];
const ARGUMENT_KEYS: &[&str] = &["description"];
const DESC_KEYS: &[&str] = &[
    "levels",
    "default",
    "default_verbosity",
    "descriptions",
    "verbosity_map",
    "runners",
    "allow",
    "fill",
];
const TITLE_KEYS: &[&str] = &["levels", "default", "default_verbosity", "allow", "fill"];
const LEVEL_ENTRY_KEYS: &[&str] = &["verbosity", "text"];
const TAG_ENTRY_KEYS: &[&str] = &["verbosity", "tag"];
const RUNNER_KEYS: &[&str] = &["runner", "model", "levels", "default"];

/// Reads a parsed file; errors go to `errors`.
pub(crate) fn file(root: &Spanned<DeTable<'_>>, errors: &mut Errors<Span>) -> FileSpec {
    let mut out = FileSpec::default();
    for (key, value) in keys(root.get_ref(), ROOT_KEYS, errors) {
        match key {
            "instructions" => out.instructions = desc(value, false, errors),
            "surface" => out.surfaces = super::surfaces::read(value, errors),
            "arguments" => {
                let Some(table) = table(value, "the table of every argument", errors) else {
                    continue;
                };
                for (_, value) in keys(table, ARGUMENT_KEYS, errors) {
                    out.every_argument = desc(value, false, errors);
                }
            }
            "schemas" => {
                let Some(table) = table(value, "the table of every schema", errors) else {
                    continue;
                };
                for (key, value) in keys(table, SCHEMA_KEYS, errors) {
                    out.schemas
                        .extend(level_spec(value, errors).map(|s| (key, s)));
                }
            }
            "fallback_verbosity" => match value.get_ref() {
                DeValue::Integer(_) => out.fallback_verbosity = level(value, errors),
                other => errors.error(
                    value.span(),
                    format!(
                        "`fallback_verbosity` is one level 0..=9 (an integer); found {}",
                        super::source::describe(other)
                    ),
                ),
            },
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
        drafted_from: None,
    };
    for (key, value) in keys(table, TOOL_KEYS, errors) {
        match key {
            "title" => spec.title = desc(value, true, errors),
            "drafted_from" => match value.get_ref() {
                DeValue::String(s) => spec.drafted_from = Some((s.to_string(), value.span())),
                other => errors.error(
                    value.span(),
                    format!(
                        "`drafted_from` is the fingerprint `init` wrote (a string); found {}",
                        super::source::describe(other)
                    ),
                ),
            },
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

/// `title = …`, `description = …` or `[instructions]`: a text, or a table.
fn desc(value: &Value<'_>, is_title: bool, errors: &mut Errors<Span>) -> Option<DescSpec<File>> {
    let table = match value.get_ref() {
        DeValue::Table(table) => table,
        _ => {
            return text(value, errors).map(|text| DescSpec {
                description: Some(DescValue::Bare(text)),
                overlay: true,
                ..DescSpec::default()
            });
        }
    };
    // A file's table overlays the tool's own words unless it opts into gap-fill.
    let mut spec = DescSpec {
        overlay: true,
        ..DescSpec::default()
    };
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
            "fill" => spec.overlay = !fill(value, errors),
            _ => spec.allow_dead = allow(value, errors),
        }
    }
    if listed {
        spec.description = Some(DescValue::List(list));
    }
    Some(spec)
}

/// `fill = "nearest"` (the DSL's gap-fill: the nearest covered level answers every other)
/// or `fill = "none"` (the default: an uncovered level reads the tool's own words). Whether
/// it fills.
fn fill(value: &Value<'_>, errors: &mut Errors<Span>) -> bool {
    match value.get_ref().as_str() {
        Some("nearest") => true,
        Some("none") => false,
        _ => {
            errors.error(
                value.span(),
                "expected `fill = \"nearest\"` (gap-fill, as the DSL does) or `fill = \"none\"` (uncovered levels read the tool's own words; the default)".to_owned(),
            );
            false
        }
    }
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
