//! A hand-written level of an upstream's tool, held to the server's own words as `init`'s
//! drafts are: every rule kept, no value the server never said.

use super::{Finding, Known, Strings};
use crate::prose::rules::{is_call_rule, is_rule};
use crate::prose::units;

/// A file's text that drops a rule the server's own words state (`Mutually exclusive with
/// assignee_username.`, checked as `init` tells rules: a tool's naming its call or an
/// argument), or says a quoted value, number or code span they do not (one the schema
/// names, an argument, a tool or a value, aside): what a model trusts of the upstream must
/// be the upstream's. Only where the server's words are read at some level (an upstream's
/// tool), once per text.
pub(super) fn keeps_the_servers_rules(
    string: &Strings<'_>,
    known: &Known<'_>,
    findings: &mut Vec<Finding>,
) {
    let properties = known.properties;
    let texts = string.texts();
    let Some(own) = texts.iter().copied().find(|text| string.servers_own(text)) else {
        return;
    };
    let units = match string.key {
        "description" => {
            let names: Vec<String> = properties.iter().cloned().collect();
            units(own, &|text| is_call_rule(text, &names))
        }
        _ => units(own, &is_rule),
    };
    let squeezed = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let own_squeezed = squeezed(own);
    for text in texts
        .into_iter()
        .filter(|text| !text.trim().is_empty() && *text != own)
    {
        let said = squeezed(text);
        for unit in units.iter().filter(|unit| unit.rule) {
            if !unit
                .forms()
                .iter()
                .any(|form| said.contains(&squeezed(form)))
            {
                findings.push(string.finding(
                    text,
                    format!(
                        "drops the server's rule \"{}\"; a rule a valid call depends on is the last thing a level drops",
                        unit.text
                    ),
                ));
            }
        }
        let quoted = text
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|code| format!("`{code}`"))
            .chain(
                text.split('"')
                    .skip(1)
                    .step_by(2)
                    .map(|value| format!("\"{value}\"")),
            )
            .chain(
                text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .map(|n| n.trim_matches('.'))
                    .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()))
                    .map(str::to_owned),
            );
        for value in quoted {
            let bare = value.trim_matches(['`', '"']);
            let named = known.properties.contains(bare)
                || known.values.contains(bare)
                || known.tools.contains(bare);
            if !named && !own_squeezed.contains(&squeezed(&value)) {
                findings.push(string.finding(
                    text,
                    format!(
                        "says {value}, which the server's words do not; say only what they say"
                    ),
                ));
            }
        }
    }
}
