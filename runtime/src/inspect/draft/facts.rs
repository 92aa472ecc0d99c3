//! What an argument's description says that its name and type do not — allowed values,
//! formats, units, ranges, defaults — and its first sentence with just those asides:
//! the terse and middle wordings of an argument.

use super::asides::{asides, outside};
use super::clip::{fit, plain, sentences, tidy, without_examples};

/// Words that mark a fact an argument's name and type do not carry.
const FACTS: &[&str] = &[
    "one of",
    "either",
    "must",
    "format",
    "iso",
    "yyyy",
    "regex",
    "glob",
    "pattern",
    "default",
    "defaults",
    "between",
    "at most",
    "at least",
    "maximum",
    "minimum",
    "max",
    "min",
    "up to",
    "range",
    "ms",
    "milliseconds",
    "seconds",
    "minutes",
    "hours",
    "days",
    "bytes",
    "kb",
    "mb",
    "percent",
    "%",
    "utc",
    "base64",
    "url",
    "uri",
    "absolute",
    "relative",
    "comma-separated",
    "case-sensitive",
    "case-insensitive",
    "only",
    "not",
    "required",
    "optional",
];

/// Fact words that only qualify what their sentence says (`(not the MCP)`): a
/// parenthetical holding no other fact is read with its sentence.
const QUALIFIERS: &[&str] = &["only", "not", "must"];

/// Fact words that hold for a boolean too: the others name formats and units.
const ANY_TYPE: &[&str] = &[
    "one of", "either", "must", "default", "defaults", "only", "not", "required", "optional",
];

/// The pieces of a text: each sentence's words outside its asides, then each closed aside
/// on its own, up to its examples.
fn pieces(plain: &str) -> Vec<(String, Vec<String>)> {
    sentences(plain)
        .into_iter()
        .map(|sentence| {
            let groups = asides(sentence)
                .into_iter()
                .filter(|aside| aside.closed)
                .map(|aside| tidy(without_examples(aside.inner(sentence))));
            (
                tidy(&outside(sentence)),
                groups.filter(|g| !g.is_empty()).collect(),
            )
        })
        .collect()
}

/// Whether a piece of text is code (`() => { … }`), whose brackets and marks are no
/// markup or asides.
fn is_code(piece: &str) -> bool {
    piece.contains("=>") || (piece.contains('{') && piece.contains('}'))
}

/// Whether a piece of text is an example (`e.g. 'main'`, `Bad: 'auth' or 'hooks'`), not
/// a fact.
fn is_example(piece: &str) -> bool {
    let lower = piece.trim_start().to_ascii_lowercase();
    [
        "e.g",
        "eg.",
        "for example",
        "for instance",
        "such as",
        "example",
        "like ",
        "good:",
        "bad:",
        "correct:",
        "incorrect:",
        "right:",
        "wrong:",
        "avoid:",
    ]
    .iter()
    .any(|marker| lower.starts_with(marker))
}

/// What makes a piece a fact.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fact {
    /// A value, format, unit, range or default: it says something on its own.
    Standing,
    /// Only a qualifier (`not`, `only`, `must`): it says something of its sentence.
    Qualifier,
}

/// Whether a piece says what an argument's name and type do not: a fact word (one the
/// schema states itself — a `default`, an `enum` and its values — aside; a boolean has no
/// format or unit), a quoted value, or a number (a word that begins with a digit).
fn is_fact(piece: &str, schema: &serde_json::Value) -> bool {
    fact(piece, schema).is_some()
}

/// What makes `piece` a fact, if anything does ([`is_fact`]).
fn fact(piece: &str, schema: &serde_json::Value) -> Option<Fact> {
    if is_example(piece) {
        return None;
    }
    let lower = piece.to_ascii_lowercase();
    let values: Vec<String> = schema
        .get("enum")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_ascii_lowercase))
        .collect();
    let boolean = schema.get("type").and_then(serde_json::Value::as_str) == Some("boolean");
    let stated = |word: &str| match word {
        "default" | "defaults" => schema.get("default").is_some(),
        "one of" | "either" | "format" => !values.is_empty(),
        "required" | "optional" => true,
        _ => values.iter().any(|v| v == word) || (boolean && !ANY_TYPE.contains(&word)),
    };
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '-'))
        .collect();
    let said = |fact: &&str| {
        !stated(fact)
            && if fact.contains(' ') || *fact == "%" {
                lower.contains(fact)
            } else {
                words.contains(fact)
            }
    };
    let fact_word = FACTS.iter().filter(|f| !QUALIFIERS.contains(f)).any(said);
    let qualifier = QUALIFIERS.iter().any(said);
    // A quoted word the schema does not state as a value or the default.
    let default = schema
        .get("default")
        .and_then(serde_json::Value::as_str)
        .map(str::to_ascii_lowercase);
    let quoted = ['\'', '"', '`'].iter().any(|q| {
        lower.matches(*q).count() >= 2
            && lower.split(*q).skip(1).step_by(2).any(|inner| {
                !inner.is_empty()
                    && !inner.contains(' ')
                    && !values.iter().any(|v| v == inner)
                    && default.as_deref() != Some(inner)
            })
    });
    // A number (`30`, `1.5`, `10s`), not a name with a digit in it (`Context7`, `o200k`).
    let number = words
        .iter()
        .any(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()));
    match (fact_word || quoted || number, qualifier) {
        (true, _) => Some(Fact::Standing),
        (false, true) => Some(Fact::Qualifier),
        (false, false) => None,
    }
}

/// The part of an argument's description that says what its name and type do not (allowed
/// values, formats, units, ranges, defaults): the pieces holding such a fact — a sentence's
/// words, or a parenthetical on its own — examples left out, within `budget` tokens; `None`
/// when there is none.
pub(crate) fn facts(
    description: &str,
    schema: &serde_json::Value,
    budget: usize,
) -> Option<String> {
    let mut kept: Vec<String> = Vec::new();
    for (main, groups) in pieces(&plain(description)) {
        let main = main.trim_end_matches(['.', ' ']);
        // An example's parentheticals are the example's (`getByRole('button')`).
        if is_example(main) || is_code(main) {
            continue;
        }
        let main = without_examples(main);
        let main_is_fact = is_fact(main, schema);
        if main_is_fact {
            kept.push(main.to_owned());
        }
        for group in groups {
            match fact(&group, schema) {
                Some(Fact::Standing) => kept.push(group),
                // `(not the MCP)` says nothing without its sentence.
                Some(Fact::Qualifier) => match (main_is_fact, kept.last_mut()) {
                    (true, Some(last)) => *last = format!("{last} ({group})"),
                    _ => kept.push(format!("{main} ({group})")),
                },
                None => {}
            }
        }
    }
    if kept.is_empty() {
        return None;
    }
    // What the cut left of a piece must still be a fact; a condition cut off from what it
    // conditions (`If not supplied.`, `optional - if not provided.`) says nothing.
    let fitted = fit(&kept.join("; "), budget);
    let mut said: Vec<&str> = fitted.trim_end_matches('.').split("; ").collect();
    let mut cut = false;
    while let Some(last) = said.pop() {
        let whole = without_lone_condition(last);
        cut |= whole != last;
        if is_fact(whole, schema) {
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

/// `clause` without the condition it ends on, cut off from what it conditions (`If not
/// supplied`, `optional - if not provided`, `When false`): a last part (after ` - `, `, `
/// or `: `) that begins with a subordinating word.
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
    match condition {
        true => clause[..start].trim_end_matches([' ', '-', ',', ':']),
        false => clause,
    }
}

/// An argument's middle wording: its first sentence's words with the parentheticals that
/// state facts (examples and other asides out), within `budget` tokens; empty when that
/// sentence is code.
pub(crate) fn argument_sentence(
    description: &str,
    schema: &serde_json::Value,
    budget: usize,
) -> String {
    let Some((main, groups)) = pieces(&plain(description)).into_iter().next() else {
        return String::new();
    };
    // Code is no prose to shorten: its parentheses are no asides (`(element) => { … }`).
    if is_code(&main) {
        return String::new();
    }
    let main = main.trim_end_matches(['.', ' ']);
    let facts: Vec<String> = groups.into_iter().filter(|g| is_fact(g, schema)).collect();
    let text = if facts.is_empty() {
        main.to_owned()
    } else {
        format!("{main} ({})", facts.join("; "))
    };
    fit(&text, budget)
}

#[cfg(test)]
mod tests;
