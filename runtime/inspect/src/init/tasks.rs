//! `init --tasks`: the draft checked against a tasks file with every search `eval` runs,
//! each level that loses a task the server's own words find first keeping the query's
//! words, then going back to the server's words.

use super::{Draft, ToolDraft, render, tool_drafts};
use crate::eval::{Index, Search, SearchEntry, Tasks};
use mcp_tailor_core::{RenderCtx, Tailoring};
use rmcp::model::Tool;

/// Drafts as [`draft`](super::draft) does, then checks the draft against `tasks` (a tasks
/// file, see [`eval`](crate::eval)) with each search that needs no model
/// ([`Search::lexical`]): where the server's own words
/// find a task's tool in a search's top [`limit`](Search::limit) and a drafted level
/// (0..=2 or 3..=6) does not, that level first keeps the query's words the server's
/// description has; if the tool is still lost there, the level is left to the server's own
/// words. Comments in the file say which.
pub fn draft_for_tasks(tools: &[Tool], source: &str, tasks: &Tasks) -> Draft {
    let mut drafts = tool_drafts(tools);
    let own = Tailoring::default();
    let rich = indexes(tools, &own, 9);
    let tokenizer = bm25::DefaultTokenizer::new(bm25::Language::English);
    let position = |name: &str| tools.iter().position(|t| t.name == name);
    // Each round re-checks every task: a change to one tool's words moves others' ranks.
    for _ in 0..4 {
        let Ok(tailoring) = Tailoring::from_toml_str(&render(&drafts, source).text) else {
            break;
        };
        let mut changed = false;
        for (level, slot) in [(0u8, Level::Terse), (3, Level::Middle)] {
            let drafted = indexes(tools, &tailoring, level);
            for task in tasks.tasks() {
                let Some(at) = position(&task.expect) else {
                    continue;
                };
                let found = |(search, index): (&Search, &Index)| {
                    index
                        .rank(&task.query)
                        .iter()
                        .take(search.limit())
                        .any(|&i| i == at)
                };
                let lost = Search::lexical()
                    .iter()
                    .enumerate()
                    .any(|(i, search)| found((search, &rich[i])) && !found((search, &drafted[i])));
                if !lost {
                    continue;
                }
                let draft = &mut drafts[at];
                let own = tools[at].description.as_deref().unwrap_or_default();
                // First the query's words the server's text has; when those are kept
                // already (or there are none), the level goes back to the server's words.
                let text = draft.text(slot).unwrap_or_default();
                let mut kept_more = false;
                for word in crate::eval::lost_words(&tokenizer, &task.query, &text, own) {
                    let word = word.to_lowercase();
                    if !draft.kept.contains(&word) {
                        draft.kept.push(word);
                        kept_more = true;
                    }
                }
                changed |= kept_more || draft.leave(slot);
            }
        }
        if !changed {
            break;
        }
    }
    render(&drafts, source)
}

/// A drafted level of a tool's description.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Level {
    /// 0..=2.
    Terse,
    /// 3..=6.
    Middle,
}

impl ToolDraft {
    /// The text a level reads, words kept included.
    pub(super) fn text(&self, level: Level) -> Option<String> {
        let base = match level {
            Level::Terse => self.terse.as_ref(),
            Level::Middle => self.middle.as_ref(),
        };
        match (base, self.kept.is_empty()) {
            (Some(text), true) => Some(text.clone()),
            (text, false) => Some(with_words(text.map_or("", String::as_str), &self.kept)),
            (None, true) => None,
        }
    }

    /// Leaves `level` to the server's own words; whether it was drafted.
    fn leave(&mut self, level: Level) -> bool {
        let slot = match level {
            Level::Terse => &mut self.terse,
            Level::Middle => &mut self.middle,
        };
        let drafted = slot.take().is_some() || !self.kept.is_empty();
        if drafted && !self.left.contains(&level) {
            self.left.push(level);
        }
        drafted
    }
}

/// `tool` worded by `tailoring` for `ctx`, as the gateway words it (what a search reads of
/// it: its name, title and descriptions).
fn served(tool: &Tool, tailoring: &Tailoring, ctx: &RenderCtx<'_>) -> Tool {
    let mut tool = tool.clone();
    if let Some(file) = tailoring.tool(&tool.name) {
        file.tailor_tool(&mut tool, ctx);
    }
    tool
}

/// Each lexical search's index of `tools` as `tailoring` words them for a reader at
/// `level`, in [`Search::lexical`]'s order.
fn indexes(tools: &[Tool], tailoring: &Tailoring, level: u8) -> Vec<Index> {
    let ctx = RenderCtx::new().verbosity(level);
    let served: Vec<Tool> = tools
        .iter()
        .map(|tool| served(tool, tailoring, &ctx))
        .collect();
    let entries: Vec<SearchEntry> = served
        .iter()
        .filter_map(|tool| SearchEntry::from_tool(&serde_json::to_value(tool).ok()?))
        .collect();
    Search::lexical()
        .iter()
        .map(|s| s.index(&entries))
        .collect()
}

/// A terse text that keeps `words`: `Search files (glob, pattern).`
fn with_words(terse: &str, words: &[String]) -> String {
    let terse = terse.trim_end_matches('.');
    if terse.is_empty() {
        return format!("{}.", words.join(", "));
    }
    format!("{terse} ({}).", words.join(", "))
}
