//! Every draft checks itself: queries made of the server's own words (each tool's title,
//! each clause of its description and of its arguments' facts that holds one of its own
//! terms, and the values its arguments' examples quote) and a tasks file's (`--tasks`) are
//! ranked against each band by every search; a band that loses a tool its own words find
//! steps up.
//!
//! A query is *lost* at a band where the server's own words put its tool in a search's top
//! [`TOP`] and the band does not. The ladders (`ladder.rs`): a description's first
//! wording, sharper ones ([`sharpen`](super::sharpen)), at 0..=2 the middle wording, then
//! the server's own words (its arguments' too); an argument's facts, then with the values
//! its examples quote, its middle text (then with them), its own words. A lost task first
//! keeps its words the server's text has (`Search files (glob, pattern).`), then steps up
//! like any other query.

use super::fit::{self, Fit, FitError};
use super::sharpen::OwnTerms;
use super::{Band, Budgets, Draft, ToolDraft, listing, render, tool_drafts_with};
use mcp_tailor_core::{RenderCtx, Tailoring};
use mcp_tailor_inspect::count_tokens;
use mcp_tailor_inspect::eval::{Index, Search, SearchEntry, Tasks};
use queries::{Query, own_queries};
use rmcp::model::Tool;

/// How high a search must rank a tool for a query to find it.
pub const TOP: usize = 3;

/// How `init` checks its draft.
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct Options<'a> {
    /// A tasks file: its queries are checked too, and kept in the words of a level that
    /// would lose them.
    pub tasks: Option<&'a Tasks>,
    /// The searches that rank; none: [`Search::lexical`].
    pub searches: Vec<Search>,
    /// Budgets for bands of levels (`--fit`).
    pub fits: Vec<Fit>,
}

impl<'a> Options<'a> {
    /// Checked by `searches` (none: [`Search::lexical`]), with `tasks` and `fits`.
    pub fn new(searches: Vec<Search>, tasks: Option<&'a Tasks>, fits: Vec<Fit>) -> Options<'a> {
        Options {
            tasks,
            searches,
            fits,
        }
    }
}

/// What one band of levels costs and finds: the server's own words (`own`), `0..=2` or
/// `3..=6`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Findability {
    /// `own`, `0..=2` or `3..=6`.
    pub levels: &'static str,
    /// `o200k_base` tokens of the `tools/list` a reader naming no runner gets there.
    pub tokens: usize,
    /// Per search, the queries made of the server's own words.
    pub own: Vec<Hits>,
    /// Per search, the tasks file's queries (empty without one).
    pub tasks: Vec<Hits>,
}

/// How many queries one search finds in its top [`TOP`], of how many.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Hits {
    /// The search's name.
    pub search: &'static str,
    /// Queries whose tool it ranks in the top [`TOP`].
    pub found: usize,
    /// Queries the server's own words find and this band does not.
    pub lost: usize,
    /// Queries asked.
    pub of: usize,
}

/// Drafts a tailoring file for `tools` as [`draft`](super::draft) does, held to `options`'
/// budgets ([`Fit`]), then checks it with `options`' searches: each level that loses a
/// query steps up its ladder (within a budget's tokens) until none is lost or it reads the
/// server's own words. The draft's [`findability`](Draft::findability) says what each band
/// costs and finds.
pub fn draft_checked(
    tools: &[Tool],
    source: &str,
    options: &Options<'_>,
) -> Result<Draft, FitError> {
    let searches = match options.searches.is_empty() {
        true => Search::lexical().to_vec(),
        false => options.searches.clone(),
    };
    let checker = Checker::new(tools, searches, options.tasks);
    let caps = fit::caps(tools, &options.fits)?;
    let mut budgets = Budgets::DEFAULT;
    let mut notes = Vec::new();
    for level in [Band::Terse, Band::Middle] {
        if let Some(cap) = caps[level as usize] {
            budgets = checker.fitted(budgets, level, cap, source);
            notes.push(fit::note(level, cap, &budgets));
        }
    }
    let mut drafts = tool_drafts_with(tools, &budgets, &checker.terms);
    checker.check(&mut drafts, source, &notes, caps);
    let mut draft = super::audited(tools, render(&drafts, source, &notes), &budgets);
    draft.findability = checker.findability(&draft.text);
    Ok(draft)
}

/// The queries of a catalog, what the server's own words find of them, and the searches.
struct Checker<'a> {
    tools: &'a [Tool],
    searches: Vec<Search>,
    queries: Vec<Query>,
    /// Per query, per search: whether the server's own words find its tool.
    own: Vec<Vec<bool>>,
    /// Each tool's own terms, made once for every draft.
    terms: OwnTerms,
}

impl<'a> Checker<'a> {
    fn new(tools: &'a [Tool], searches: Vec<Search>, tasks: Option<&Tasks>) -> Checker<'a> {
        let terms = super::own_terms(tools);
        // A sentence with none of its tool's own terms (`Only works within allowed
        // directories.`) finds it only by luck: it tells no tool apart.
        let mut queries: Vec<Query> = own_queries(tools)
            .into_iter()
            .filter(|q| terms.added(q.tool, &q.text, "") > 0)
            .collect();
        // A user names what sets a tool apart, seldom the words around it (`look at this
        // screenshot image`): each clause's own terms are a query too (`Image audio`).
        let mut terse: Vec<Query> = Vec::new();
        for query in &queries {
            let text = terms.own_words(query.tool, &query.text).join(" ");
            let known = |q: &Query| q.tool == query.tool && q.text == text;
            if !text.is_empty() && !queries.iter().any(known) && !terse.iter().any(known) {
                terse.push(Query {
                    text,
                    ..query.clone()
                });
            }
        }
        queries.extend(terse);
        for task in tasks.map(Tasks::tasks).unwrap_or_default() {
            if let Some(tool) = tools.iter().position(|t| t.name == task.expect) {
                queries.push(Query {
                    text: task.query.clone(),
                    tool,
                    task: true,
                    argument: None,
                });
            }
        }
        let mut checker = Checker {
            tools,
            searches,
            queries,
            own: Vec::new(),
            terms,
        };
        checker.own = checker.found(&Tailoring::default(), 9);
        checker
    }

    /// Per query, per search: whether `tailoring`'s words at `level` put its tool in the
    /// top [`TOP`].
    fn found(&self, tailoring: &Tailoring, level: u8) -> Vec<Vec<bool>> {
        let indexes = indexes(self.tools, tailoring, level, &self.searches);
        self.queries
            .iter()
            .map(|query| {
                indexes
                    .iter()
                    .map(|index| {
                        index
                            .rank(&query.text)
                            .iter()
                            .take(TOP)
                            .any(|&i| i == query.tool)
                    })
                    .collect()
            })
            .collect()
    }

    /// Per tool, the queries `level` loses (in query order).
    fn lost(&self, tailoring: &Tailoring, level: Band) -> Vec<Vec<usize>> {
        let found = self.found(tailoring, level.verbosity());
        let mut lost = vec![Vec::new(); self.tools.len()];
        for (at, query) in self.queries.iter().enumerate() {
            if self.own[at]
                .iter()
                .zip(&found[at])
                .any(|(&own, &now)| own && !now)
            {
                lost[query.tool].push(at);
            }
        }
        lost
    }

    /// Steps each level of `drafts` that loses a query up its ladder, round by round (a
    /// change to one tool's words moves others' ranks), the tools losing most first; a
    /// step that would take a band over its cap (`--fit`) is not taken.
    fn check(
        &self,
        drafts: &mut [ToolDraft],
        source: &str,
        notes: &[String],
        caps: [Option<usize>; 2],
    ) {
        let tokenizer = bm25::DefaultTokenizer::new(bm25::Language::English);
        // Each round steps a level up once at most: its ladders are a few rungs high.
        for _ in 0..16 {
            let mut changed = false;
            for level in [Band::Terse, Band::Middle] {
                let Some(tailoring) = parsed(drafts, source, notes) else {
                    return;
                };
                let lost = self.lost(&tailoring, level);
                let mut order: Vec<usize> =
                    (0..drafts.len()).filter(|&t| !lost[t].is_empty()).collect();
                order.sort_by_key(|&t| std::cmp::Reverse(lost[t].len()));
                for tool in order {
                    let before = drafts[tool].clone();
                    let draft = &mut drafts[tool];
                    let own = self.tools[tool].description.as_deref().unwrap_or_default();
                    let text = draft.text(level).unwrap_or_default();
                    // A task's words the server's text has, kept first.
                    let mut kept_more = false;
                    for &query in lost[tool].iter().filter(|&&q| self.queries[q].task) {
                        let query = &self.queries[query].text;
                        for word in
                            mcp_tailor_inspect::seam::lost_words(&tokenizer, query, &text, own)
                        {
                            let word = word.to_lowercase();
                            if !draft.kept.contains(&word) {
                                draft.kept.push(word);
                                kept_more = true;
                            }
                        }
                    }
                    // A lost query of an argument's steps that argument up, once a round.
                    let mut argued = false;
                    for argument in draft.arguments.iter_mut().filter(|a| {
                        lost[tool]
                            .iter()
                            .any(|&q| self.queries[q].argument.as_deref() == Some(a.path.as_str()))
                    }) {
                        argued |= argument.step_up(level);
                    }
                    // A lost query of the description: first the server's sentence that
                    // says it, where the level may read it; else a step up.
                    let mut found_more = false;
                    for &query in lost[tool]
                        .iter()
                        .filter(|&&q| !self.queries[q].task && self.queries[q].argument.is_none())
                    {
                        found_more |= draft.find(level, &self.queries[query].text);
                    }
                    let described = lost[tool]
                        .iter()
                        .any(|&q| self.queries[q].argument.is_none());
                    if !(kept_more || argued || found_more || (described && draft.step_up(level))) {
                        continue;
                    }
                    // A step at 0..=2 is read at 3..=6 too: every capped band holds.
                    let over = |tailoring: &Tailoring| {
                        [Band::Terse, Band::Middle].iter().any(|&band| {
                            caps[band as usize].is_some_and(|cap| {
                                band_tokens(self.tools, tailoring, band.verbosity()) > cap
                            })
                        })
                    };
                    if caps.iter().any(Option::is_some)
                        && parsed(drafts, source, notes).is_none_or(|t| over(&t))
                    {
                        drafts[tool] = before;
                        continue;
                    }
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// `budgets` with `level`'s band scaled ([`fit::SCALES`]) so its checked draft fits
    /// `cap` tokens and loses the fewest queries there (the larger scale of equals).
    fn fitted(&self, budgets: Budgets, level: Band, cap: usize, source: &str) -> Budgets {
        let mut best: Option<(usize, Budgets)> = None;
        let mut caps = [None; 2];
        caps[level as usize] = Some(cap);
        for scale in fit::SCALES {
            let scaled = fit::scaled(budgets, level, scale);
            let mut drafts = tool_drafts_with(self.tools, &scaled, &self.terms);
            let fits = |drafts: &[ToolDraft]| {
                parsed(drafts, source, &[])
                    .is_some_and(|t| band_tokens(self.tools, &t, level.verbosity()) <= cap)
            };
            if !fits(&drafts) {
                continue;
            }
            self.check(&mut drafts, source, &[], caps);
            let Some(tailoring) = parsed(&drafts, source, &[]) else {
                continue;
            };
            let lost: usize = self.lost(&tailoring, level).iter().map(Vec::len).sum();
            if best.as_ref().is_none_or(|(fewest, _)| lost < *fewest) {
                best = Some((lost, scaled));
            }
            if lost == 0 {
                break;
            }
        }
        // Scale 0 is the structure floor, which `caps` has checked fits.
        best.map_or(fit::scaled(budgets, level, 0), |(_, budgets)| budgets)
    }

    /// What the server's own words and each drafted band (of the file `text`) cost and find.
    fn findability(&self, text: &str) -> Vec<Findability> {
        let drafted = Tailoring::from_toml_str(text).unwrap_or_default();
        let own = Tailoring::default();
        [
            ("own", &own, 9),
            ("0..=2", &drafted, 0),
            ("3..=6", &drafted, 3),
        ]
        .into_iter()
        .map(|(levels, tailoring, level)| {
            let found = self.found(tailoring, level);
            let count = |task: bool| -> Vec<Hits> {
                let asked: Vec<usize> = (0..self.queries.len())
                    .filter(|&q| self.queries[q].task == task)
                    .collect();
                if asked.is_empty() {
                    return Vec::new();
                }
                self.searches
                    .iter()
                    .enumerate()
                    .map(|(s, search)| Hits {
                        search: search.name(),
                        found: asked.iter().filter(|&&q| found[q][s]).count(),
                        lost: asked
                            .iter()
                            .filter(|&&q| self.own[q][s] && !found[q][s])
                            .count(),
                        of: asked.len(),
                    })
                    .collect()
            };
            Findability {
                levels,
                tokens: band_tokens(self.tools, tailoring, level),
                own: count(false),
                tasks: count(true),
            }
        })
        .collect()
    }
}

/// `drafts` rendered and loaded as `init` would write them.
fn parsed(drafts: &[ToolDraft], source: &str, notes: &[String]) -> Option<Tailoring> {
    Tailoring::from_toml_str(&render(drafts, source, notes).text).ok()
}

/// `tool` worded by `tailoring` for `ctx`, as the gateway words it.
fn served(tool: &Tool, tailoring: &Tailoring, ctx: &RenderCtx<'_>) -> Tool {
    let mut tool = tool.clone();
    tailoring.view(&tool.name).overlay(&mut tool, ctx);
    tool
}

/// `tools` as `tailoring` words them for a reader at `level` naming no runner.
pub(super) fn served_all(tools: &[Tool], tailoring: &Tailoring, level: u8) -> Vec<Tool> {
    let ctx = RenderCtx::new().verbosity(level);
    tools
        .iter()
        .map(|tool| served(tool, tailoring, &ctx))
        .collect()
}

/// Tokens of the `tools/list` result of `tools` as `tailoring` words them at `level`.
pub(super) fn band_tokens(tools: &[Tool], tailoring: &Tailoring, level: u8) -> usize {
    count_tokens(&listing(&served_all(tools, tailoring, level)))
}

/// Each search's index of `tools` as `tailoring` words them for a reader at `level`.
fn indexes(tools: &[Tool], tailoring: &Tailoring, level: u8, searches: &[Search]) -> Vec<Index> {
    let entries: Vec<SearchEntry> = served_all(tools, tailoring, level)
        .iter()
        .filter_map(|tool| SearchEntry::from_tool(&serde_json::to_value(tool).ok()?))
        .collect();
    searches.iter().map(|s| s.index(&entries)).collect()
}

mod ladder;
mod queries;
#[cfg(test)]
mod tests;
