//! What a draft keeps beyond its first words: the terms that tell a tool apart from its
//! siblings in one catalog, and the sentences that tell a reader what it must or must not
//! do. Both come from the tool's own text; neither is invented.
//!
//! | kept | where | when |
//! |---|---|---|
//! | the sentence holding most of the tool's own terms | 0..=2 | its terse text holds none |
//! | the same, as the next wording a check steps up to | 0..=2, 3..=6 | a search loses the tool |
//! | an imperative or a limit (`MUST … before …`, `no more than 3 times`) | 3..=6 | always |
//! | the server's own words less the sentences enough tools say word for word | 0..=2, 3..=6 | the last step before its own words |

use super::clip::{fit_clauses, sentences};
use super::shared::enough;
use super::{Budgets, ToolDraft};
use crate::count_tokens;
use bm25::{DefaultTokenizer, Language, Tokenizer};
use std::collections::{HashMap, HashSet};

/// Each tool's own terms: the search terms (stemmed, stop words out) of its description and
/// title that at most [`own_limit`] tools of the catalog have, its name's left out (every
/// search reads the name).
pub(super) struct OwnTerms {
    tokenizer: DefaultTokenizer,
    terms: Vec<HashSet<String>>,
}

/// How many tools of `count` may share a term that still tells them apart.
fn own_limit(count: usize) -> usize {
    2.max(count / 8)
}

impl OwnTerms {
    /// The own terms of each of the tools whose names and plain texts (description and
    /// title) are `texts`.
    pub(super) fn new(texts: &[(&str, String)]) -> OwnTerms {
        let tokenizer = DefaultTokenizer::new(Language::English);
        let all: Vec<HashSet<String>> = texts
            .iter()
            .map(|(_, text)| tokenizer.tokenize(text).into_iter().collect())
            .collect();
        let mut df: HashMap<String, usize> = HashMap::new();
        for terms in &all {
            for term in terms {
                *df.entry(term.clone()).or_default() += 1;
            }
        }
        let limit = own_limit(texts.len());
        let terms = texts
            .iter()
            .zip(&all)
            .map(|((name, _), terms)| {
                let named: HashSet<String> = tokenizer
                    .tokenize(&name.replace(['_', '-', '.'], " "))
                    .into_iter()
                    .collect();
                terms
                    .iter()
                    .filter(|term| df[term.as_str()] <= limit && !named.contains(*term))
                    .cloned()
                    .collect()
            })
            .collect();
        OwnTerms { tokenizer, terms }
    }

    /// The words of `text` that are tool `at`'s own terms, as written, each once.
    pub(super) fn own_words<'t>(&self, at: usize, text: &'t str) -> Vec<&'t str> {
        let mut said = HashSet::new();
        text.split(|c: char| !c.is_alphanumeric() && c != '-')
            .filter(|word| {
                let terms = self.tokenizer.tokenize(word);
                terms.iter().any(|term| self.terms[at].contains(term))
                    && terms.into_iter().all(|term| said.insert(term))
            })
            .collect()
    }

    /// The own terms of tool `at` that `text` says and `said` does not.
    pub(super) fn added(&self, at: usize, text: &str, said: &str) -> usize {
        let said: HashSet<String> = self.tokenizer.tokenize(said).into_iter().collect();
        self.tokenizer
            .tokenize(text)
            .into_iter()
            .collect::<HashSet<_>>()
            .iter()
            .filter(|term| self.terms[at].contains(*term) && !said.contains(*term))
            .count()
    }
}

/// Each draft's sharper wordings from `paragraphs` (its tool's plain description): the
/// next one up from its terse and middle texts ([`ToolDraft::more`]), a terse text that
/// holds none of its own terms takes the sharper one, and the middle text keeps its
/// imperatives ([`imperatives`]).
pub(super) fn sharpen(
    drafts: &mut [ToolDraft],
    paragraphs: &[Vec<String>],
    own: &OwnTerms,
    budgets: &Budgets,
) {
    let shared = shared_sentences(paragraphs);
    let imperatives = imperatives(paragraphs, &shared);
    for (at, draft) in drafts.iter_mut().enumerate() {
        let sentences: Vec<&str> = paragraphs[at].iter().flat_map(|p| sentences(p)).collect();
        if let Some(middle) = &draft.middle
            && budgets.middle > 0
        {
            let mut kept = middle.clone();
            for sentence in &imperatives[at] {
                if !kept.contains(sentence.as_str()) {
                    kept = format!("{kept} {sentence}");
                }
            }
            // Longer than the server's words, the level reads those: they say it too.
            draft.middle = (count_tokens(&kept) < draft.own_tokens).then_some(kept);
        }
        for (slot, budget) in [(0, budgets.terse), (1, budgets.middle)] {
            let base = match slot {
                0 => draft.terse.clone(),
                _ => draft.middle.clone(),
            };
            let Some(base) = base.filter(|_| budget > 0) else {
                continue;
            };
            // At 0..=2, first the first sentence with the examples and asides the terse
            // text cut (`for example switch between the light and dark color scheme`).
            let whole = sentences
                .first()
                .filter(|_| slot == 0)
                .and_then(|first| fit_clauses(first, 2 * budgets.terse))
                .filter(|whole| own.added(at, whole, &base) > 0);
            let next = sharper(own, at, &base, &sentences, budgets.terse.max(1));
            draft.more[slot] = [whole, next]
                .into_iter()
                .flatten()
                .filter(|text| count_tokens(text) < draft.own_tokens)
                .collect();
        }
        draft.pruned = pruned(&sentences, &shared).filter(|t| count_tokens(t) < draft.own_tokens);
        let said = draft.terse.as_deref().unwrap_or_default();
        if own.added(at, said, "") == 0 && !said.is_empty() && !draft.more[0].is_empty() {
            draft.terse = Some(draft.more[0].remove(0));
        }
    }
}

/// `base` and the sentence of `sentences` that adds most of tool `at`'s own terms to it
/// (the earliest of equals), fitted to `budget` tokens at its clause breaks (never inside a
/// clause, a list or an aside; an imperative whole or not at all); `None` where none adds
/// any.
fn sharper(
    own: &OwnTerms,
    at: usize,
    base: &str,
    sentences: &[&str],
    budget: usize,
) -> Option<String> {
    let (best, added) = sentences
        .iter()
        .filter(|sentence| !base.contains(*sentence))
        .filter_map(|sentence| match imperative(sentence) {
            true => (count_tokens(sentence) <= budget).then(|| (*sentence).to_owned()),
            false => fit_clauses(sentence, budget),
        })
        .map(|fitted| {
            let added = own.added(at, &fitted, base);
            (fitted, added)
        })
        .fold((None, 0), |(best, most), (fitted, added)| {
            match added > most {
                true => (Some(fitted), added),
                false => (best, most),
            }
        });
    let best = best.filter(|_| added > 0)?;
    let base = base.trim_end();
    let base = match base.ends_with(['.', '!', '?']) {
        true => base.to_owned(),
        false => format!("{base}."),
    };
    Some(format!("{base} {best}"))
}

/// `sentences` (one tool's) less those enough tools say word for word (`shared`, such as
/// `Only works within allowed directories.`): they tell no tool apart. The first stays: it
/// says what the tool does. `None` where none goes.
pub(super) fn pruned(sentences: &[&str], shared: &HashSet<&str>) -> Option<String> {
    let kept: Vec<&str> = sentences
        .iter()
        .enumerate()
        .filter(|&(i, s)| i == 0 || !shared.contains(s))
        .map(|(_, s)| *s)
        .collect();
    (kept.len() < sentences.len()).then(|| kept.join(" "))
}

/// The sentences of `paragraphs` (every tool's) that enough tools say word for word
/// ([`enough`]).
fn shared_sentences(paragraphs: &[Vec<String>]) -> HashSet<&str> {
    let mut said: HashMap<&str, usize> = HashMap::new();
    for own in paragraphs {
        let sentences: HashSet<&str> = own.iter().flat_map(|p| sentences(p)).collect();
        for sentence in sentences {
            *said.entry(sentence).or_default() += 1;
        }
    }
    let needed = enough(paragraphs.len());
    said.into_iter()
        .filter(|&(_, tools)| tools >= needed)
        .map(|(sentence, _)| sentence)
        .collect()
}

/// Each tool's imperatives and limits, whole: its sentences that say what a reader must,
/// must not, or may at most do (`You MUST call this function before …`, `Do not call this
/// tool more than 3 times`), unless enough tools say the same sentence (`shared`: that is
/// context, not the tool's).
pub(super) fn imperatives(paragraphs: &[Vec<String>], shared: &HashSet<&str>) -> Vec<Vec<String>> {
    paragraphs
        .iter()
        .map(|own| {
            own.iter()
                .flat_map(|p| sentences(p))
                .filter(|s| imperative(s) && !shared.contains(s))
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// Whether `sentence` tells the reader what it must, must not, or may at most do.
fn imperative(sentence: &str) -> bool {
    let lower = sentence.to_ascii_lowercase();
    let shouting = ["MUST", "NEVER", "IMPORTANT", "ALWAYS", "DO NOT"]
        .iter()
        .any(|word| sentence.contains(word));
    let limit = ["at most ", "no more than ", "more than ", "up to "]
        .iter()
        .any(|words| {
            lower.match_indices(words).any(|(at, w)| {
                lower[at + w.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            })
        });
    let must = [" must ", "do not ", "don't ", "never "]
        .iter()
        .any(|words| lower.starts_with(words.trim_start()) || lower.contains(words));
    // An order of calls (`Call list_tables before querying`), not any `before`.
    let order =
        lower.contains(" before ") && (lower.starts_with("call ") || lower.contains(" call "));
    shouting || limit || ((must || order) && lower.split_whitespace().count() >= 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imperatives_and_limits_are_told_from_other_sentences() {
        for said in [
            "You MUST call this function before 'Query Documentation' tool.",
            "Do not call this tool more than 3 times per question.",
            "Returns at most 100 rows.",
            "Call list_tables before querying a table.",
        ] {
            assert!(imperative(said), "{said}");
        }
        for said in [
            "Read the complete contents of a file.",
            "Returns up to date results.",
            "Only works within allowed directories.",
            "Best for: discovering URLs before deciding what to scrape.",
        ] {
            assert!(!imperative(said), "{said}");
        }
    }

    #[test]
    fn a_sentence_enough_tools_share_is_no_tools_imperative() {
        let tool = |own: &str| vec![format!("Do something. {own}")];
        let mut paragraphs: Vec<Vec<String>> = (0..4)
            .map(|_| tool("Never write outside the root."))
            .collect();
        paragraphs.push(tool("Never call this before `login`."));
        let kept = imperatives(&paragraphs, &shared_sentences(&paragraphs));
        assert!(kept[0].is_empty());
        assert_eq!(kept[4], ["Never call this before `login`."]);
    }

    #[test]
    fn a_sentence_enough_tools_say_word_for_word_is_pruned_but_a_first() {
        let tool = |own: &str| vec![format!("{own} Only works within allowed directories.")];
        let mut paragraphs: Vec<Vec<String>> = ["Read a file.", "Write a file.", "Move a file."]
            .into_iter()
            .map(tool)
            .collect();
        paragraphs.push(vec![
            "Only works within allowed directories. Lists them.".into(),
        ]);
        let shared = shared_sentences(&paragraphs);
        assert_eq!(
            shared,
            HashSet::from(["Only works within allowed directories."])
        );
        let of =
            |at: usize| -> Vec<&str> { paragraphs[at].iter().flat_map(|p| sentences(p)).collect() };
        assert_eq!(pruned(&of(0), &shared).as_deref(), Some("Read a file."));
        // The first sentence says what the tool does: it stays; nothing else goes.
        assert_eq!(pruned(&of(3), &shared), None);
    }

    #[test]
    fn own_words_are_a_texts_words_that_tell_its_tool_apart() {
        let texts = [
            ("read_media_file", "Read an image or audio file.".to_owned()),
            ("read_text_file", "Read a text file.".to_owned()),
            ("write_file", "Write a file.".to_owned()),
            ("edit_file", "Edit a file.".to_owned()),
        ];
        let own = OwnTerms::new(&texts);
        let said = "Image and audio files: image files too.";
        assert_eq!(own.own_words(0, said), ["Image", "audio"]);
        assert!(own.own_words(2, said).is_empty());
    }

    #[test]
    fn the_sharper_wording_adds_the_sentence_with_most_own_terms() {
        let texts = [
            (
                "read_media_file",
                "Read a file. Image and audio files come back as base64.".to_owned(),
            ),
            ("read_text_file", "Read a file as text.".to_owned()),
            ("write_file", "Write a file.".to_owned()),
            ("edit_file", "Edit a file.".to_owned()),
        ];
        let own = OwnTerms::new(&texts);
        let sentences = ["Read a file.", "Image and audio files come back as base64."];
        assert_eq!(
            sharper(&own, 0, "Read a file.", &sentences, 16).as_deref(),
            Some("Read a file. Image and audio files come back as base64.")
        );
        // Nothing of its own to add: no sharper wording.
        assert_eq!(
            sharper(&own, 2, "Write a file.", &["Write a file."], 16),
            None
        );
    }
}
