//! The rules that need more than one part of a description site: level domain, inverted
//! ranges, repeated set members, levels covered twice, tags declared twice or never, and the
//! text limit. Every rule reports into the [`Sink`] and carries on, so one run shows every
//! mistake. Variants that can never be served become warnings ([`dead`]).

use crate::ast::{DescSpec, DescValue, Front, Level, LevelSpec, Model, Runner, RunnerMatch, Tag};
use crate::dead::{self, Warning};
use crate::errors::{Sink, backticked};
use crate::tables::{Mask, ModelMatch, Plan, Rule, range_mask};

/// At most this many distinct texts per description (slot 254 says nothing, 255 has no
/// text).
pub const MAX_TEXTS: usize = 254;

/// The checked form of one description: its texts, a plan whose handles index them, and
/// the warnings about variants it can never serve.
pub struct Checked<F: Front> {
    /// The distinct texts (equal literals once), which the plan's handles index.
    pub texts: Vec<F::Text>,
    /// Everything the site declares, ready for [`tables::build`](crate::tables::build).
    pub plan: Plan<usize>,
    /// The variants it can never serve (none when dead variants are allowed).
    pub warnings: Vec<Warning<F::Loc>>,
}

/// Checks a description site. `doc` is the text to use when the site gives no description
/// (a doc comment).
pub fn desc<F: Front>(
    spec: &DescSpec<F>,
    doc: Option<F::Text>,
    errors: &mut impl Sink<F::Loc>,
) -> Checked<F> {
    let checked = plan(spec, doc, errors);
    if let Some(text) = checked.texts.get(MAX_TEXTS) {
        errors.error(
            F::text_loc(text),
            format!(
                "{} distinct texts in one description; at most {MAX_TEXTS} are supported",
                checked.texts.len()
            ),
        );
    }
    checked
}

/// A level within 0..=9, or an error where it was written.
pub fn level<F: Front>(level: &Level<F>, errors: &mut impl Sink<F::Loc>) -> Option<u8> {
    match u8::try_from(level.value) {
        Ok(v) if v <= 9 => Some(v),
        _ => {
            errors.error(
                level.loc.clone(),
                format!("verbosity level {} is outside 0..=9", level.value),
            );
            None
        }
    }
}

/// The levels a level spec names, one bit each (bit N: level N), reporting domain errors,
/// inverted ranges and repeated members.
pub fn spec_mask<F: Front>(spec: &LevelSpec<F>, errors: &mut impl Sink<F::Loc>) -> Option<Mask> {
    match spec {
        LevelSpec::One(l) => level(l, errors).map(|v| 1 << v),
        LevelSpec::Range { lo, hi, loc } => {
            let (lo_v, hi_v) = (level(lo, errors), level(hi, errors));
            let (lo_v, hi_v) = (lo_v?, hi_v?);
            if lo_v > hi_v {
                errors.error(
                    loc.clone(),
                    format!("inverted range `{lo_v}..={hi_v}`; write `{hi_v}..={lo_v}`"),
                );
                return None;
            }
            Some(range_mask(lo_v, hi_v))
        }
        LevelSpec::Set { members, loc } => {
            if members.is_empty() {
                errors.error(
                    loc.clone(),
                    "empty level set; list at least one level".into(),
                );
                return None;
            }
            let mut mask: Mask = 0;
            let mut ok = true;
            for member in members {
                match level(member, errors) {
                    Some(v) if mask & (1 << v) != 0 => {
                        errors.error(
                            member.loc.clone(),
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
fn table<'a, F: Front + 'a, H: Copy + 'a>(
    entries: impl IntoIterator<Item = (&'a LevelSpec<F>, Option<H>)>,
    errors: &mut impl Sink<F::Loc>,
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
            errors.error(
                spec.loc().clone(),
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
struct Texts<F: Front>(Vec<F::Text>);

impl<F: Front> Texts<F> {
    fn add(&mut self, text: &F::Text) -> usize {
        if F::is_nothing(text)
            && let Some(index) = self.0.iter().position(F::is_nothing)
        {
            return index;
        }
        if let Some(value) = F::literal(text)
            && let Some(index) = self.0.iter().position(|t| F::literal(t) == Some(value))
        {
            return index;
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
    fn lookup<F: Front>(&self, tag: &Tag<F>, errors: &mut impl Sink<F::Loc>) -> Option<usize> {
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
        errors.error(tag.loc.clone(), message);
        None
    }
}

fn runner_rule<F: Front>(
    runner: &Runner<F>,
    variants: &Variants,
    errors: &mut impl Sink<F::Loc>,
) -> Rule<usize> {
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

fn plan<F: Front>(
    spec: &DescSpec<F>,
    doc: Option<F::Text>,
    errors: &mut impl Sink<F::Loc>,
) -> Checked<F> {
    let mut texts = Texts::<F>(Vec::new());
    let mut plan = Plan {
        overlay: spec.overlay,
        ..Plan::default()
    };

    let doc_value;
    let description = match (&spec.description, doc) {
        (Some(value), _) => Some(value),
        (None, Some(doc)) => {
            doc_value = DescValue::Bare(doc);
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
            errors.error(
                tag.loc.clone(),
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

    plan.nothing = texts.0.iter().position(F::is_nothing);
    let warnings = if spec.allow_dead {
        Vec::new()
    } else {
        dead::warnings(spec, &plan)
    };
    Checked {
        texts: texts.0,
        plan,
        warnings,
    }
}
