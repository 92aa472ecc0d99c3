//! The first wording of each drafted level, picked from the server's own units
//! ([`prose`](crate::prose)): a tool's description at 0..=2 reads its lead sentence, at
//! 3..=6 the sentences of its lead paragraph that fit; an argument's at 0..=2 its facts,
//! at 3..=6 its first sentence and its facts. Every level keeps every rule of what it
//! words where it says anything, and a level never says less than the one below it.

use super::facts::{Fact, fact, is_example};
use super::{ArgumentDraft, Budgets};
use mcp_tailor_inspect::count_tokens;
use mcp_tailor_inspect::seam::property_names;
use mcp_tailor_inspect::seam::prose::{Form, Picks, Unit, is_call_rule, is_rule, units};
use rmcp::model::Tool;
use serde_json::Value;
use std::collections::BTreeSet;

/// The units of a tool's description (its asides that state a rule kept when lean), the
/// names of its arguments telling its rules ([`is_call_rule`]).
pub(crate) fn tool_units(tool: &Tool) -> Vec<Unit> {
    let mut names = BTreeSet::new();
    property_names(&Value::Object((*tool.input_schema).clone()), &mut names);
    let names: Vec<String> = names.into_iter().collect();
    let description = tool.description.as_deref().unwrap_or_default();
    units(description, &|text| is_call_rule(text, &names))
}

/// The units of an argument's description: its asides that state a rule or a standing
/// fact (a value, a format, a default) kept when lean, never an example.
pub(crate) fn argument_units(description: &str, schema: &serde_json::Value) -> Vec<Unit> {
    let mut units = units(description, &is_rule);
    for unit in &mut units {
        unit.keeping(|aside| !is_example(aside) && fact(aside, schema) == Some(Fact::Standing));
    }
    units
}

/// The prose units of the paragraphs from `lead` on, in order.
fn prose_from(units: &[Unit], lead: usize) -> Vec<usize> {
    (0..units.len())
        .filter(|&at| units[at].prose() && units[at].paragraph >= lead)
        .collect()
}

/// Whether `picks` read within `budget` tokens.
fn fits(units: &[Unit], picks: &Picks, budget: usize) -> bool {
    count_tokens(&picks.text(units)) <= budget
}

/// A tool's terse picks: the first sentence of its lead paragraph (`lead`), lean, where it
/// fits `budget`; with the rules. Nothing where it does not fit: a level-0 description is
/// short or the check steps it up.
pub(crate) fn terse(units: &[Unit], lead: usize, budget: usize) -> Picks {
    let first = prose_from(units, lead).into_iter().next();
    let picks = match first {
        Some(first) if budget > 0 => Picks::of(units, [first], Form::Lean),
        _ => return Picks::default(),
    };
    match fits(units, &picks, budget) {
        true => picks.with_rules(units),
        false => Picks::default(),
    }
}

/// A tool's middle picks: the sentences of its lead paragraph (and of those before it,
/// where all fit) while they fit `budget`, each whole where that fits, else lean; its
/// first one at least; with the rules.
pub(crate) fn middle(units: &[Unit], lead: usize, budget: usize) -> Picks {
    if budget == 0 {
        return Picks::default();
    }
    let before = Picks::of(
        units,
        (0..units.len()).filter(|&at| units[at].prose() && units[at].paragraph < lead),
        Form::Whole,
    );
    let mut picks = match fits(units, &before, budget) {
        true => before,
        false => Picks::default(),
    };
    let paragraph = prose_from(units, lead)
        .first()
        .map(|&first| units[first].paragraph);
    for at in prose_from(units, lead) {
        if Some(units[at].paragraph) != paragraph {
            break;
        }
        let fitted = [Form::Whole, Form::Lean].into_iter().find_map(|form| {
            let mut more = picks.clone();
            more.add(units, at, form);
            fits(units, &more, budget).then_some(more)
        });
        match fitted {
            Some(more) => picks = more,
            None if picks.is_empty() => {
                picks.add(units, at, Form::Lean);
                break;
            }
            None => break,
        }
    }
    picks.with_rules(units)
}

/// An argument's draft from its own words `own` and schema, within `budgets`; `None`
/// where no level says less than its own words.
pub(crate) fn argument(
    path: String,
    own: String,
    schema: &serde_json::Value,
    budgets: &Budgets,
) -> Option<ArgumentDraft> {
    let units = argument_units(&own, schema);
    let tokens = count_tokens(&own);
    let facts: Vec<usize> = (0..units.len())
        .filter(|&at| units[at].prose() && fact(&units[at].lean(), schema).is_some())
        .filter(|&at| !is_example(&units[at].text))
        .collect();
    // 0..=2: its facts while they fit (the first at least), and its rules: the last
    // thing a level drops.
    let terse = match budgets.facts {
        0 => Picks::default(),
        budget => {
            let mut picks = Picks::default();
            for &at in &facts {
                let mut more = picks.clone();
                more.add(&units, at, Form::Lean);
                if picks.is_empty() || fits(&units, &more, budget) {
                    picks = more;
                }
            }
            for at in (0..units.len()).filter(|&at| units[at].rule) {
                picks.add(&units, at, Form::Lean);
            }
            picks
        }
    };
    // 3..=6: its first sentence and its facts within the budget, its rules, and what
    // 0..=2 says.
    let middle = match budgets.argument {
        0 => Picks::default(),
        budget => {
            let mut picks = Picks::default();
            let first = (0..units.len()).find(|&at| units[at].prose());
            for at in first.into_iter().chain(facts.iter().copied()) {
                let fitted = [Form::Whole, Form::Lean].into_iter().find_map(|form| {
                    let mut more = picks.clone();
                    more.add(&units, at, form);
                    fits(&units, &more, budget).then_some(more)
                });
                match fitted {
                    Some(more) => picks = more,
                    None if picks.is_empty() => picks.add(&units, at, Form::Lean),
                    None => {}
                }
            }
            picks.with_rules(&units).union(&units, &terse)
        }
    };
    // A level no shorter than the server's words reads them (`None`).
    let shorter = |picks: Picks| (count_tokens(&picks.text(&units)) < tokens).then_some(picks);
    let (terse, middle) = (shorter(terse), shorter(middle));
    if terse.is_none() && middle.is_none() {
        return None;
    }
    let whole = [terse.as_ref(), middle.as_ref()].map(|picks| {
        let picks = picks?;
        let whole = Picks::of(&units, picks.units(), Form::Whole);
        (whole != *picks).then(|| shorter(whole)).flatten()
    });
    Some(ArgumentDraft {
        path,
        own,
        units,
        terse,
        middle,
        whole,
        step: [0, 0],
    })
}
