//! What `eval` flags: a task whose tool a terser level loses, and a reader whose `hit_at_1`
//! falls below a floor.

use super::{ClassEval, Evaluation};
use crate::lint::Finding;
use crate::report::{levels, runs};
use bm25::{DefaultTokenizer, Language, Tokenizer};
use std::collections::HashSet;

/// The query's words whose search terms the richer text has and the terser one lacks, in
/// query order: the words a terser wording took away.
pub fn lost_words(
    tokenizer: &DefaultTokenizer,
    query: &str,
    terser: &str,
    richer: &str,
) -> Vec<String> {
    let terms = |text: &str| -> HashSet<String> { tokenizer.tokenize(text).into_iter().collect() };
    let (terser, richer) = (terms(terser), terms(richer));
    let mut out: Vec<String> = Vec::new();
    for word in query.split_whitespace() {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        let lost = tokenizer
            .tokenize(word)
            .iter()
            .any(|term| richer.contains(term) && !terser.contains(term));
        if lost && !out.iter().any(|w| w == word) {
            out.push(word.to_owned());
        }
    }
    out
}

/// One task in one class, per level: `None` where the search finds its tool (or no richer
/// level does), else the nearest richer level that finds it and the query words lost.
fn misses(
    tokenizer: &DefaultTokenizer,
    eval: &Evaluation,
    class: &ClassEval,
    at: usize,
) -> Vec<Option<(usize, Vec<String>)>> {
    let task = &eval.tasks[class.tasks[at]];
    let found = |level: usize| class.levels[level].ranks[at].is_some_and(|r| r <= eval.k);
    let text = |level: usize| {
        class.levels[level]
            .search_text(&task.expect)
            .unwrap_or_default()
    };
    (0..class.levels.len())
        .map(|level| {
            if found(level) {
                return None;
            }
            let richer = (level + 1..class.levels.len()).find(|&r| found(r))?;
            Some((
                richer,
                lost_words(tokenizer, &task.query, &text(level), &text(richer)),
            ))
        })
        .collect()
}

/// A task whose tool a terser level loses: found in the top K at a richer level of the same
/// reader, not at this one. Consecutive levels that lose it the same way are one finding,
/// which names the query words the terser text no longer contains.
pub fn lost_at_terser_levels(eval: &Evaluation) -> Vec<Finding> {
    // The tokenizer BM25 uses (stop words, stemmer), built once for every task and level.
    let tokenizer = DefaultTokenizer::new(Language::English);
    let mut out = Vec::new();
    for class in &eval.classes {
        for at in 0..class.tasks.len() {
            let task = &eval.tasks[class.tasks[at]];
            let misses = misses(&tokenizer, eval, class, at);
            for (first, last) in runs(&misses) {
                let Some((richer, words)) = &misses[first] else {
                    continue;
                };
                let rank = class.levels[*richer].ranks[at].unwrap_or(0);
                let why = if words.is_empty() {
                    "no query word is missing there: other tools outrank it".to_owned()
                } else {
                    let words: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
                    format!("the text there no longer contains {}", words.join(", "))
                };
                out.push(Finding {
                    tool: task.expect.clone(),
                    string: format!("search text ({})", eval.search),
                    read_by: format!("{}@{}", class.class.label(), levels(first, last)),
                    message: format!(
                        "{:?} is not in the top {} at level {} but ranks {rank} at level {richer}; {why}",
                        task.query,
                        eval.k,
                        levels(first, last),
                    ),
                });
            }
        }
    }
    out
}

/// A reader whose `hit_at_1` at some level is below `floor` (0..=1).
pub fn below_floor(eval: &Evaluation, floor: f64) -> Vec<Finding> {
    let mut out = Vec::new();
    for class in &eval.classes {
        let low: Vec<String> = (0..class.levels.len())
            .filter(|&level| class.levels[level].hit_at_1 < floor)
            .map(|level| format!("{:.2} at level {level}", class.levels[level].hit_at_1))
            .collect();
        if !low.is_empty() {
            out.push(Finding {
                tool: "(catalog)".to_owned(),
                string: "hit@1".to_owned(),
                read_by: class.class.label(),
                message: format!("{} is below the floor {floor}", low.join(", ")),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::lost_words;
    use bm25::{DefaultTokenizer, Language};

    #[test]
    fn names_the_query_words_the_terser_text_lost() {
        let tokenizer = DefaultTokenizer::new(Language::English);
        assert_eq!(
            lost_words(
                &tokenizer,
                "Find my notes about the quarterly budget!",
                "search_notes Search notes.",
                "search_notes Full-text search over every note: budgets, plans, quarterly reviews."
            ),
            ["quarterly", "budget"]
        );
        assert!(lost_words(&tokenizer, "find notes", "Search notes.", "Search notes.").is_empty());
    }
}
