//! `mcp-tailor init`: a commented tailoring file drafted from any server's own words, for
//! every tool and described argument — deterministic, no model, no network — and the
//! structure of the catalog no wording can save ([`structure_tokens`]). (What each level
//! costs before and after a draft is the listing `proxy` serves, counted as `inspect`
//! counts it: [`CallerCatalog::sizes`](super::CallerCatalog::sizes).)
//!
//! The draft overlays the server (see [`Tailoring`](mcp_tailor_core::Tailoring)): levels 7..=9 are left to the server's
//! own words. A tool's title (for people) is left out at 0..=2. For a tool's description, levels 0..=2 read its first sentence, markup,
//! examples and parentheticals cut, within [`TERSE_TOKENS`]; 3..=6 its first paragraph, or
//! the sentences of it that fit [`MIDDLE_TOKENS`] (a first paragraph many tools share
//! leads none of them: their next one does). For an argument's description, 0..=2
//! read nothing (`false`) — unless the text says what the argument's name and type do not
//! (allowed values, formats, units, ranges, a default the schema does not state; quoted
//! values and numbers count too), then that part within [`FACT_TOKENS`] (or
//! [`ARGUMENT_TOKENS`] where no fact fits fewer whole; never more than 3..=6 reads) — and 3..=6 its first sentence and the sentences after it that state facts, within [`ARGUMENT_TOKENS`]. A wording no shorter than the server's is left out.
//!
//! Where the tools' schemas hold boilerplate no reader needs (zod's `$schema`, pydantic's
//! titles), `[schemas]` leaves it out at 0..=6.
//!
//! Then every draft checks itself ([`draft_checked`], `check.rs`): queries made of the
//! server's own clauses are ranked against each band by every search, and a band that
//! loses one steps up its ladder toward the server's words. What tells a tool apart
//! (`sharpen.rs`) gives the ladder its first rungs; `--fit` (`fit.rs`) sets the budgets.

mod asides;
mod check;
mod clip;
mod facts;
mod fit;
mod plain;
mod prints;
mod render;
mod shared;
mod sharpen;
mod toml_text;
mod update;

use super::{count_tokens, listing_json};
pub use check::{Findability, Found, Options, TOP, draft_checked};
pub use fit::{Fit, FitError};
use mcp_tailor_core::Lean;
use mcp_tailor_core::seam::schema_path;
pub(crate) use prints::drafted_prints;
pub use prints::fingerprint;
use render::render;
use rmcp::model::{ListToolsResult, Tool};
use serde_json::{Map, Value};
pub use update::{Update, update};

/// The token budget of a tool's terse description (levels 0..=2).
pub const TERSE_TOKENS: usize = 16;
/// The token budget of a tool's middle description (levels 3..=6).
pub const MIDDLE_TOKENS: usize = 48;
/// The token budget of an argument's description at 3..=6.
pub const ARGUMENT_TOKENS: usize = 24;
/// The token budget of the facts an argument's description keeps at 0..=2.
pub const FACT_TOKENS: usize = 12;

/// The token budgets a draft words its texts within; 0 says nothing (`false`) at that
/// band, the tools' titles too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// A tool's description at 0..=2 ([`TERSE_TOKENS`]).
    pub terse: usize,
    /// A tool's description at 3..=6 ([`MIDDLE_TOKENS`]).
    pub middle: usize,
    /// The facts an argument's description keeps at 0..=2 ([`FACT_TOKENS`]).
    pub facts: usize,
    /// An argument's description at 3..=6 ([`ARGUMENT_TOKENS`]).
    pub argument: usize,
}

impl Budgets {
    /// The budgets `init` drafts with unless `--fit` says otherwise.
    pub const DEFAULT: Budgets = Budgets {
        terse: TERSE_TOKENS,
        middle: MIDDLE_TOKENS,
        facts: FACT_TOKENS,
        argument: ARGUMENT_TOKENS,
    };
}

/// A drafted band of levels of a tool.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Level {
    /// 0..=2.
    Terse = 0,
    /// 3..=6.
    Middle = 1,
}

impl Level {
    /// The level a reader of this band names (its first).
    pub(crate) fn verbosity(self) -> u8 {
        match self {
            Level::Terse => 0,
            Level::Middle => 3,
        }
    }
}

/// A drafted tailoring file.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Draft {
    /// The file's text (TOML, commented).
    pub text: String,
    /// The tools it words.
    pub tools: usize,
    /// The arguments it words.
    pub arguments: usize,
    /// The tools whose drafted levels keep words of a task they would have lost
    /// (`--tasks`).
    pub kept_for_tasks: Vec<String>,
    /// What the server's own words and each drafted band cost and find
    /// ([`draft_checked`]; empty for [`draft`]).
    pub findability: Vec<Findability>,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets::DEFAULT
    }
}

/// One tool's drafted wording: its description's terse and middle texts (`None`: leave
/// the server's), and each described argument's (its path; `None` at 0..=2 says nothing).
#[derive(Clone)]
struct ToolDraft {
    name: String,
    /// The fingerprint of the server's own words ([`fingerprint`]).
    print: String,
    /// The server's own description, as one line of plain text.
    own: String,
    /// The levels its title is left out at (for people: a terse reader does without it);
    /// `None`: it has none.
    untitled: Option<&'static str>,
    /// The boilerplate its input and output schemas hold (`[schemas]`).
    lean: Lean,
    own_tokens: usize,
    /// The terse and middle texts (`None`: the server's words; empty: nothing).
    terse: Option<String>,
    middle: Option<String>,
    /// The next wordings up from each ([`sharpen`]), shortest first: each holds more of
    /// what tells the tool apart.
    more: [Vec<String>; 2],
    /// The server's own words less their sentences that tell nothing apart
    /// ([`sharpen::pruned`]): the last wording before them; `None` where none goes.
    pruned: Option<String>,
    /// How far up its ladder each level stands ([`ToolDraft::ladder`]): a check steps a
    /// level up where a search loses the tool.
    step: [usize; 2],
    /// Words a task finds the tool by, kept in its drafted levels.
    kept: Vec<String>,
    arguments: Vec<ArgumentDraft>,
}

#[derive(Clone)]
struct ArgumentDraft {
    path: String,
    own: String,
    /// Its facts at 0..=2 (`None`: nothing).
    terse: Option<String>,
    /// Its text at 3..=6 (`None`: the server's words; empty: nothing).
    middle: Option<String>,
    /// Its terse and middle texts with the values its examples quote that they do not say,
    /// where there are some and the whole is shorter than its own words: the next step up
    /// of each.
    exemplified: [Option<String>; 2],
    /// How far up its ladder each level stands ([`ArgumentDraft::ladder`]).
    step: [usize; 2],
}

/// Drafts a tailoring file for `tools`, naming `source` (a command, URL or file) in its
/// header: the first wording of each level, unchecked ([`draft_checked`] checks it).
pub fn draft(tools: &[Tool], source: &str) -> Draft {
    render(&tool_drafts(tools, &Budgets::DEFAULT), source, &[])
}

/// Every tool's draft within `budgets`, terse texts without the context every tool
/// repeats ([`shared`]), sharpened by what tells each tool apart ([`sharpen`]).
fn tool_drafts(tools: &[Tool], budgets: &Budgets) -> Vec<ToolDraft> {
    tool_drafts_with(tools, budgets, &own_terms(tools))
}

/// [`tool_drafts`], each tool's own terms `own` (made once by a caller that drafts often).
fn tool_drafts_with(tools: &[Tool], budgets: &Budgets, own: &sharpen::OwnTerms) -> Vec<ToolDraft> {
    let paragraphs: Vec<Vec<String>> = tools
        .iter()
        .map(|tool| plain::paragraphs(tool.description.as_deref().unwrap_or_default()))
        .collect();
    let leads = shared::leads(&paragraphs);
    let mut drafts: Vec<ToolDraft> = tools
        .iter()
        .zip(&paragraphs)
        .zip(leads)
        .map(|((tool, own), lead)| tool_draft(tool, own, lead, budgets))
        .collect();
    shared::heads(&mut drafts);
    shared::tails(&mut drafts);
    sharpen::sharpen(&mut drafts, &paragraphs, own, budgets);
    drafts
}

/// Each tool's own terms ([`sharpen::OwnTerms`]) among `tools`: of its title, description
/// and arguments' descriptions.
fn own_terms(tools: &[Tool]) -> sharpen::OwnTerms {
    let texts: Vec<(&str, String)> = tools
        .iter()
        .map(|tool| {
            let title = tool.title.as_deref().unwrap_or_default();
            let mut own = format!(
                "{title} {}",
                tool.description.as_deref().unwrap_or_default()
            );
            let mut arguments = Vec::new();
            described(&tool.input_schema, &tool.input_schema, "", &mut arguments);
            for (_, text, _) in arguments {
                own = format!("{own}\n\n{text}");
            }
            (tool.name.as_ref(), plain::plain(&own))
        })
        .collect();
    sharpen::OwnTerms::new(&texts)
}

/// The structure floor: `tools/list` with every title and description a tailoring file
/// reaches (the tools', and the arguments' `init` drafts) left out, and the schemas lean
/// as `init` drafts `[schemas]` — what no wording can save. (Words the file cannot reach,
/// such as an output schema's descriptions, stay.)
pub fn structure_tokens(tools: &[Tool]) -> usize {
    let nothing = Budgets {
        terse: 0,
        middle: 0,
        facts: 0,
        argument: 0,
    };
    let text = render(&tool_drafts(tools, &nothing), "", &[]).text;
    let tailoring = mcp_tailor_core::Tailoring::from_toml_str(&text).unwrap_or_default();
    check::band_tokens(tools, &tailoring, 0)
}

/// The `tools/list` result of `tools` as written: each as its server wrote it where the
/// tailoring did not change it (`read_catalog`'s and the gateway's tools carry that).
fn listing(tools: &[Tool]) -> String {
    listing_json(
        ListToolsResult::with_all_items(tools.to_vec()),
        "2025-11-25",
    )
}

/// One tool's draft, its terse and middle texts from its paragraph `lead` (of
/// `paragraphs`, [`plain::paragraphs`], never empty): the middle keeps those before it
/// where all fit.
fn tool_draft(tool: &Tool, paragraphs: &[String], lead: usize, budgets: &Budgets) -> ToolDraft {
    let own = tool.description.as_deref().unwrap_or_default();
    let own_tokens = count_tokens(own);
    // A budget of 0 says nothing; a described tool's nothing is still drafted.
    let shorter = |text: String, budget: usize| match budget {
        0 => (!own.trim().is_empty()).then(String::new),
        _ => (!text.is_empty() && count_tokens(&text) < own_tokens && !same_words(&text, own))
            .then_some(text),
    };
    let paragraph = paragraphs[lead].as_str();
    let terse = shorter(clip::terse(paragraph, budgets.terse), budgets.terse);
    let with_before = paragraphs[..=lead].join(" ");
    let middle_text = match count_tokens(&with_before) <= budgets.middle {
        true => with_before.as_str(),
        false => paragraph,
    };
    // (The same as the terse text, it is still drafted: a level the file leaves out reads
    // the server's own words, all of them.)
    let middle = shorter(clip::middle(middle_text, budgets.middle), budgets.middle);
    let mut arguments = Vec::new();
    described(&tool.input_schema, &tool.input_schema, "", &mut arguments);
    let arguments = arguments
        .into_iter()
        .filter_map(|(path, own, schema)| {
            let tokens = count_tokens(&own);
            // A fact too long for its budget gets the middle one, not dropped (Slack's
            // `thread_ts`: "…in the format '1234567890.123456'").
            let facts = (budgets.facts > 0)
                .then(|| {
                    facts::whole_facts(&own, &schema, budgets.facts).or_else(|| {
                        facts::facts(&own, &schema, budgets.argument.max(budgets.facts))
                    })
                })
                .flatten()
                // No longer than the server's words, nor all of them said another way
                // (`Show logs since absolute time; RFC3339`): all of them are facts then.
                .map(|t| {
                    if count_tokens(&t) >= tokens || facts::states(&t, &own) {
                        own.clone()
                    } else {
                        t
                    }
                });
            // Facts (values, formats, units, ranges, defaults) stay at every level.
            let middle = match budgets.argument {
                0 => Some(String::new()),
                budget => Some(facts::argument_sentence(
                    &own,
                    &schema,
                    facts.as_deref(),
                    budget,
                ))
                .filter(|m| m.len() > 1 && count_tokens(m) < tokens && !same_words(m, &own)),
            };
            let terse = facts.map(|t| match &middle {
                Some(m) if count_tokens(m) < count_tokens(&t) => m.clone(),
                _ => t,
            });
            // Its own words at every level: nothing to draft.
            let unchanged = middle.is_none() && terse.as_ref().is_some_and(|t| same_words(t, &own));
            let values: Vec<String> = facts::example_values(&own).concat();
            let exemplified = [terse.as_deref(), middle.as_deref()].map(|text| {
                let text = text.filter(|t| !t.is_empty())?;
                let unsaid: Vec<String> = values
                    .iter()
                    .filter(|v| !text.contains(v.as_str()))
                    .cloned()
                    .collect();
                let with = facts::with_examples(text, &unsaid);
                (!unsaid.is_empty() && count_tokens(&with) < tokens).then_some(with)
            });
            (!unchanged).then_some(ArgumentDraft {
                path,
                own,
                terse,
                middle,
                exemplified,
                step: [0, 0],
            })
        })
        .collect();
    ToolDraft {
        name: tool.name.to_string(),
        print: fingerprint(tool),
        own: paragraph.to_owned(),
        // A title in `annotations.title` is a title too: clients show it where `title` is absent.
        untitled: [
            tool.title.as_deref(),
            tool.annotations.as_ref().and_then(|a| a.title.as_deref()),
        ]
        .into_iter()
        .flatten()
        .any(|t| !t.trim().is_empty())
        .then_some(match budgets.middle {
            0 => "0..=6",
            _ => "0..=2",
        }),
        lean: tool
            .output_schema
            .as_deref()
            .map_or_else(Lean::default, Lean::found_in)
            .or(Lean::found_in(&tool.input_schema)),
        own_tokens,
        terse,
        middle,
        more: [Vec::new(), Vec::new()],
        pruned: None,
        step: [0, 0],
        kept: Vec::new(),
        arguments,
    }
}

/// Whether `text` is `own` but for its markup (`` `a` ``, `**b**`) and the punctuation and
/// spaces it ends with: a level that only drops those saves nothing worth a line of the
/// file, and code spans lose their marks (`such as ArrowLeft or a`).
fn same_words(text: &str, own: &str) -> bool {
    let words = |t: &str| {
        plain::plain(t)
            .trim_end_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
            .to_owned()
    };
    words(text) == words(own)
}

/// Every described property below `object` (a root or nested object schema of `root`):
/// its argument path, its description and its schema. Nested objects, array items and map
/// values are walked, through local `$ref`s, to a small depth.
pub(crate) fn described(
    root: &Map<String, Value>,
    object: &Map<String, Value>,
    prefix: &str,
    out: &mut Vec<(String, String, Value)>,
) {
    if prefix.matches('.').count() > 4 {
        return;
    }
    let Some(properties) = object.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        let path = format!("{prefix}{name}");
        // Only what the one path syntax reaches, exactly.
        if schema_path::argument(root, &path).is_none() {
            continue;
        }
        let property = schema_path::deref(root, property);
        if let Some(text) = property.get("description").and_then(Value::as_str)
            && !text.trim().is_empty()
        {
            out.push((path.clone(), text.to_owned(), property.clone()));
        }
        if let Some(inner) = property.as_object() {
            branches(root, inner, &format!("{path}."), out);
            for (key, step) in [("items", "[]."), ("additionalProperties", "{}.")] {
                if let Some(Value::Object(values)) =
                    inner.get(key).map(|v| schema_path::deref(root, v))
                {
                    branches(root, values, &format!("{path}{step}"), out);
                }
            }
        }
    }
}

/// [`described`] of `object` and of each of its `allOf`/`anyOf`/`oneOf` branches: a path
/// drafted once words the property in every branch (see `schema_path::arguments`).
fn branches(
    root: &Map<String, Value>,
    object: &Map<String, Value>,
    prefix: &str,
    out: &mut Vec<(String, String, Value)>,
) {
    let mut found = Vec::new();
    described(root, object, prefix, &mut found);
    for key in ["allOf", "anyOf", "oneOf"] {
        for branch in object
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Value::Object(branch) = schema_path::deref(root, branch) {
                described(root, branch, prefix, &mut found);
            }
        }
    }
    for item in found {
        if !out.iter().any(|(path, ..)| *path == item.0) {
            out.push(item);
        }
    }
}

#[cfg(test)]
mod tests;
