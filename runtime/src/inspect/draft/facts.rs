//! What an argument's description says that its name and type do not — allowed values,
//! formats, units, ranges, defaults — and its first sentence with just those asides:
//! the terse and middle wordings of an argument.

use super::clip::{fit, plain, sentences, tidy};

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

/// The pieces of a text: each sentence's words outside parentheses, then each
/// parenthetical group on its own.
fn pieces(plain: &str) -> Vec<(String, Vec<String>)> {
    sentences(plain)
        .into_iter()
        .map(|sentence| {
            let (mut main, mut groups, mut group, mut depth) =
                (String::new(), Vec::new(), String::new(), 0usize);
            for c in sentence.chars() {
                match c {
                    '(' | '[' => {
                        depth += 1;
                        if depth > 1 {
                            group.push(c);
                        }
                    }
                    ')' | ']' if depth > 0 => {
                        depth -= 1;
                        if depth == 0 {
                            groups.push(std::mem::take(&mut group).trim().to_owned());
                        } else {
                            group.push(c);
                        }
                    }
                    _ if depth > 0 => group.push(c),
                    _ => main.push(c),
                }
            }
            (
                tidy(&main),
                groups.into_iter().filter(|g| !g.is_empty()).collect(),
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

/// Whether a piece says what an argument's name and type do not: a fact word (one the
/// schema states itself — a `default`, an `enum` — aside), a quoted value, or a number
/// (a word that begins with a digit).
fn is_fact(piece: &str, schema: &serde_json::Value) -> bool {
    if is_example(piece) {
        return false;
    }
    let lower = piece.to_ascii_lowercase();
    let stated = |word: &str| match word {
        "default" | "defaults" => schema.get("default").is_some(),
        "one of" | "either" => schema.get("enum").is_some(),
        "required" | "optional" => true,
        _ => false,
    };
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '-'))
        .collect();
    let fact_word = FACTS.iter().any(|fact| {
        !stated(fact)
            && if fact.contains(' ') || *fact == "%" {
                lower.contains(fact)
            } else {
                words.contains(fact)
            }
    });
    let quoted = ['\'', '"', '`'].iter().any(|q| {
        let mut parts = lower.split(*q);
        parts.next();
        // An opening quote at a word's start, and its closing one.
        parts
            .next()
            .is_some_and(|inner| !inner.is_empty() && !inner.contains(' '))
            && lower.matches(*q).count() >= 2
    });
    // A number (`30`, `1.5`, `10s`), not a name with a digit in it (`Context7`, `o200k`).
    let number = words
        .iter()
        .any(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()));
    fact_word || quoted || number
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
        if is_fact(main, schema) {
            kept.push(main.to_owned());
        }
        kept.extend(groups.into_iter().filter(|g| is_fact(g, schema)));
    }
    if kept.is_empty() {
        return None;
    }
    // A condition cut off from what it conditions (`If not supplied.`) says nothing.
    let fitted = fit(&kept.join("; "), budget);
    let mut said: Vec<&str> = fitted.trim_end_matches('.').split("; ").collect();
    let all = said.len();
    while said.last().is_some_and(|last| is_lone_condition(last)) {
        said.pop();
    }
    match said.len() {
        0 => None,
        n if n == all => Some(fitted),
        _ => Some(format!("{}.", said.join("; "))),
    }
}

/// Whether `clause` is only a condition (`If not supplied`, `When false`): it begins with
/// a subordinating word and nothing follows a comma.
fn is_lone_condition(clause: &str) -> bool {
    let lower = clause.trim().to_ascii_lowercase();
    ["if ", "when ", "unless ", "whether ", "once ", "while "]
        .iter()
        .any(|word| lower.starts_with(word))
        && !lower.contains(", ")
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
