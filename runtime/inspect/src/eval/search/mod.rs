//! The tool searches harnesses run over a deferred tool set, each as its harness ranks:
//! what `eval` asks every task with, and `init --tasks` checks a draft with.
//!
//! | [`Search`] | who ranks so | what it reads of a tool |
//! |---|---|---|
//! | `codex` | the Codex CLI's `tool_search` | name, title, description, input property keys (sorted) |
//! | `fastmcp` | FastMCP's `BM25SearchTransform` | name, description, each input property's key and description |
//! | `embedding` | embedding tool retrieval (WordLlama's static embeddings, cosine) | name in words, title, description |
//!
//! A [`SearchEntry`] holds what any search reads of one tool; each search makes its own
//! text of it ([`Search::text`]) and its own index ([`Search::index`]).

mod codex;
#[cfg(feature = "embedding")]
mod embedding;
mod fastmcp;
mod finder;

pub use codex::{CODEX_LIMIT, ToolSearch};
#[cfg(feature = "embedding")]
pub use embedding::{EMBEDDING_LIMIT, EmbeddingError, EmbeddingModel, EmbeddingSearch};
pub use fastmcp::{FASTMCP_LIMIT, FastmcpSearch};
pub use finder::IndexFinder;

use serde_json::Value;
use std::fmt;
#[cfg(feature = "embedding")]
use std::sync::Arc;

/// One listed tool as the tool searches read it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SearchEntry {
    /// The tool's name.
    pub name: String,
    /// Its title, as listed.
    pub title: Option<String>,
    /// Its description, as listed.
    pub description: Option<String>,
    /// Its input properties (the schema's top level), in the schema's order, each with its
    /// description where it has one.
    pub properties: Vec<(String, Option<String>)>,
}

impl SearchEntry {
    /// The entry of an MCP `Tool` object as `tools/list` lists it (`None` without a name).
    pub fn from_tool(tool: &Value) -> Option<SearchEntry> {
        let name = tool.get("name")?.as_str()?;
        let text = |key: &str| tool.get(key).and_then(Value::as_str).map(str::to_owned);
        let properties = tool
            .pointer("/inputSchema/properties")
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .iter()
                    .map(|(key, property)| {
                        let description = property.get("description").and_then(Value::as_str);
                        (key.clone(), description.map(str::to_owned))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(SearchEntry {
            name: name.to_owned(),
            title: text("title"),
            description: text("description"),
            properties,
        })
    }
}

/// A tool search a harness runs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Search {
    /// The Codex CLI's `tool_search`: exact names first, then BM25 ([`ToolSearch`]).
    Codex,
    /// FastMCP's `BM25SearchTransform` ([`FastmcpSearch`]).
    Fastmcp,
    /// Semantic search over static word embeddings (`EmbeddingSearch`; feature
    /// `embedding`).
    #[cfg(feature = "embedding")]
    Embedding(Arc<EmbeddingModel>),
    /// Several searches, their ranks fused (reciprocal rank fusion): what the index
    /// surface's `search_tools` ranks with where more than one search is named.
    Fused(Vec<Search>),
}

impl PartialEq for Search {
    /// Two searches are the same when they rank alike: the same kind (embedding searches
    /// are compared by name alone).
    fn eq(&self, other: &Search) -> bool {
        self.name() == other.name()
    }
}

impl Search {
    /// The searches that need no model: `codex`, `fastmcp`.
    pub fn lexical() -> [Search; 2] {
        [Search::Codex, Search::Fastmcp]
    }

    /// Its name on the command line and in reports: `codex`, `fastmcp`, `embedding`.
    pub fn name(&self) -> &'static str {
        match self {
            Search::Codex => "codex",
            Search::Fastmcp => "fastmcp",
            #[cfg(feature = "embedding")]
            Search::Embedding(_) => "embedding",
            Search::Fused(_) => "fused",
        }
    }

    /// What ranks, in a report's words.
    pub fn describe(&self) -> &'static str {
        match self {
            Search::Codex => "the Codex CLI's tool search (exact names, then BM25)",
            Search::Fastmcp => "FastMCP's BM25SearchTransform (BM25 Okapi, k1 1.5, b 0.75)",
            #[cfg(feature = "embedding")]
            Search::Embedding(_) => "static word embeddings (WordLlama l2_supercat 256, cosine)",
            Search::Fused(_) => "the searches named, fused (reciprocal rank fusion, k 60)",
        }
    }

    /// How many tools the harness returns by default.
    pub fn limit(&self) -> usize {
        match self {
            Search::Codex => CODEX_LIMIT,
            Search::Fastmcp => FASTMCP_LIMIT,
            #[cfg(feature = "embedding")]
            Search::Embedding(_) => EMBEDDING_LIMIT,
            Search::Fused(_) => FASTMCP_LIMIT,
        }
    }

    /// The text this search indexes for `entry`.
    pub fn text(&self, entry: &SearchEntry) -> String {
        match self {
            Search::Codex => codex::text(entry),
            Search::Fastmcp => fastmcp::text(entry),
            #[cfg(feature = "embedding")]
            Search::Embedding(_) => embedding::text(entry),
            // What the first of them reads (a report quotes one text).
            Search::Fused(searches) => searches
                .first()
                .map_or_else(|| fastmcp::text(entry), |s| s.text(entry)),
        }
    }

    /// This search's index of `entries` (in catalog order).
    pub fn index(&self, entries: &[SearchEntry]) -> Index {
        match self {
            Search::Codex => Index::Codex(ToolSearch::new(entries)),
            Search::Fastmcp => Index::Fastmcp(FastmcpSearch::new(entries)),
            #[cfg(feature = "embedding")]
            Search::Embedding(model) => Index::Embedding(EmbeddingSearch::new(model, entries)),
            Search::Fused(searches) => {
                Index::Fused(searches.iter().map(|s| s.index(entries)).collect())
            }
        }
    }
}

impl fmt::Display for Search {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One catalog's index for one search, built once and asked many queries.
#[non_exhaustive]
pub enum Index {
    /// The Codex CLI's.
    Codex(ToolSearch),
    /// FastMCP's.
    Fastmcp(FastmcpSearch),
    /// Embeddings'.
    #[cfg(feature = "embedding")]
    Embedding(EmbeddingSearch),
    /// Several, fused.
    Fused(Vec<Index>),
}

impl Index {
    /// Every tool the search returns for `query`, best first, as catalog indices (a tool
    /// the search would not return at all is left out).
    pub fn rank(&self, query: &str) -> Vec<usize> {
        match self {
            Index::Codex(search) => search.rank(query),
            Index::Fastmcp(search) => search.rank(query),
            #[cfg(feature = "embedding")]
            Index::Embedding(search) => search.rank(query),
            Index::Fused(indexes) => {
                let ranks: Vec<Vec<usize>> = indexes.iter().map(|i| i.rank(query)).collect();
                finder::fused(&ranks)
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use serde_json::json;

    /// A tool of `name` and `description` as the searches read it.
    pub(in crate::eval::search) fn entry(name: &str, description: &str) -> SearchEntry {
        SearchEntry::from_tool(&json!({"name": name, "description": description})).unwrap()
    }

    #[test]
    fn an_entry_keeps_what_any_search_reads_in_the_schemas_order() {
        let tool = json!({
            "name": "search_notes",
            "title": " Search ",
            "description": "",
            "inputSchema": {"properties": {"tag": {"description": "A tag."}, "query": {}}},
        });
        let entry = SearchEntry::from_tool(&tool).unwrap();
        assert_eq!(
            entry.properties,
            [
                ("tag".to_owned(), Some("A tag.".to_owned())),
                ("query".to_owned(), None)
            ]
        );
        assert_eq!(Search::Codex.text(&entry), "search_notes Search query tag");
        assert_eq!(
            Search::Fastmcp.text(&entry),
            "search_notes tag A tag. query"
        );
        assert_eq!(SearchEntry::from_tool(&json!({"title": "x"})), None);
    }
}
