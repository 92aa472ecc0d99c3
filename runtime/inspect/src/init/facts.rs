//! What an argument's description says that its name and type do not — allowed values,
//! formats, units, ranges, defaults — and its first sentence with just those asides:
//! the terse and middle wordings of an argument.

use super::asides::{Aside, asides};
use super::clip::{BREAKS, examples_at, fit, fit_clauses, sentences, tidy, without_examples};
use super::plain::plain;
use crate::count_tokens;
use kind::{
    Fact, QUOTES, fact, is_code, is_example, is_fact, quoted_examples, without_stated_lead,
};

/// One sentence of a text, with its asides.
struct Piece<'a> {
    sentence: &'a str,
    /// Each aside, closed or not, and what it says up to its examples (a closed one's).
    asides: Vec<(Aside, String)>,
}

impl Piece<'_> {
    /// The sentence's words outside its asides.
    fn main(&self) -> String {
        self.with(|_| false)
    }

    /// What each closed aside says, up to its examples; not an aside of the sentence's
    /// examples (`such as, [{ category: 'A' }]`), nor code.
    fn groups(&self) -> impl Iterator<Item = &str> {
        let examples = examples_at(self.sentence).unwrap_or(self.sentence.len());
        self.asides
            .iter()
            .filter(move |(aside, said)| {
                aside.closed && !said.is_empty() && aside.bytes.start < examples && !is_code(said)
            })
            .map(|(_, said)| said.as_str())
    }

    /// The sentence with the closed asides `keep` picks, each as it says it, where it
    /// stands (`'relevance' (default) or 'date'`), and no other.
    fn with(&self, keep: impl Fn(&str) -> bool) -> String {
        let mut out = String::with_capacity(self.sentence.len());
        let mut from = 0;
        for (aside, said) in &self.asides {
            out.push_str(&self.sentence[from..aside.bytes.start]);
            if aside.closed && !said.is_empty() && keep(said) {
                out.push_str(&format!("({said})"));
            }
            from = aside.bytes.end;
        }
        out.push_str(&self.sentence[from..]);
        tidy(&out)
    }

    /// `said` (what this sentence states) with the examples of values a user types that
    /// close the sentence, quoted (`(e.g. "/api/.*user")`): the words a user's query may
    /// hold. Without them where the sentence has none, or has other examples too (the last
    /// of three formats' examples would read as the only format's).
    fn with_example_values(&self, said: &str) -> String {
        let end = self.sentence.trim_end_matches(['.', ' ']).len();
        let examples = self
            .asides
            .iter()
            .filter(|(aside, _)| is_example(aside.inner(self.sentence)))
            .count();
        let closing = self.asides.last().filter(|(aside, _)| {
            examples == 1
                && aside.closed
                && aside.bytes.end == end
                && quoted_examples(aside.inner(self.sentence))
        });
        match closing {
            Some((aside, _)) => format!("{said} ({})", tidy(aside.inner(self.sentence))),
            None => said.to_owned(),
        }
    }
}

/// The pieces of a text: its sentences, each with its asides.
fn pieces(plain: &str) -> Vec<Piece<'_>> {
    sentences(plain)
        .into_iter()
        .map(|sentence| Piece {
            sentence,
            asides: asides(sentence)
                .into_iter()
                .map(|aside| {
                    let said = tidy(without_examples(aside.inner(sentence)));
                    (aside, said)
                })
                .collect(),
        })
        .collect()
}

/// The part of an argument's description that says what its name and type do not (allowed
/// values, formats, units, ranges, defaults): the pieces holding such a fact — a sentence's
/// words, or a parenthetical on its own — examples left out, within `budget` tokens; `None`
/// when there is none. Where they do not fit, a sentence's parenthetical values speak for
/// it (`Maximum number of channels to return (default 100, max 200)`: `default 100, max
/// 200`).
pub(crate) fn facts(
    description: &str,
    schema: &serde_json::Value,
    budget: usize,
) -> Option<String> {
    let (kept, values) = gathered(description, schema);
    fitted(&kept, &values, schema, budget).map(capitalized)
}

/// [`facts`] where they fit `budget` whole: each piece as the description says it (or its
/// values alone), none cut inside — `Accepts: ISO 8601 format.` of three formats would
/// read as the only one.
pub(crate) fn whole_facts(
    description: &str,
    schema: &serde_json::Value,
    budget: usize,
) -> Option<String> {
    let (kept, values) = gathered(description, schema);
    let said = fitted(&kept, &values, schema, budget)?;
    let whole = |part: &str| kept.iter().chain(&values).any(|piece| piece == part);
    parts(said.trim_end_matches('.'))
        .into_iter()
        .all(whole)
        .then(|| capitalized(said))
}

/// The examples of values a user types that `description` quotes, each aside's in order
/// (`["2 weeks ago", "yesterday"]`): the words a user's query may hold. Empty where it
/// quotes none, or only code.
pub(crate) fn example_values(description: &str) -> Vec<Vec<String>> {
    let plain = plain(description);
    let mut asides: Vec<Vec<String>> = Vec::new();
    for piece in pieces(&plain) {
        for (aside, _) in &piece.asides {
            let inner = aside.inner(piece.sentence);
            if quoted_examples(inner) {
                let values = inner.split(QUOTES).skip(1).step_by(2);
                asides.push(values.map(str::to_owned).collect());
            }
        }
    }
    asides
}

/// `text` with `values` quoted after it as its examples: `Accepts: relative dates (e.g.
/// '2 weeks ago', 'yesterday').`
pub(crate) fn with_examples(text: &str, values: &[String]) -> String {
    let quoted: Vec<String> = values
        .iter()
        .map(|v| match v.contains('\'') {
            true => format!("`{v}`"),
            false => format!("'{v}'"),
        })
        .collect();
    let text = text.trim_end_matches(['.', ' ']);
    format!("{text} (e.g. {}).", quoted.join(", "))
}

/// `facts` beginning as a description does: a first word in lower case letters alone gets
/// its capital (`required when pod has multiple containers`, `optional - the tag` less its
/// lead); a name, a value or code (`insert_content`, `'local'`, `iPhone`) stays as written.
fn capitalized(facts: String) -> String {
    let first = facts.split([' ', ',', ';', ':']).next().unwrap_or("");
    let word = !first.is_empty() && first.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    match word {
        true => facts[..1].to_ascii_uppercase() + &facts[1..],
        false => facts,
    }
}

/// The facts `said` joins with `; `, each whole: a `; ` inside an aside parts none
/// (git-mcp-server's `(create mode only; has no effect on list or delete)`, once drafted
/// as "Overwrite an existing tag (create mode only.").
fn parts(said: &str) -> Vec<&str> {
    let asides = asides(said);
    let mut parts = Vec::new();
    let mut from = 0;
    let outside = |&(at, _): &(usize, &str)| !asides.iter().any(|a| a.holds(at));
    for (at, _) in said.match_indices("; ").filter(outside) {
        parts.push(&said[from..at]);
        from = at + 2;
    }
    parts.push(&said[from..]);
    parts
}

/// The pieces that state facts (`kept`), or their `values` alone, within `budget` tokens.
fn fitted(
    kept: &[String],
    values: &[String],
    schema: &serde_json::Value,
    budget: usize,
) -> Option<String> {
    if kept.is_empty() {
        return None;
    }
    let (joined, shorter) = (kept.join("; "), values.join("; "));
    if count_tokens(&joined) > budget && count_tokens(&shorter) <= budget {
        return Some(shorter);
    }
    // What the cut left of a piece must still be a fact; a condition cut off from what it
    // conditions (`If not supplied.`, `optional - if not provided.`) says nothing.
    let fitted = fit(&joined, budget);
    let mut said: Vec<&str> = parts(fitted.trim_end_matches('.'));
    let mut cut = false;
    while let Some(last) = said.pop() {
        let whole = without_lone_condition(last);
        cut |= whole != last;
        if is_fact(whole, schema) && !cut_off(whole, kept) {
            said.push(whole);
            break;
        }
        cut = true;
    }
    match (said.is_empty(), cut) {
        (true, _) => None,
        (false, false) => Some(fitted),
        (false, true) => Some(format!("{}.", said.join("; "))),
    }
}

/// The pieces of `description` that state facts, and each piece's values alone where it
/// has any (else the piece).
fn gathered(description: &str, schema: &serde_json::Value) -> (Vec<String>, Vec<String>) {
    let mut kept: Vec<String> = Vec::new();
    // Each piece's values alone where it has any, else what `kept` keeps of it.
    let mut values: Vec<String> = Vec::new();
    for piece in pieces(&plain(description)) {
        let before = kept.len();
        let main = piece.main();
        // An example's parentheticals are the example's (`getByRole('button')`).
        if is_example(&main) || is_code(&main) {
            continue;
        }
        // An aside that only qualifies its sentence (`(not the MCP)`, `(default)`) is read
        // in it, where it stands.
        let qualifying = |group: &str| fact(group, schema) == Some(Fact::Qualifier);
        let sentence = piece.with(qualifying);
        let sentence = without_examples(sentence.trim_end_matches(['.', ' ']));
        if is_fact(sentence, schema) {
            kept.push(piece.with_example_values(without_stated_lead(sentence)));
        }
        let sentence_kept = kept.len() > before;
        kept.extend(
            piece
                .groups()
                .filter(|group| fact(group, schema) == Some(Fact::Standing))
                .map(|group| without_stated_lead(group).to_owned()),
        );
        let groups = &kept[before + usize::from(sentence_kept)..];
        values.extend_from_slice(match groups.is_empty() {
            true => &kept[before..],
            false => groups,
        });
    }
    (kept, values)
}

/// Whether `said` is what a cut left of a list of quoted values (`must contain 'filename',
/// 'mime_type'` of three) — a part of the values reads as all of them — or of a sentence
/// whose condition it cut off (`Do not pass anything to this param | if no commit sha is
/// specified`): what held under a condition would read as holding always.
fn cut_off(said: &str, kept: &[String]) -> bool {
    let said = said.trim_end_matches('.');
    kept.iter()
        .filter_map(|piece| piece.strip_prefix(said))
        .any(|lost| {
            let lost = lost.trim_start_matches(BREAKS).to_ascii_lowercase();
            let condition = ["if ", "when ", "unless ", "except ", "only "]
                .iter()
                .any(|word| lost.starts_with(word));
            (said.contains(QUOTES) && lost.contains(QUOTES)) || condition
        })
}

/// `clause` without the condition it ends on, cut off from what it conditions (`If not
/// supplied`, `optional - if not provided`, `When false`): a last part (after ` - `, `, `
/// or `: `), or a whole clause of four words at most, that begins with a subordinating
/// word.
fn without_lone_condition(clause: &str) -> &str {
    let clause = clause.trim();
    let start = [" - ", ", ", ": "]
        .iter()
        .filter_map(|mark| clause.rfind(mark).map(|at| at + mark.len()))
        .max()
        .unwrap_or(0);
    let lower = clause[start..].to_ascii_lowercase();
    let condition = ["if ", "when ", "unless ", "whether ", "once ", "while "]
        .iter()
        .any(|word| lower.starts_with(word));
    // A whole sentence may begin with its condition, no comma after it (`If omitted
    // returns the currently selected request`): alone, a condition is a few words.
    let lone = start > 0 || lower.split_whitespace().count() <= 4;
    match condition && lone {
        true => clause[..start].trim_end_matches([' ', '-', ',', ':']),
        false => clause,
    }
}

/// An argument's middle wording: its first sentence's words with the parentheticals that
/// state facts (examples and other asides out), then the sentences after it that state
/// facts, while they fit (`Maximum number of results. Defaults to 10, at most 50.`) —
/// within `budget` tokens; empty when that sentence is code. A first sentence that only
/// says what the schema states (`OPTIONAL.`) is none. It states the terse level's `facts`
/// too: where they are not among the sentences that fit, the first sentence is cut to make
/// room for them (context7's `query`: "What to look up in the library's documentation. Do
/// not include any sensitive or confidential information.").
pub(crate) fn argument_sentence(
    description: &str,
    schema: &serde_json::Value,
    facts: Option<&str>,
    budget: usize,
) -> String {
    let plain = plain(description);
    let mut pieces = pieces(&plain).into_iter().skip_while(|piece| {
        let main = piece
            .main()
            .trim_end_matches(['.', ' '])
            .to_ascii_lowercase();
        ["optional", "required"].contains(&main.as_str())
    });
    let Some(piece) = pieces.next() else {
        return String::new();
    };
    // Code is no prose to shorten: its parentheses are no asides (`(element) => { … }`).
    // Examples that are code (`such as, [{ category: 'A' }]`) go; words stay (`such as
    // `ArrowLeft` or `a``).
    if is_code(without_examples(&piece.main())) {
        return String::new();
    }
    let bare = piece.with(|group| is_fact(group, schema));
    let bare = without_code_examples(bare.trim_end_matches(['.', ' ']));
    // (The values added are quoted and no code: `quoted_examples` read them.)
    let text = piece.with_example_values(bare);
    let text = text.as_str();
    let mut kept = fit(text, budget);
    for piece in pieces {
        let main = piece.main();
        if is_example(&main) || is_code(&main) {
            continue;
        }
        let sentence = piece.with(|group| is_fact(group, schema));
        let sentence = without_examples(sentence.trim_end_matches(['.', ' ']));
        if !is_fact(sentence, schema) {
            continue;
        }
        let longer = format!("{}. {sentence}.", kept.trim_end_matches('.'));
        if count_tokens(&longer) > budget {
            break;
        }
        kept = longer;
    }
    match facts {
        // The terse facts before the example values, where not both fit.
        Some(facts) if !states(&kept, facts) => match with_facts(text, facts, budget) {
            alone if alone == facts && text != bare => with_facts(bare, facts, budget),
            both => both,
        },
        _ => kept,
    }
}

/// `text` without its examples where they are code or hold brackets (`such as, [{
/// category: 'A' }]`); with them where they are words (`such as `ArrowLeft` or `a``).
fn without_code_examples(text: &str) -> &str {
    let head = without_examples(text);
    let examples = text[head.len()..].trim_start_matches(BREAKS);
    match is_code(examples) || examples.contains(['[', '{']) {
        true => head,
        false => text,
    }
}

/// Whether `text` says every word of `facts` (its marks and case aside).
pub(crate) fn states(text: &str, facts: &str) -> bool {
    let word = |w: &str| {
        w.trim_matches(|c: char| c.is_ascii_punctuation() && !QUOTES.contains(&c))
            .to_ascii_lowercase()
    };
    let said: Vec<String> = text.split_whitespace().map(word).collect();
    facts
        .split_whitespace()
        .map(word)
        .all(|w| said.contains(&w))
}

/// `first` cut at its clauses to leave room for `facts` within `budget` tokens, then
/// `facts`; `facts` alone where no clause of it fits, or where they are its own values
/// (`Whether to list local branches ('local'), remote branches ('remote') …`: a part of it
/// would repeat one of them).
fn with_facts(first: &str, facts: &str, budget: usize) -> String {
    let bare = facts.trim_end_matches('.');
    let values = bare
        .split(QUOTES)
        .skip(1)
        .step_by(2)
        .any(|value| first.contains(value));
    let room = budget.saturating_sub(count_tokens(bare) + 2);
    // A condition cut off from what it conditions says nothing (`If supplied.`).
    let both = fit_clauses(first, room)
        .filter(|_| !values)
        .map(|first| without_lone_condition(first.trim_end_matches('.')).to_owned())
        .filter(|first| !first.is_empty())
        .map(|first| format!("{first}. {bare}."))
        .filter(|both| count_tokens(both) <= budget);
    both.unwrap_or_else(|| facts.to_owned())
}

mod kind;
#[cfg(test)]
mod tests;
