//! `eval`: whether each reader still *finds* the right tool at each level, and at what cost
//! in tokens.
//!
//! Harnesses defer large MCP tool sets and let the model search them first. `eval` lists
//! the catalog for every reader class at every level through the server's own pipeline (as
//! `tokens` does), ranks every task's query with one harness's tool search ([`Search`]:
//! the Codex CLI's, FastMCP's), and reports per reader and level the catalog's tokens,
//! `hit_at_1`, `hit_at_k`, `mrr` and each task's rank. Each distinct catalog is indexed
//! once and asked every query; readers and levels that list the same tools share it.

pub(crate) mod findings;
mod plot;
mod report;
mod search;
mod tasks;

pub use findings::{below_floor, lost_at_terser_levels};
pub use plot::{PlotError, svg};
pub use report::{json, text};
pub use search::{
    CODEX_LIMIT, FASTMCP_LIMIT, FastmcpSearch, Index, IndexFinder, Search, SearchEntry, ToolSearch,
};
#[cfg(feature = "embedding")]
pub use search::{EMBEDDING_LIMIT, EmbeddingError, EmbeddingModel, EmbeddingSearch};
pub use tasks::{Task, Tasks};

use super::catalog::{CallerCatalog, Size};
use super::readers::ReaderClass;
use mcp_tailor_server::rmcp::{ErrorData, ServerHandler};
use mcp_tailor_server::wire::{CALL_TOOL, SEARCH_TOOLS};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// One listed catalog: what it costs and what the tool search reads of it.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Listing {
    /// The bytes and tokens of every `tools/list` page.
    pub size: Size,
    /// The listed tools, in catalog order, as the tool searches read them.
    pub entries: Vec<SearchEntry>,
}

impl Listing {
    /// The listing of `tools/list` result pages exactly as the server wrote them. On the
    /// index surface, the tools are the index's lines (each a name and its words), as a
    /// model reading the index picks from them.
    pub fn from_pages(pages: &[String]) -> Listing {
        let mut entries = Vec::new();
        for page in pages {
            let result: Value = serde_json::from_str(page).unwrap_or_default();
            if let Some(tools) = result.get("tools").and_then(Value::as_array) {
                entries.extend(page_entries(tools));
            }
        }
        Listing {
            size: Size::of_pages(pages),
            entries,
        }
    }
}

/// What the searches read of one page's tools: each tool's entry; on the index surface,
/// one entry per line of the index instead of `search_tools` and `call_tool`.
fn page_entries(tools: &[Value]) -> Vec<SearchEntry> {
    fn name(tool: &Value) -> Option<&str> {
        tool.get("name").and_then(Value::as_str)
    }
    let lines = tools
        .iter()
        .filter(|tool| name(tool) == Some(SEARCH_TOOLS))
        .find_map(|tool| {
            let description = tool.get("description").and_then(Value::as_str)?;
            mcp_tailor_server::seam::index_lines(description).map(|lines| {
                lines
                    .into_iter()
                    .filter_map(|(name, words)| {
                        let line = serde_json::json!({"name": name, "description": words});
                        SearchEntry::from_tool(&line)
                    })
                    .collect::<Vec<_>>()
            })
        });
    match lines {
        Some(mut entries) => {
            let surface = [SEARCH_TOOLS, CALL_TOOL];
            entries.extend(
                tools
                    .iter()
                    .filter(|tool| !surface.contains(&name(tool).unwrap_or_default()))
                    .filter_map(SearchEntry::from_tool),
            );
            entries
        }
        None => tools.iter().filter_map(SearchEntry::from_tool).collect(),
    }
}

/// The catalog `class` lists at each level 0..=9 through the server's own pipeline: its
/// size and what the tool searches read of it.
pub async fn listings<H: ServerHandler + Clone>(
    catalog: &CallerCatalog<'_, H>,
    class: &ReaderClass,
) -> Result<Vec<Listing>, ErrorData> {
    let mut out = Vec::with_capacity(10);
    for level in 0..=mcp_tailor_core::MAX_VERBOSITY {
        out.push(Listing::from_pages(
            &catalog.pages(class.reader(level)).await?,
        ));
    }
    Ok(out)
}

/// One reader class at one level.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LevelEval {
    /// The catalog's `o200k_base` tokens.
    pub tokens: usize,
    /// Each task's 1-based rank (`None`: not returned at all), in the class's task order.
    pub ranks: Vec<Option<usize>>,
    /// The share of tasks whose tool ranks first.
    pub hit_at_1: f64,
    /// The share of tasks whose tool ranks in the top K.
    pub hit_at_k: f64,
    /// The mean reciprocal rank (a tool not returned counts 0).
    pub mrr: f64,
    /// The tools as the search read them at this level.
    entries: Arc<Vec<SearchEntry>>,
    /// The search that ranked them.
    search: Search,
}

/// One reader class at every level.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ClassEval {
    /// The class.
    pub class: ReaderClass,
    /// The tasks about this class, as indices into [`Evaluation::tasks`].
    pub tasks: Vec<usize>,
    /// Levels 0..=9.
    pub levels: Vec<LevelEval>,
}

/// Every reader class at every level, for one tasks file.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Evaluation {
    /// The search every task was ranked with.
    pub search: Search,
    /// K of `hit_at_k`.
    pub k: usize,
    /// The tasks.
    pub tasks: Vec<Task>,
    /// Every class some task is about.
    pub classes: Vec<ClassEval>,
}

/// The 1-based rank of the tool named `expect` when `search` ranks `query`.
fn rank_of(search: &Index, entries: &[SearchEntry], query: &str, expect: &str) -> Option<usize> {
    let ranked = search.rank(query);
    ranked
        .iter()
        .position(|&id| entries[id].name == expect)
        .map(|at| at + 1)
}

impl Evaluation {
    /// Ranks every task in every listing with `search`: `listings` holds, per reader class,
    /// its catalog at levels 0..=9. Classes no task is about are left out.
    pub fn new(
        tasks: &[Task],
        k: usize,
        search: Search,
        listings: &[(ReaderClass, Vec<Listing>)],
    ) -> Evaluation {
        // Each distinct set of search texts is indexed once and ranks every task once.
        let mut distinct: HashMap<Arc<Vec<SearchEntry>>, Arc<Vec<Option<usize>>>> = HashMap::new();
        let mut classes = Vec::new();
        for (class, levels) in listings {
            let about: Vec<usize> = (0..tasks.len())
                .filter(|&i| tasks[i].applies_to(class))
                .collect();
            if about.is_empty() {
                continue;
            }
            let levels = levels
                .iter()
                .map(|listing| {
                    let entries = Arc::new(listing.entries.clone());
                    let (entries, all) = match distinct.get_key_value(&entries) {
                        Some((shared, all)) => (Arc::clone(shared), Arc::clone(all)),
                        None => {
                            let index = search.index(&entries);
                            let all: Arc<Vec<Option<usize>>> = Arc::new(
                                tasks
                                    .iter()
                                    .map(|t| rank_of(&index, &entries, &t.query, &t.expect))
                                    .collect(),
                            );
                            distinct.insert(Arc::clone(&entries), Arc::clone(&all));
                            (entries, all)
                        }
                    };
                    let ranks: Vec<Option<usize>> = about.iter().map(|&i| all[i]).collect();
                    LevelEval::new(listing.size.tokens, ranks, k, entries, search.clone())
                })
                .collect();
            classes.push(ClassEval {
                class: class.clone(),
                tasks: about,
                levels,
            });
        }
        Evaluation {
            search,
            k,
            tasks: tasks.to_vec(),
            classes,
        }
    }
}

impl LevelEval {
    fn new(
        tokens: usize,
        ranks: Vec<Option<usize>>,
        k: usize,
        entries: Arc<Vec<SearchEntry>>,
        search: Search,
    ) -> LevelEval {
        let n = ranks.len().max(1) as f64;
        let share = |hit: &dyn Fn(usize) -> bool| {
            ranks.iter().flatten().filter(|&&r| hit(r)).count() as f64 / n
        };
        LevelEval {
            tokens,
            hit_at_1: share(&|r| r == 1),
            hit_at_k: share(&|r| r <= k),
            mrr: ranks.iter().flatten().map(|&r| 1.0 / r as f64).sum::<f64>() / n,
            ranks,
            entries,
            search,
        }
    }

    /// The text the search read of the tool named `name` at this level.
    pub fn search_text(&self, name: &str) -> Option<String> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .map(|e| self.search.text(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(tools: &[(&str, &str)]) -> String {
        let tools: Vec<Value> = tools
            .iter()
            .map(
                |(name, description)| serde_json::json!({"name": name, "description": description}),
            )
            .collect();
        serde_json::json!({ "tools": tools }).to_string()
    }

    #[test]
    fn an_index_listing_is_read_as_its_lines_and_a_native_call_tool_is_kept() {
        let index = "Find tools for a task; answers their input schemas. Tools:\nsettle: Settle up.\nlist_bills";
        let found = Listing::from_pages(&[page(&[
            ("search_tools", index),
            ("call_tool", "Call a tool by name with its arguments."),
            ("pay", "Pay now."),
        ])]);
        let names: Vec<&str> = found.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["settle", "list_bills", "pay"]);
        assert_eq!(found.entries[0].description.as_deref(), Some("Settle up."));
        let native =
            Listing::from_pages(&[page(&[("call_tool", "Calls."), ("search_tools", "Finds.")])]);
        assert_eq!(
            native.entries.len(),
            2,
            "an upstream's own tools of those names stay"
        );
    }

    #[test]
    fn ranks_and_shares_per_level_with_one_index_per_distinct_catalog() {
        let terse =
            Listing::from_pages(&[page(&[("settle", "Settle up."), ("list_bills", "Bills.")])]);
        let rich = Listing::from_pages(&[
            page(&[("settle", "Pay a supplier invoice.")]),
            page(&[("list_bills", "Show every bill and invoice.")]),
        ]);
        assert_eq!(rich.entries.len(), 2, "both pages are read");
        let mut levels = vec![terse; 5];
        levels.extend(vec![rich; 5]);
        let tasks = [
            Task::new("pay the supplier invoice", "settle"),
            Task::new("show my bills", "list_bills"),
        ];
        let eval = Evaluation::new(
            &tasks,
            1,
            Search::Codex,
            &[(ReaderClass::new(None, None), levels)],
        );
        let levels = &eval.classes[0].levels;
        // Terse: `settle` shares no word with its query; `bills` ends `list_bills`.
        assert_eq!(levels[0].ranks, [None, Some(1)]);
        assert_eq!(
            (levels[0].hit_at_1, levels[0].hit_at_k, levels[0].mrr),
            (0.5, 0.5, 0.5)
        );
        // Rich: both share "invoice"; `settle`'s shorter text ranks first for its query.
        assert_eq!(levels[9].ranks, [Some(1), Some(1)]);
        assert_eq!(levels[9].mrr, 1.0);
        assert_eq!(
            levels[4].search_text("settle").as_deref(),
            Some("settle Settle up.")
        );
        // Levels that read alike share one index (and one entries table).
        assert!(
            Arc::ptr_eq(&levels[0].entries, &levels[4].entries)
                || levels[0].entries == levels[4].entries
        );
    }
}
