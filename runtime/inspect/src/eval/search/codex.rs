//! The Codex CLI's tool search (`tool_search`, formerly `search_tool_bm25`), as it ranks a
//! deferred MCP tool set: tools whose name matches a query word exactly come first, in
//! catalog order; then every other tool that shares a term with the query, by BM25 over its
//! search text, with the `bm25` crate the Codex CLI uses and the same language setting.
//!
//! The search text is the tool's name, title, description and input property keys (sorted),
//! joined by spaces. The Codex CLI also adds the server's name and the namespaced tool name;
//! those are the same words for every tool of one server and cannot tell its tools apart, so
//! they are left out. Where BM25 scores two tools the same, the crate leaves their order to a
//! hash map; here the earlier tool in the catalog ranks first, so every rank is reproducible.

use super::SearchEntry;
use bm25::{Document, Language, SearchEngine, SearchEngineBuilder};

/// How many tools the Codex CLI's tool search returns by default.
pub const CODEX_LIMIT: usize = 8;

/// What the Codex CLI indexes of a tool: its name, title, description and input property
/// keys (sorted), the empty ones left out, joined by spaces.
pub(super) fn text(entry: &SearchEntry) -> String {
    let mut parts = vec![entry.name.as_str()];
    for text in [&entry.title, &entry.description] {
        if let Some(text) = text.as_deref().map(str::trim)
            && !text.is_empty()
        {
            parts.push(text);
        }
    }
    let mut keys: Vec<&str> = entry.properties.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    parts.extend(keys);
    parts.join(" ")
}

/// The query's words as the exact-name step reads them: split at every character that is
/// not an ASCII letter, digit or `_`, lower-cased.
fn name_tokens(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|token| !token.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// A name matches a query word when it is the word or ends in `_word` (lower-cased).
fn name_matches(name: &str, token: &str) -> bool {
    name == token
        || name
            .strip_suffix(token)
            .is_some_and(|head| head.ends_with('_'))
}

/// One catalog's search index, built once and asked many queries.
pub struct ToolSearch {
    /// Lower-cased tool names, in catalog order.
    names: Vec<String>,
    engine: SearchEngine<usize>,
}

impl ToolSearch {
    /// Indexes `entries` (in catalog order).
    pub fn new(entries: &[SearchEntry]) -> ToolSearch {
        let documents = entries
            .iter()
            .enumerate()
            .map(|(id, entry)| Document::new(id, text(entry)));
        ToolSearch {
            names: entries
                .iter()
                .map(|e| e.name.to_ascii_lowercase())
                .collect(),
            engine: SearchEngineBuilder::<usize>::with_documents(Language::English, documents)
                .build(),
        }
    }

    /// Every tool the search returns for `query`, best first, as catalog indices: the exact
    /// name matches in catalog order, then the BM25 matches by falling score. A tool that
    /// neither matches by name nor shares a term with the query is not returned.
    pub fn rank(&self, query: &str) -> Vec<usize> {
        let tokens = name_tokens(query);
        let mut out: Vec<usize> = (0..self.names.len())
            .filter(|&id| tokens.iter().any(|t| name_matches(&self.names[id], t)))
            .collect();
        let exact = out.len();
        let mut scored = self.engine.search(query, None);
        scored.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.document.id.cmp(&b.document.id))
        });
        for result in scored {
            if !out[..exact].contains(&result.document.id) {
                out.push(result.document.id);
            }
        }
        out
    }

    /// The first `limit` tools of [`rank`](Self::rank): what the Codex CLI returns.
    pub fn search(&self, query: &str, limit: usize) -> Vec<usize> {
        let mut ranked = self.rank(query);
        ranked.truncate(limit);
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::entry;
    use super::*;

    #[test]
    fn exact_names_come_first_then_bm25() {
        let search = ToolSearch::new(&[
            entry("archive", "Move old invoices out of sight."),
            entry("list_invoices", "List every invoice of a customer."),
            entry("pay", "Pay an invoice."),
        ]);
        // `invoices` ends `list_invoices`; the others share the stem `invoic` with the query,
        // and BM25 ranks the shorter text (`pay`) before the longer (`archive`).
        assert_eq!(search.rank("show my invoices"), [1, 2, 0]);
        assert_eq!(search.search("show my invoices", 1), [1]);
        assert!(search.rank("weather tomorrow").is_empty());
    }

    #[test]
    fn names_match_whole_words_or_suffixes_only() {
        assert!(name_matches("search_notes", "notes"));
        assert!(name_matches("notes", "notes"));
        assert!(!name_matches("footnotes", "notes"));
        assert!(!name_matches("notes_search", "notes"));
        assert_eq!(
            name_tokens("Find `search_notes`, now!"),
            ["find", "search_notes", "now"]
        );
    }
}
