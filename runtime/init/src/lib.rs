//! # mcp-tailor-init
//!
//! `mcp-tailor init`: a commented tailoring file drafted from any server's own words, for
//! every tool and described argument — deterministic, no model, no network — and the
//! structure of the catalog no wording can save ([`structure_tokens`]). (What each level
//! costs before and after a draft is the listing `proxy` serves, counted as `inspect`
//! counts it: [`CallerCatalog::sizes`](mcp_tailor_inspect::CallerCatalog::sizes).) And
//! [`drift`]: how a file drifted from the server it was drafted from. Users reach it as
//! `mcp_tailor::init` (feature `init`).
//!
//! The draft overlays the server (see [`Tailoring`](mcp_tailor_core::Tailoring)): levels
//! 7..=9 are left to the server's own words. Every other level is **made of the server's
//! own units** (`mcp-tailor-inspect`'s `prose/`: sentences, list items, code blocks), in its order, each whole
//! or left out whole — less, at most, an aside that states no rule (for an argument, no
//! fact either). A rule a valid call depends on (`prose/rules.rs`) stays at every level that
//! says anything in its place, and no unit is kept without what it refers to. 3..=6 says
//! all that 0..=2 says; neither is longer than the server's words.
//!
//! | text | 0..=2 (`words.rs`) | 3..=6 |
//! |---|---|---|
//! | a tool's title | left out | the server's |
//! | a tool's description | its lead sentence, within [`TERSE_TOKENS`]; its rules | the sentences of its lead paragraph within [`MIDDLE_TOKENS`]; its rules |
//! | an argument's description | the sentences stating what its name and type do not (values, formats, units, ranges, a default), within [`FACT_TOKENS`] (the first at least); its rules | its first sentence and those facts within [`ARGUMENT_TOKENS`]; its rules |
//!
//! A first paragraph many tools share leads none of them: their next one does. A wording
//! no shorter than the server's is left out.
//!
//! Where the tools' schemas hold boilerplate no reader needs (zod's `$schema`, pydantic's
//! titles), `[schemas]` leaves it out at 0..=6.
//!
//! Then every draft checks itself ([`draft_checked`], `check.rs`): queries made of the
//! server's own clauses are ranked against each band by every search, and a band that
//! loses one steps up its ladder toward the server's words — at 0..=2 never past
//! [`bound`] tokens beyond its rules. What tells a tool apart (`sharpen.rs`) gives the
//! ladder its first rungs; `--fit` (`fit.rs`) sets the budgets. Last, [`audit`](fn@audit) reads the
//! file back as `proxy` serves it and proves the promises above ([`Draft::audit`]).

// Pre-1.0: what hosts never touch stays private; `pub` means public API.
#![warn(unreachable_pub)]

mod audit;
mod check;
mod drift;
mod facts;
mod fit;
mod plain;
mod prints;
mod render;
mod shared;
mod sharpen;
mod toml_text;
mod update;
mod words;

pub use audit::{Audit, AuditFinding, Broken, Over, OverWhy, RuleCount, audit};
pub use check::{Findability, Hits, Options, TOP, draft_checked};
pub use drift::drift;
pub use fit::{Fit, FitError};
use mcp_tailor_core::Lean;
use mcp_tailor_core::seam::schema_path;
use mcp_tailor_inspect::seam::prose::{Picks, Unit};
use mcp_tailor_inspect::{count_tokens, listing_json};
pub(crate) use prints::drafted_prints;
pub use prints::fingerprint;
use render::render;
use rmcp::model::{ListToolsResult, Tool};
use serde_json::{Map, Value};
pub use update::{Update, update};

/// The token budget of a tool's terse description (levels 0..=2).
pub const TERSE_TOKENS: usize = 32;
/// What a tool's level-0 description says beyond its rules at most, for a terse budget
/// (48 for [`TERSE_TOKENS`]): its first sentence within the budget, then the sentences a
/// search needs, to half as much again.
pub const fn bound(terse: usize) -> usize {
    terse * 3 / 2
}

/// The token budget of a tool's middle description (levels 3..=6).
pub const MIDDLE_TOKENS: usize = 48;
/// The token budget of an argument's description at 3..=6.
pub const ARGUMENT_TOKENS: usize = 24;
/// The token budget of the facts an argument's description keeps at 0..=2 (its first
/// fact at least).
pub const FACT_TOKENS: usize = 24;

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
pub(crate) enum Band {
    /// 0..=2.
    Terse = 0,
    /// 3..=6.
    Middle = 1,
}

impl Band {
    /// The level a reader of this band names (its first).
    pub(crate) fn verbosity(self) -> u8 {
        match self {
            Band::Terse => 0,
            Band::Middle => 3,
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
    /// What its levels say of the server's words ([`audit`](fn@audit)): nothing broken, and the
    /// level-0 descriptions over [`Budgets::terse`] with why.
    pub audit: Audit,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets::DEFAULT
    }
}

/// One tool's drafted wording: its description's terse and middle picks of its units
/// (`None`: leave the server's), and each described argument's.
#[derive(Clone)]
struct ToolDraft {
    name: String,
    /// The fingerprint of the server's own words ([`fingerprint`]).
    print: String,
    /// The units of the server's own description ([`mcp_tailor_inspect::seam::prose::units`]).
    units: Vec<Unit>,
    /// The levels its title is left out at (for people: a terse reader does without it);
    /// `None`: it has none.
    untitled: Option<&'static str>,
    /// The boilerplate its input and output schemas hold (`[schemas]`).
    lean: Lean,
    own_tokens: usize,
    /// The tokens its terse text says beyond its rules at most ([`Budgets::terse`]): no
    /// step of the check goes past it.
    bound: usize,
    /// The terse and middle picks (`None`: the server's words; empty: nothing).
    terse: Option<Picks>,
    middle: Option<Picks>,
    /// The next wordings up from each ([`sharpen`]), shortest first: each holds more of
    /// what tells the tool apart.
    more: [Vec<Picks>; 2],
    /// The server's own words less their sentences that tell nothing apart
    /// ([`sharpen::pruned`]): the last wording before them; `None` where none goes.
    pruned: Option<Picks>,
    /// How far up its ladder each level stands ([`ToolDraft::ladder`]): a check steps a
    /// level up where a search loses the tool.
    step: [usize; 2],
    /// Words a task finds the tool by: its drafted levels keep the units that say them.
    kept: Vec<String>,
    /// Per level, the units the check added: each says a query the level lost
    /// ([`ToolDraft::find`]).
    found: [Vec<usize>; 2],
    arguments: Vec<ArgumentDraft>,
}

#[derive(Clone)]
struct ArgumentDraft {
    path: String,
    own: String,
    /// The units of its own words ([`words::argument_units`]).
    units: Vec<Unit>,
    /// Its picks at 0..=2 (empty: nothing; `None`: its own words).
    terse: Option<Picks>,
    /// Its picks at 3..=6, what 0..=2 says included (`None`: its own words).
    middle: Option<Picks>,
    /// Its terse and middle picks with their asides back, where that is shorter than its
    /// own words: the next step up of each.
    whole: [Option<Picks>; 2],
    /// How far up its ladder each level stands ([`ArgumentDraft::ladder`]).
    step: [usize; 2],
}

/// Drafts a tailoring file for `tools`, naming `source` (a command, URL or file) in its
/// header: the first wording of each level, unchecked ([`draft_checked`] checks it).
pub fn draft(tools: &[Tool], source: &str) -> Draft {
    audited(
        tools,
        render(&tool_drafts(tools, &Budgets::DEFAULT), source, &[]),
        &Budgets::DEFAULT,
    )
}

/// `draft` with its [`audit`](fn@audit) of `tools`, level 0's bound the terse budget.
fn audited(tools: &[Tool], mut draft: Draft, budgets: &Budgets) -> Draft {
    let tailoring = mcp_tailor_core::Tailoring::from_toml_str(&draft.text).unwrap_or_default();
    draft.audit = audit(tools, &tailoring, bound(budgets.terse));
    draft
}

/// Every tool's draft within `budgets`, terse texts without the context every tool
/// repeats ([`shared`]), sharpened by what tells each tool apart ([`sharpen`]).
fn tool_drafts(tools: &[Tool], budgets: &Budgets) -> Vec<ToolDraft> {
    tool_drafts_with(tools, budgets, &own_terms(tools))
}

/// [`tool_drafts`], each tool's own terms `own` (made once by a caller that drafts often).
fn tool_drafts_with(tools: &[Tool], budgets: &Budgets, own: &sharpen::OwnTerms) -> Vec<ToolDraft> {
    let units: Vec<Vec<Unit>> = tools.iter().map(words::tool_units).collect();
    let leads = shared::leads(&units);
    let mut drafts: Vec<ToolDraft> = tools
        .iter()
        .zip(units)
        .zip(leads)
        .map(|((tool, units), lead)| tool_draft(tool, units, lead, budgets))
        .collect();
    sharpen::sharpen(&mut drafts, own, budgets);
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

/// One tool's draft from its description's `units`, led by paragraph `lead`
/// ([`shared::leads`]).
fn tool_draft(tool: &Tool, units: Vec<Unit>, lead: usize, budgets: &Budgets) -> ToolDraft {
    let own = tool.description.as_deref().unwrap_or_default();
    let own_tokens = count_tokens(own);
    // A budget of 0 says nothing; a described tool's nothing is still drafted. A wording
    // no shorter than the server's, or only its markup less, reads the server's.
    let shorter = |picks: Picks, budget: usize| match budget {
        0 => (!own.trim().is_empty()).then(Picks::default),
        // Nothing fits: it says nothing (a check steps it up where that loses it).
        _ if picks.is_empty() => (!own.trim().is_empty()).then(Picks::default),
        _ => {
            let text = picks.text(&units);
            (count_tokens(&text) < own_tokens && !same_words(&text, own)).then_some(picks)
        }
    };
    let terse = words::terse(&units, lead, budgets.terse);
    let middle = words::middle(&units, lead, budgets.middle).union(&units, &terse);
    let terse = shorter(terse, budgets.terse);
    let middle = shorter(middle, budgets.middle);
    let mut arguments = Vec::new();
    described(&tool.input_schema, &tool.input_schema, "", &mut arguments);
    let arguments = arguments
        .into_iter()
        .filter_map(|(path, own, schema)| words::argument(path, own, &schema, budgets))
        .collect();
    ToolDraft {
        name: tool.name.to_string(),
        print: fingerprint(tool),
        units,
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
        bound: bound(budgets.terse),
        terse,
        middle,
        more: [Vec::new(), Vec::new()],
        pruned: None,
        step: [0, 0],
        kept: Vec::new(),
        found: [Vec::new(), Vec::new()],
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
