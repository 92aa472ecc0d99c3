//! What a tailoring file's levels say of a catalog, audited against the server's own
//! words: each level made only of the server's units, whole or less asides, in its order
//! ([`faithful`]); every rule kept where the level says anything, and nothing kept
//! without what it refers to; level 0 never longer than 3..=6, nor 3..=6 than the
//! server's words; a level-0 tool description within its bound, or why not. `init` audits
//! every draft it writes; `check --catalog` audits any file.

use super::check::served_all;
use super::described;
use super::words::{argument_units, tool_units};
use mcp_tailor_core::Tailoring;
use mcp_tailor_inspect::count_tokens;
use mcp_tailor_inspect::seam::prose::{Form, Unit, compose, faithful, ruled};
use rmcp::model::Tool;
use std::collections::BTreeMap;

/// The levels audited: each band's first.
const LEVELS: [(u8, &str); 2] = [(0, "0..=2"), (3, "3..=6")];

/// What the audit found.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Audit {
    /// What breaks a promise, each once.
    pub findings: Vec<AuditFinding>,
    /// The level-0 tool descriptions over the bound, and why.
    pub over: Vec<Over>,
    /// The rules the server's words state, and how level 0 reads them.
    pub rules: RuleCount,
    /// The tokens a level-0 tool description stays within, but for [`Audit::over`].
    pub bound: usize,
}

/// One broken promise: where, at which levels, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuditFinding {
    /// The tool.
    pub tool: String,
    /// `description`, or an argument's path.
    pub place: String,
    /// The levels (`0..=2`, `3..=6`).
    pub levels: &'static str,
    /// What is wrong.
    pub kind: Broken,
    /// The text concerned.
    pub detail: String,
}

/// What a level does that it must not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Broken {
    /// It says what is not the server's units, whole or less asides, in their order.
    NotOwn,
    /// It says something in this place but drops a rule of it.
    RuleDropped,
    /// It keeps a unit without one it refers to (`If using Option 1…`).
    Orphan,
    /// It is longer than the level above it.
    Grows,
}

impl std::fmt::Display for AuditFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            Broken::NotOwn => "says what is not the server's own sentences, whole and in order",
            Broken::RuleDropped => "drops a rule of the server's words",
            Broken::Orphan => "keeps a sentence without what it refers to",
            Broken::Grows => "is longer than the level above it",
        };
        write!(
            f,
            "{} {} [{}]: {what}: \"{}\"",
            self.tool, self.place, self.levels, self.detail
        )
    }
}

/// A level-0 tool description over the bound.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Over {
    /// The tool.
    pub tool: String,
    /// Its level-0 description's tokens.
    pub tokens: usize,
    /// Why it says that much.
    pub why: OverWhy,
}

/// Why a level-0 description is over the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OverWhy {
    /// Its rules (and what they refer to) are what exceeds it: they go last.
    Rules,
    /// Words a search finds the tool by: without them the check lost it.
    Found,
}

/// The rule sentences of the server's words, and level 0's reading of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuleCount {
    /// Rule units in tools' and arguments' descriptions.
    pub rules: usize,
    /// Of them, kept at level 0.
    pub kept: usize,
    /// Of them, where level 0 says nothing in their place.
    pub silent: usize,
}

/// Audits `tailoring`'s levels 0 and 3 of `tools` against their own words; a level-0
/// tool description over `bound` tokens is counted in [`Audit::over`].
pub fn audit(tools: &[Tool], tailoring: &Tailoring, bound: usize) -> Audit {
    let mut audit = Audit {
        bound,
        ..Audit::default()
    };
    let served = LEVELS.map(|(level, _)| served_all(tools, tailoring, level));
    for (at, own) in tools.iter().enumerate() {
        let levels = [&served[0][at], &served[1][at]];
        let own_text = own.description.as_deref().unwrap_or_default();
        let units = tool_units(own);
        let texts = levels.map(|tool| tool.description.as_deref().unwrap_or_default().to_owned());
        audit.place(own, "description", &units, own_text, &texts);
        let tokens = count_tokens(&texts[0]);
        if tokens > bound {
            let rules = faithful(&units, &texts[0]).map(|kept| {
                let ruled = ruled(&units);
                let prose: Vec<usize> = kept.into_iter().filter(|&u| !ruled[u]).collect();
                let text = compose(
                    &units,
                    &prose.iter().map(|&u| (u, Form::Lean)).collect::<Vec<_>>(),
                );
                count_tokens(&text) <= bound
            });
            audit.over.push(Over {
                tool: own.name.to_string(),
                tokens,
                why: match rules {
                    Some(true) => OverWhy::Rules,
                    _ => OverWhy::Found,
                },
            });
        }
        let mut arguments = Vec::new();
        described(&own.input_schema, &own.input_schema, "", &mut arguments);
        let said = levels.map(|tool| {
            let mut found = Vec::new();
            described(&tool.input_schema, &tool.input_schema, "", &mut found);
            found
                .into_iter()
                .map(|(path, text, _)| (path, text))
                .collect::<BTreeMap<_, _>>()
        });
        for (path, text, schema) in arguments {
            let units = argument_units(&text, &schema);
            let texts = said
                .clone()
                .map(|mut said| said.remove(&path).unwrap_or_default());
            audit.place(own, &path, &units, &text, &texts);
        }
    }
    audit
}

impl Audit {
    /// Audits one place (`description` or an argument's path) of `tool`: its `units` of
    /// `own`, read at levels 0 and 3 as `texts`.
    fn place(&mut self, tool: &Tool, place: &str, units: &[Unit], own: &str, texts: &[String; 2]) {
        let mut finding = |levels: &'static str, kind: Broken, detail: &str| {
            let finding = AuditFinding {
                tool: tool.name.to_string(),
                place: place.to_owned(),
                levels,
                kind,
                detail: detail.to_owned(),
            };
            if !self.findings.contains(&finding) {
                self.findings.push(finding);
            }
        };
        let rules: Vec<usize> = (0..units.len()).filter(|&u| units[u].rule).collect();
        for (i, (_, levels)) in LEVELS.iter().enumerate() {
            let text = &texts[i];
            if text.trim().is_empty() || squeezed(text) == squeezed(own) {
                if i == 0 {
                    self.rules.rules += rules.len();
                    match text.trim().is_empty() {
                        true => self.rules.silent += rules.len(),
                        false => self.rules.kept += rules.len(),
                    }
                }
                continue;
            }
            let Some(kept) = faithful(units, text) else {
                finding(levels, Broken::NotOwn, text);
                continue;
            };
            if i == 0 {
                self.rules.rules += rules.len();
                self.rules.kept += rules.iter().filter(|r| kept.contains(r)).count();
            }
            for &rule in rules.iter().filter(|r| !kept.contains(r)) {
                finding(levels, Broken::RuleDropped, &units[rule].text);
            }
            for &unit in &kept {
                if units[unit].needs.iter().any(|n| !kept.contains(n)) {
                    finding(levels, Broken::Orphan, &units[unit].text);
                }
            }
        }
        let tokens = [
            count_tokens(&texts[0]),
            count_tokens(&texts[1]),
            count_tokens(own),
        ];
        if tokens[0] > tokens[1] {
            finding("0..=2", Broken::Grows, &texts[0]);
        }
        if tokens[1] > tokens[2] {
            finding("3..=6", Broken::Grows, &texts[1]);
        }
    }

    /// Whether it found no broken promise.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// What it found, for a person: a line on the rules and the bound, each level-0
    /// description over it with why, then each broken promise.
    pub fn summary(&self) -> String {
        let rules = self.rules;
        let mut out = format!(
            "words: {} (the server's own sentences, whole, in order; level 0 never longer than 3..=6); \
             rules: {} of {} kept at level 0, {} where it says nothing in their place",
            match self.findings.len() {
                0 => "ok".to_owned(),
                n => format!("{n} broken"),
            },
            rules.kept,
            rules.rules,
            rules.silent
        );
        if !self.over.is_empty() {
            let count = |why| self.over.iter().filter(|o| o.why == why).count();
            out.push_str(&format!(
                "\nlevel-0 descriptions over {} tokens: {} ({} for their rules, {} for words a search finds them by):",
                self.bound,
                self.over.len(),
                count(OverWhy::Rules),
                count(OverWhy::Found)
            ));
            for over in &self.over {
                let why = match over.why {
                    OverWhy::Rules => "rules",
                    OverWhy::Found => "found by",
                };
                out.push_str(&format!(" {} ({}, {why});", over.tool, over.tokens));
            }
        }
        for finding in &self.findings {
            out.push_str(&format!("\nbroken: {finding}"));
        }
        out
    }
}

/// `text`, its whitespace one space each.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
