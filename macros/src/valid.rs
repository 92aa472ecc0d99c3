//! Validation: the whole tool (name, fields, every description, limits, duplicate
//! serialized names) and, per description, the rules that need more than one token: level
//! domain, inverted ranges, duplicate coverage, duplicate and undeclared tags. Every rule
//! reports into the shared `Errors` and carries on, so one compile shows every mistake.
//! Variants that can never be served become warnings (`dead`).

use crate::ast::{
    Annotations, DescSpec, DescValue, Level, LevelSpec, Model, Runner, RunnerMatch, Tag, Text,
    ToolAttr,
};
use crate::dead::{self, Warning};
use crate::errors::{Errors, backticked};
use crate::input::ToolInput;
use crate::tables::{Mask, ModelMatch, Plan, Rule, range_mask};
use proc_macro2::Span;

/// At most this many distinct texts per description (slot 255 means "none").
const MAX_TEXTS: usize = 255;

/// The checked form of one description: its texts, a plan whose handles index them, and
/// the warnings about variants it can never serve.
pub struct Checked {
    pub texts: Vec<Text>,
    pub plan: Plan<usize>,
    pub warnings: Vec<Warning>,
}

/// An annotated field, checked: its serialized name and its description.
pub struct ValidField {
    pub name: String,
    pub checked: Checked,
}

/// A tool that passed validation: everything `expand` needs, nothing left to check.
pub struct ValidTool {
    pub ident: syn::Ident,
    pub name: String,
    pub title: Checked,
    pub description: Checked,
    pub fields: Vec<ValidField>,
    pub annotations: Option<Annotations>,
    pub scopes: Vec<Vec<String>>,
}

/// Validates a whole tool. `None` when anything is wrong (every error reported).
pub fn tool(attr: ToolAttr, input: &ToolInput, errors: &mut Errors) -> Option<ValidTool> {
    let ident = input.item.ident.clone();
    if let Some((name, span)) = &attr.name {
        tool_name(name, *span, errors);
    }
    let name = attr.tool_name(&ident);
    let doc = input.doc.as_ref().map(|(d, s)| (d.as_str(), *s));
    let allow_dead = attr.desc.allow_dead;
    let description = desc(&attr.desc, doc, allow_dead, errors);
    let title_spec = DescSpec {
        description: attr.title,
        ..Default::default()
    };
    let title = desc(&title_spec, None, allow_dead, errors);
    let fields = fields(input, allow_dead, errors);
    (errors.is_empty() && input.well_formed).then_some(ValidTool {
        ident,
        name,
        title,
        description,
        fields,
        annotations: attr.annotations,
        scopes: attr.scopes,
    })
}

/// Validates the annotated fields of a struct: each description, and that no two
/// serialize under one name. `allow_dead` silences dead-variant warnings for all of them.
pub fn fields(input: &ToolInput, allow_dead: bool, errors: &mut Errors) -> Vec<ValidField> {
    let mut out: Vec<ValidField> = Vec::new();
    for field in &input.fields {
        if out.iter().any(|f| f.name == field.serialized_name) {
            errors.at(
                &field.rust_name,
                format!(
                    "two annotated fields serialize as `{}`",
                    field.serialized_name
                ),
            );
        }
        let doc = field.doc.as_ref().map(|(d, s)| (d.as_str(), *s));
        let checked = desc(
            &field.desc,
            doc,
            allow_dead || field.desc.allow_dead,
            errors,
        );
        out.push(ValidField {
            name: field.serialized_name.clone(),
            checked,
        });
    }
    out
}

/// A level within 0..=9, or an error at its token.
fn level(level: &Level, errors: &mut Errors) -> Option<u8> {
    match u8::try_from(level.value) {
        Ok(v) if v <= 9 => Some(v),
        _ => {
            errors.at(
                &level.tokens,
                format!("verbosity level {} is outside 0..=9", level.value),
            );
            None
        }
    }
}

/// The mask of a level spec, reporting domain errors, inverted ranges and repeated members.
fn spec_mask(spec: &LevelSpec, errors: &mut Errors) -> Option<Mask> {
    match spec {
        LevelSpec::One(l) => level(l, errors).map(|v| 1 << v),
        LevelSpec::Range { lo, hi, tokens } => {
            let (lo_v, hi_v) = (level(lo, errors), level(hi, errors));
            let (lo_v, hi_v) = (lo_v?, hi_v?);
            if lo_v > hi_v {
                errors.at(
                    tokens,
                    format!("inverted range `{lo_v}..={hi_v}`; write `{hi_v}..={lo_v}`"),
                );
                return None;
            }
            Some(range_mask(lo_v, hi_v))
        }
        LevelSpec::Set { members, tokens } => {
            if members.is_empty() {
                errors.at(tokens, "empty level set; list at least one level");
                return None;
            }
            let mut mask: Mask = 0;
            let mut ok = true;
            for member in members {
                match level(member, errors) {
                    Some(v) if mask & (1 << v) != 0 => {
                        errors.at(
                            &member.tokens,
                            format!("level {v} is listed twice in this set"),
                        );
                        ok = false;
                    }
                    Some(v) => mask |= 1 << v,
                    None => ok = false,
                }
            }
            ok.then_some(mask)
        }
    }
}

/// Checks one table (inline list, vmap, or one runner's rules): each spec's mask, and that
/// no level is covered twice.
fn table<'a, H: Copy + 'a>(
    entries: impl IntoIterator<Item = (&'a LevelSpec, Option<H>)>,
    errors: &mut Errors,
) -> Vec<(Mask, H)> {
    let mut covered: Mask = 0;
    let mut out = Vec::new();
    for (spec, handle) in entries {
        let Some(mask) = spec_mask(spec, errors) else {
            continue;
        };
        let overlap = covered & mask;
        if overlap != 0 {
            let twice: Vec<_> = (0..10).filter(|l| overlap & (1 << l) != 0).collect();
            let levels = twice
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let noun = if twice.len() == 1 { "level" } else { "levels" };
            errors.at(
                spec.tokens(),
                format!("{noun} {levels} already covered by an earlier entry of this table"),
            );
            continue;
        }
        covered |= mask;
        if let Some(handle) = handle {
            out.push((mask, handle));
        }
    }
    out
}

/// Interns texts: equal literals share one handle.
#[derive(Default)]
struct Texts(Vec<Text>);

impl Texts {
    fn add(&mut self, text: &Text) -> usize {
        if let Text::Lit { value, .. } = text {
            let found = self
                .0
                .iter()
                .position(|t| matches!(t, Text::Lit { value: v, .. } if v == value));
            if let Some(index) = found {
                return index;
            }
        }
        self.0.push(text.clone());
        self.0.len() - 1
    }
}

/// The declared variants: tag → handle.
struct Variants {
    tags: Vec<(String, usize)>,
}

impl Variants {
    fn lookup(&self, tag: &Tag, errors: &mut Errors) -> Option<usize> {
        if let Some((_, handle)) = self.tags.iter().find(|(name, _)| *name == tag.name) {
            return Some(*handle);
        }
        let message = if self.tags.is_empty() {
            format!(
                "unknown variant tag `{}`; no tags are declared: add `descriptions = [{} = \"…\"]`",
                tag.name, tag.name
            )
        } else {
            let names: Vec<_> = self.tags.iter().map(|(n, _)| n.as_str()).collect();
            format!(
                "unknown variant tag `{}`; declared tags: {}",
                tag.name,
                backticked(&names)
            )
        };
        errors.at_span(tag.span, message);
        None
    }
}

fn runner_rule(runner: &Runner, variants: &Variants, errors: &mut Errors) -> Rule<usize> {
    let tagged: Vec<_> = runner
        .rules
        .iter()
        .map(|(spec, tag)| (spec, variants.lookup(tag, errors)))
        .collect();
    let levels = table(tagged.iter().map(|(s, h)| (*s, *h)), errors);
    let default = runner
        .default
        .as_ref()
        .and_then(|t| variants.lookup(t, errors));
    Rule {
        runner: match &runner.runner {
            RunnerMatch::Any => None,
            RunnerMatch::Exact(name) => Some(name.clone()),
        },
        model: match &runner.model {
            Model::Any => ModelMatch::Any,
            Model::Exact(name) => ModelMatch::Exact(name.clone()),
            Model::List(names) => ModelMatch::List(names.clone()),
        },
        levels,
        default,
    }
}

/// Checks a description site. `doc` is the doc comment, the description when none is given;
/// `allow_dead` skips the dead-variant warnings.
pub fn desc(
    spec: &DescSpec,
    doc: Option<(&str, Span)>,
    allow_dead: bool,
    errors: &mut Errors,
) -> Checked {
    let checked = plan(spec, doc, allow_dead, errors);
    if checked.texts.len() > MAX_TEXTS {
        let span = checked
            .texts
            .get(MAX_TEXTS)
            .map_or_else(Span::call_site, Text::span);
        errors.at_span(
            span,
            format!(
                "{} distinct texts in one description; at most {MAX_TEXTS} are supported",
                checked.texts.len()
            ),
        );
    }
    checked
}

fn plan(
    spec: &DescSpec,
    doc: Option<(&str, Span)>,
    allow_dead: bool,
    errors: &mut Errors,
) -> Checked {
    let mut texts = Texts::default();
    let mut plan = Plan::default();

    let doc_value;
    let description = match (&spec.description, doc) {
        (Some(value), _) => Some(value),
        (None, Some((doc, span))) => {
            doc_value = DescValue::Bare(Text::Lit {
                value: doc.to_owned(),
                lit: syn::LitStr::new(doc, span),
            });
            Some(&doc_value)
        }
        (None, None) => None,
    };
    match description {
        Some(DescValue::Bare(text)) => plan.default = Some(texts.add(text)),
        Some(DescValue::List(list)) => {
            let handles: Vec<_> = list
                .entries
                .iter()
                .map(|(spec, text)| (spec, Some(texts.add(text))))
                .collect();
            plan.levels = table(handles, errors);
            plan.default = list.default.as_ref().map(|t| texts.add(t));
            plan.default_verbosity = list
                .default_verbosity
                .as_ref()
                .and_then(|l| level(l, errors));
        }
        None => {}
    }

    let mut variants = Variants { tags: Vec::new() };
    for (tag, text) in &spec.descriptions {
        if variants.tags.iter().any(|(name, _)| *name == tag.name) {
            errors.at_span(
                tag.span,
                format!("variant tag `{}` declared twice", tag.name),
            );
            continue;
        }
        variants.tags.push((tag.name.clone(), texts.add(text)));
    }

    let vmap: Vec<_> = spec
        .verbosity_map
        .iter()
        .map(|(spec, tag)| (spec, variants.lookup(tag, errors)))
        .collect();
    plan.vmap = table(vmap, errors);
    plan.rules = spec
        .runners
        .iter()
        .map(|runner| runner_rule(runner, &variants, errors))
        .collect();

    let warnings = if allow_dead {
        Vec::new()
    } else {
        dead::warnings(spec, &plan.rules)
    };
    Checked {
        texts: texts.0,
        plan,
        warnings,
    }
}

/// A tool name: 1..=128 characters of `A-Z a-z 0-9 _ - .`.
pub fn tool_name(name: &str, span: Span, errors: &mut Errors) {
    let valid_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if name.is_empty() || name.len() > 128 || !name.chars().all(valid_char) {
        errors.at_span(
            span,
            format!("invalid tool name `{name}`; use 1..=128 characters of `A-Z a-z 0-9 _ - .`"),
        );
    }
}
