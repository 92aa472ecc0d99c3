//! The index surface's finder (`mcp_tailor::server::Finder`): `search_tools` ranks with the
//! searches `eval` verifies, reading each tool's whole own words; an index line is made of
//! a description's sentences, whole (the prose cutter's); tokens are counted as `inspect` counts them.
//!
//! With more than one search, their ranks are fused (reciprocal rank fusion, k = 60): a
//! tool two searches both rank high comes first, and a tool only one search finds is
//! still found.

use super::{Search, SearchEntry};
use mcp_tailor_server::Finder;
use rmcp::model::Tool;
use std::collections::HashMap;

/// The damping constant of reciprocal rank fusion (Cormack et al., 2009).
const FUSION_K: f64 = 60.0;

/// `search_tools`' finder: one search, or several fused.
#[derive(Clone, Debug)]
pub struct IndexFinder {
    search: Search,
}

impl IndexFinder {
    /// A finder ranking with `searches` (fused where more than one; `fastmcp` where none).
    pub fn new(mut searches: Vec<Search>) -> Self {
        let search = match searches.len() {
            0 => Search::Fastmcp,
            1 => searches.remove(0),
            _ => Search::Fused(searches),
        };
        IndexFinder { search }
    }

    /// The search it ranks with.
    pub fn search(&self) -> &Search {
        &self.search
    }
}

/// Each tool of `tools` as the searches read it (a tool that is not a JSON object with a
/// name reads as its name alone).
fn entries(tools: &[Tool]) -> Vec<SearchEntry> {
    tools
        .iter()
        .map(|tool| {
            serde_json::to_value(tool)
                .ok()
                .and_then(|value| SearchEntry::from_tool(&value))
                .unwrap_or_else(|| SearchEntry {
                    name: tool.name.to_string(),
                    title: None,
                    description: None,
                    properties: Vec::new(),
                })
        })
        .collect()
}

/// `ranks` fused: each tool scores the sum of 1 / (k + rank) over the ranks that hold it.
pub(super) fn fused(ranks: &[Vec<usize>]) -> Vec<usize> {
    let mut score: HashMap<usize, f64> = HashMap::new();
    for rank in ranks {
        for (place, &tool) in rank.iter().enumerate() {
            *score.entry(tool).or_default() += 1.0 / (FUSION_K + place as f64 + 1.0);
        }
    }
    let mut tools: Vec<(usize, f64)> = score.into_iter().collect();
    tools.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    tools.into_iter().map(|(tool, _)| tool).collect()
}

impl Finder for IndexFinder {
    fn rank(&self, tools: &[Tool], query: &str) -> Vec<usize> {
        self.search.index(&entries(tools)).rank(query)
    }

    fn sentences<'a>(&self, description: &'a str) -> Vec<&'a str> {
        description
            .split("\n\n")
            .flat_map(crate::prose::sentences)
            .collect()
    }

    fn tokens(&self, text: &str) -> usize {
        crate::tokens::count(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn tool(name: &str, description: &str) -> Tool {
        Tool::new(name.to_owned(), description.to_owned(), Arc::default())
    }

    #[test]
    fn the_finder_ranks_by_every_search_and_keeps_a_first_sentence_whole() {
        let tools = [
            tool("read_file", "Read a file from disk."),
            tool("list_directory", "List the entries of a directory."),
            tool(
                "move_file",
                "Move or rename a file (e.g. a.txt to b.txt). Fails if the target exists.",
            ),
        ];
        let finder = IndexFinder::new(Vec::new());
        assert_eq!(finder.rank(&tools, "rename")[0], 2);
        let both = IndexFinder::new(Search::lexical().to_vec());
        assert_eq!(both.rank(&tools, "rename")[0], 2);
        assert_eq!(
            finder.sentences(tools[2].description.as_deref().unwrap()),
            [
                "Move or rename a file (e.g. a.txt to b.txt).",
                "Fails if the target exists."
            ]
        );
        assert_eq!(finder.sentences("Lists.\n\nMore."), ["Lists.", "More."]);
        assert!(finder.tokens("read a file") >= 3);
    }

    #[test]
    fn fusion_puts_a_tool_both_rank_high_first() {
        assert_eq!(fused(&[vec![0, 1, 2], vec![1, 0]]), [0, 1, 2]);
        assert_eq!(fused(&[vec![2, 1], vec![1, 2], vec![1]]), [1, 2]);
    }
}
