//! Variants that can never be served: each becomes a warning at the dead entry, of one
//! kind. A site silences its warnings with `allow(dead_variants)`.
//!
//! A non-empty tier always answers, so what sits below it is dead: inline level entries
//! under a non-empty `verbosity_map`, a list's `default` under level entries or a map (it is
//! still the definitive text), a rule's `default` next to its level entries. A runner rule
//! never wins when a rule ranked before it matches every reader it matches. A declared tag
//! no map entry and no rule names is never served.
//!
//! In an overlay (no gap-fill) a tier answers only the levels it covers, so what sits below
//! it is dead only where those cover every level: level entries under a map covering all
//! ten, a default under tiers covering all ten, a rule's default next to levels covering
//! all ten.

use crate::ast::{DescSpec, DescValue, Front, Tag};
use crate::tables::{self, ALL_LEVELS, Plan, covered};

/// One warning: where, and which kind (the runtime crate holds each kind's message, as the
/// note of a deprecated constant named after the kind: `level_entry`, `list_default`,
/// `rule_default`, `shadowed_rule`, `unused_variant`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning<L> {
    /// Where the dead entry was written.
    pub loc: L,
    /// Which kind of dead variant it is.
    pub kind: &'static str,
}

/// The dead variants of one description site; `plan` is it as planned, its rules one per
/// runner of `spec`, in declaration order.
pub fn warnings<F: Front, T>(spec: &DescSpec<F>, plan: &Plan<T>) -> Vec<Warning<F::Loc>> {
    let rules = &plan.rules;
    // Whether a tier covering `mask` leaves nothing below it to answer.
    let answers_all = |mask: tables::Mask| !spec.overlay || mask == ALL_LEVELS;
    let mut out = Vec::new();
    let mut warn = |loc: &F::Loc, kind: &'static str| {
        out.push(Warning {
            loc: loc.clone(),
            kind,
        });
    };
    if let Some(DescValue::List(list)) = &spec.description {
        let map = !spec.verbosity_map.is_empty() && answers_all(covered(&plan.vmap));
        if map {
            for (level, _) in &list.entries {
                warn(level.loc(), "level_entry");
            }
        }
        let above = covered(&plan.vmap) | covered(&plan.levels);
        let has_tier = !spec.verbosity_map.is_empty() || !list.entries.is_empty();
        if let Some(default) = &list.default
            && has_tier
            && answers_all(above)
        {
            warn(&F::text_loc(default), "list_default");
        }
    }
    for (runner, rule) in spec.runners.iter().zip(rules) {
        if let Some(default) = &runner.default
            && !runner.rules.is_empty()
            && answers_all(covered(&rule.levels))
        {
            warn(&default.loc, "rule_default");
        }
    }
    let order = tables::rank(rules);
    for (position, &index) in order.iter().enumerate() {
        if order[..position]
            .iter()
            .any(|&a| tables::covers(&rules[a], &rules[index]))
        {
            warn(&spec.runners[index].matchers, "shadowed_rule");
        }
    }
    let used = |tag: &Tag<F>| {
        let name = |t: &Tag<F>| t.name == tag.name;
        spec.verbosity_map.iter().any(|(_, t)| name(t))
            || spec.runners.iter().any(|r| {
                r.rules.iter().any(|(_, t)| name(t)) || r.default.as_ref().is_some_and(name)
            })
    };
    for (tag, _) in &spec.descriptions {
        if !used(tag) {
            warn(&tag.loc, "unused_variant");
        }
    }
    out
}
