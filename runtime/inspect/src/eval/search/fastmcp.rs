//! FastMCP's tool search, `BM25SearchTransform` (fastmcp 4.2), ported rank for rank: BM25
//! Okapi (k1 1.5, b 0.75) over each tool's name, description, and each input property's
//! key and description; ties keep catalog order; a tool scoring 0 is not returned.
//!
//! Words are runs of two or more letters or digits after NFKC normalization and case
//! folding, as its `re.findall(r"[^\W_]{2,}", …)` reads them. One difference is known:
//! Python's `\w` leaves out combining marks (category M), which Rust's alphabetic
//! characters include (`char::is_alphanumeric`); a word of such a script may split where
//! FastMCP's does not. CI compares this port with FastMCP itself (`tests/python/`).

use super::SearchEntry;
use std::collections::HashMap;
use unicode_normalization::UnicodeNormalization as _;

/// How many tools FastMCP's `search_tools` returns by default (`max_results`).
pub const FASTMCP_LIMIT: usize = 5;

/// BM25's term-frequency saturation, as FastMCP sets it.
const K1: f64 = 1.5;
/// BM25's length normalization, as FastMCP sets it.
const B: f64 = 0.75;

/// What FastMCP indexes of a tool (`_extract_searchable_text`): its name, its description
/// (when not empty), and each input property's key and description (when not empty), in
/// the schema's order, joined by spaces.
pub(super) fn text(entry: &SearchEntry) -> String {
    let mut parts = vec![entry.name.as_str()];
    if let Some(description) = entry.description.as_deref().filter(|d| !d.is_empty()) {
        parts.push(description);
    }
    for (key, description) in &entry.properties {
        parts.push(key);
        if let Some(description) = description.as_deref().filter(|d| !d.is_empty()) {
            parts.push(description);
        }
    }
    parts.join(" ")
}

/// FastMCP's words of `text`: NFKC, case-folded, runs of two or more letters or digits.
fn tokenize(text: &str) -> Vec<String> {
    let folded = caseless::default_case_fold_str(&text.nfkc().collect::<String>());
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().nth(1).is_some())
        .map(str::to_owned)
        .collect()
}

/// One catalog's index, built once and asked many queries.
pub struct FastmcpSearch {
    /// Each tool's term frequencies, in catalog order.
    tf: Vec<HashMap<String, u32>>,
    /// Each tool's length in words.
    lengths: Vec<usize>,
    /// How many tools hold each term.
    df: HashMap<String, usize>,
    /// The mean length.
    avg_dl: f64,
}

impl FastmcpSearch {
    /// Indexes `entries` (in catalog order).
    pub fn new(entries: &[SearchEntry]) -> FastmcpSearch {
        let mut df: HashMap<String, usize> = HashMap::new();
        let mut tf = Vec::with_capacity(entries.len());
        let mut lengths = Vec::with_capacity(entries.len());
        for entry in entries {
            let tokens = tokenize(&text(entry));
            lengths.push(tokens.len());
            let mut counts: HashMap<String, u32> = HashMap::new();
            for token in tokens {
                *counts.entry(token).or_default() += 1;
            }
            for token in counts.keys() {
                *df.entry(token.clone()).or_default() += 1;
            }
            tf.push(counts);
        }
        let n = entries.len();
        let avg_dl = match n {
            0 => 0.0,
            n => lengths.iter().sum::<usize>() as f64 / n as f64,
        };
        FastmcpSearch {
            tf,
            lengths,
            df,
            avg_dl,
        }
    }

    /// Every tool that scores above 0 for `query`, best first (ties in catalog order), as
    /// catalog indices: FastMCP's `search_tools` with no limit.
    pub fn rank(&self, query: &str) -> Vec<usize> {
        let n = self.tf.len();
        let mut scores = vec![0.0f64; n];
        // The same sums in the same order as FastMCP's, so equal scores stay equal.
        for token in tokenize(query) {
            let Some(&df) = self.df.get(&token) else {
                continue;
            };
            let idf = ((n as f64 - df as f64 + 0.5) / (df as f64 + 0.5) + 1.0).ln();
            for (i, counts) in self.tf.iter().enumerate() {
                let Some(&tf) = counts.get(&token) else {
                    continue;
                };
                let (tf, dl) = (f64::from(tf), self.lengths[i] as f64);
                let numerator = tf * (K1 + 1.0);
                let denominator = tf + K1 * (1.0 - B + B * dl / self.avg_dl);
                scores[i] += idf * numerator / denominator;
            }
        }
        let mut ranked: Vec<usize> = (0..n).filter(|&i| scores[i] > 0.0).collect();
        // Stable: equal scores keep catalog order, as Python's `sorted(…, reverse=True)`.
        ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::entry;
    use super::*;

    #[test]
    fn words_are_folded_runs_of_two_letters_or_digits() {
        assert_eq!(
            tokenize("Read a FILE's text_content (UTF-8), Straße ①"),
            ["read", "file", "text", "content", "utf", "strasse"]
        );
    }

    #[test]
    fn ranks_by_bm25_with_ties_in_catalog_order_and_no_zero_scores() {
        let search = FastmcpSearch::new(&[
            entry("archive", "Move old invoices out of sight."),
            entry("list_invoices", "List every invoice of a customer."),
            entry("pay", "Pay an invoice."),
            entry("pay_again", "Pay an invoice."),
        ]);
        // No stemming: `invoices` is not `invoice`; a name is split into words. Both texts
        // hold `invoices` once in seven words: a tie, in catalog order.
        assert_eq!(search.rank("show my invoices"), [0, 1]);
        // `pay` and `pay_again` tie on `invoice` but `pay_again` is longer; `pay` first.
        assert_eq!(search.rank("pay invoice"), [2, 3, 1]);
        assert!(search.rank("weather tomorrow").is_empty());
    }
}
