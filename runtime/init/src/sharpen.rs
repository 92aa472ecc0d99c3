//! What a draft keeps beyond its first words: the terms that tell a tool apart from its
//! siblings in one catalog, and the sentences that tell a reader what it must or must not
//! do. Both come from the tool's own text; neither is invented.
//!
//! | kept | where | when |
//! |---|---|---|
//! | the sentence holding most of the tool's own terms | 0..=2 | its terse text holds none |
//! | the same, one sentence a step, as the next wordings a check steps up to | 0..=2 (within its bound), 3..=6 | a search loses the tool |
//! | an imperative or a limit (`MUST … before …`, `no more than 3 times`) | 3..=6 | always |
//! | the server's own words less the sentences enough tools say word for word (a rule stays) | 3..=6 (0..=2 within its bound) | the last step before its own words |

use super::shared::enough;
use super::{Budgets, ToolDraft};
use bm25::{DefaultTokenizer, Language, Tokenizer};
use mcp_tailor_inspect::count_tokens;
use mcp_tailor_inspect::seam::prose::{Form, Picks, Unit};
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

/// Each draft's sharper wordings: the next one up from its terse and middle picks
/// ([`ToolDraft::more`]), a terse text that holds none of its own terms takes the sharper
/// one, and the middle text keeps its imperatives ([`imperative`]). Every wording is whole
/// units of the tool's own ([`Picks`]).
pub(super) fn sharpen(drafts: &mut [ToolDraft], own: &OwnTerms, budgets: &Budgets) {
    let shared = shared_sentences(drafts);
    for (at, draft) in drafts.iter_mut().enumerate() {
        let units = &draft.units;
        let tokens = |picks: &Picks| count_tokens(&picks.text(units));
        let prose: Vec<usize> = (0..units.len()).filter(|&u| units[u].prose()).collect();
        if let Some(middle) = &draft.middle
            && budgets.middle > 0
        {
            let mut kept = middle.clone();
            for &u in &prose {
                if imperative(&units[u].text) && !shared.contains(&units[u].text) {
                    kept.add(units, u, Form::Lean);
                }
            }
            // Longer than the server's words, the level reads those: they say it too.
            draft.middle = (tokens(&kept) < draft.own_tokens).then_some(kept);
        }
        for (slot, budget) in [(0, budgets.terse), (1, budgets.middle)] {
            let base = match slot {
                0 => draft.terse.clone(),
                _ => draft.middle.clone(),
            };
            let Some(base) = base.filter(|_| budget > 0) else {
                continue;
            };
            // At 0..=2, first the first sentence whole: with the asides its lean form
            // leaves out (`for example switch between the light and dark color scheme`).
            let first = base.units().next().filter(|_| slot == 0);
            let whole = first.map(|first| {
                let mut whole = base.clone();
                whole.add(units, first, Form::Whole);
                whole
            });
            let whole =
                whole.filter(|whole| own.added(at, &whole.text(units), &base.text(units)) > 0);
            // Then, one at a time, the units adding most of its own terms: at 0..=2 while
            // what it says beyond its rules stays within the bound.
            let mut rungs: Vec<Picks> = whole.into_iter().collect();
            let mut last = base.clone();
            while let Some(next) = sharper(own, at, units, &last, budgets.terse.max(1)) {
                let within = count_tokens(&next.beyond_rules(units)) <= draft.bound;
                if slot == 0 && !within {
                    break;
                }
                rungs.push(next.clone());
                last = next;
                if slot == 1 {
                    break;
                }
            }
            draft.more[slot] = rungs
                .into_iter()
                .filter(|picks| tokens(picks) < draft.own_tokens)
                .collect();
        }
        draft.pruned = pruned(units, &prose, &shared).filter(|p| tokens(p) < draft.own_tokens);
        let said = draft
            .terse
            .as_ref()
            .map(|t| t.text(units))
            .unwrap_or_default();
        if own.added(at, &said, "") == 0 && !said.is_empty() && !draft.more[0].is_empty() {
            draft.terse = Some(draft.more[0].remove(0));
        }
    }
}

/// `base` and the unit of `units` that adds most of tool `at`'s own terms to it (the
/// earliest of equals), lean, where that is `budget` tokens at most; `None` where none
/// adds any.
fn sharper(
    own: &OwnTerms,
    at: usize,
    units: &[Unit],
    base: &Picks,
    budget: usize,
) -> Option<Picks> {
    let said = base.text(units);
    let (best, added) = (0..units.len())
        .filter(|&u| units[u].prose() && !base.holds(u))
        .filter(|&u| count_tokens(&units[u].lean()) <= budget || imperative(&units[u].text))
        .map(|u| (u, own.added(at, &units[u].lean(), &said)))
        .fold((None, 0), |(best, most), (u, added)| match added > most {
            true => (Some(u), added),
            false => (best, most),
        });
    let best = best.filter(|_| added > 0)?;
    let mut next = base.clone();
    next.add(units, best, Form::Lean);
    Some(next.with_rules(units))
}

/// A tool's prose units less those enough tools say word for word (`shared`, such as
/// `Returns JSON.`): they tell no tool apart. The first stays, it says what the tool does;
/// so does every rule. `None` where none goes.
pub(super) fn pruned(units: &[Unit], prose: &[usize], shared: &HashSet<String>) -> Option<Picks> {
    let kept = prose
        .iter()
        .enumerate()
        .filter(|&(i, &u)| i == 0 || units[u].rule || !shared.contains(&units[u].text))
        .map(|(_, &u)| u);
    let picks = Picks::of(units, kept, Form::Whole);
    (picks.units().count() < units.iter().filter(|u| u.prose()).count()).then_some(picks)
}

/// The unit texts every tool of `drafts` says that enough tools say word for word
/// ([`enough`]).
fn shared_sentences(drafts: &[ToolDraft]) -> HashSet<String> {
    let mut said: HashMap<&str, usize> = HashMap::new();
    for draft in drafts {
        let texts: HashSet<&str> = draft
            .units
            .iter()
            .filter(|u| u.prose())
            .map(|u| u.text.as_str())
            .collect();
        for text in texts {
            *said.entry(text).or_default() += 1;
        }
    }
    let needed = enough(drafts.len());
    said.into_iter()
        .filter(|&(_, tools)| tools >= needed)
        .map(|(text, _)| text.to_owned())
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

    fn units_of(text: &str) -> Vec<Unit> {
        mcp_tailor_inspect::seam::prose::units(text, &mcp_tailor_inspect::seam::prose::is_rule)
    }

    #[test]
    fn a_sentence_enough_tools_say_word_for_word_is_pruned_but_a_first_or_a_rule() {
        let shared: HashSet<String> = ["Returns JSON.", "Only works within allowed directories."]
            .map(str::to_owned)
            .into();
        let units = units_of("Read a file. Returns JSON. Only works within allowed directories.");
        let pruned_text = pruned(&units, &[0, 1, 2], &shared).map(|p| p.text(&units));
        assert_eq!(
            pruned_text.as_deref(),
            Some("Read a file. Only works within allowed directories.")
        );
        // The first sentence says what the tool does: it stays; nothing else goes.
        let units = units_of("Returns JSON. Lists them.");
        assert_eq!(pruned(&units, &[0, 1], &shared), None);
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
        let units = units_of("Read a file. Image and audio files come back as base64.");
        let base = Picks::of(&units, [0], Form::Lean);
        assert_eq!(
            sharper(&own, 0, &units, &base, 16)
                .map(|p| p.text(&units))
                .as_deref(),
            Some("Read a file. Image and audio files come back as base64.")
        );
        // Nothing of its own to add: no sharper wording.
        let units = units_of("Write a file.");
        let base = Picks::of(&units, [0], Form::Lean);
        assert_eq!(sharper(&own, 2, &units, &base, 16), None);
    }
}
