//! What makes a piece of an argument's description a fact its name and type do not
//! carry: the words that mark one, a quoted value, a number — and what is no fact (an
//! example, code).

/// Words that mark a fact an argument's name and type do not carry, of any type (a
/// boolean's too).
const ANY_TYPE: &[&str] = &[
    "one of",
    "either",
    "must",
    "default",
    "defaults",
    "omit",
    "omitted",
    "unset",
    "be ignored",
    "is ignored",
    "are ignored",
    "only",
    "not",
    "cannot be",
    "required",
    "optional",
];

/// Words that mark a format, unit or range: a fact of any type but a boolean. (`maximum` is
/// none: `Maximum number of rules to return` is what a `limit` is; its number is the
/// fact.)
const FORMATS: &[&str] = &[
    "format",
    "iso",
    "yyyy",
    "regex",
    "glob",
    "pattern",
    "between",
    "at most",
    "at least",
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
];

/// Fact words that only qualify what their sentence says (`(not the MCP)`): a
/// parenthetical holding no other fact is read with its sentence.
const QUALIFIERS: &[&str] = &["only", "not", "cannot be", "must"];

/// What makes `required` or `optional` a fact: the condition it holds under (`required
/// when pod has multiple containers`, `optional if using local chart path`); alone, the
/// schema says it.
const CONDITIONS: &[&str] = &["if ", "when ", "unless ", "for ", "only "];

/// Whether `lower` says when it is `word` (`required`, `optional`): [`CONDITIONS`].
fn conditioned(lower: &str, word: &str) -> bool {
    lower.match_indices(word).any(|(at, _)| {
        let after = &lower[at + word.len()..];
        after
            .strip_prefix(' ')
            .is_some_and(|after| CONDITIONS.iter().any(|c| after.starts_with(c)))
    })
}

/// Whether `word` names a standard by its number (`rfc3339`, `iso8601`, `iso-8601`).
fn standard(word: &str) -> bool {
    ["rfc", "iso"].iter().any(|name| {
        word.strip_prefix(name)
            .map(|rest| rest.trim_start_matches('-'))
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// The marks a quoted value is set off by.
pub(crate) const QUOTES: [char; 3] = ['\'', '"', '`'];

/// Whether a piece of text is code (`() => { … }`), whose brackets and marks are no
/// markup or asides.
pub(crate) fn is_code(piece: &str) -> bool {
    piece.contains("=>") || (piece.contains('{') && piece.contains('}'))
}

/// Whether a piece of text is an example (`e.g. 'main'`, `Bad: 'auth' or 'hooks'`), not
/// a fact.
pub(crate) fn is_example(piece: &str) -> bool {
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

/// Whether an aside is only examples of values a user types, each quoted and short
/// (`e.g. "/api/.*user"`, `for example 'main' or 'dev'`), none of them code.
pub(crate) fn quoted_examples(aside: &str) -> bool {
    /// A longer quoted example is a sentence or code, not a value.
    const LONGEST: usize = 40;
    if !is_example(aside) {
        return false;
    }
    let Some(first) = aside.find(QUOTES) else {
        return false;
    };
    let parts: Vec<&str> = aside[first..].split(QUOTES).collect();
    // Quoted values at the odd places; between them only separators.
    let values = parts.iter().skip(1).step_by(2);
    let between = parts.iter().skip(2).step_by(2);
    parts.len() % 2 == 1
        && values
            .clone()
            .all(|v| !v.is_empty() && v.len() <= LONGEST && !is_code(v))
        && between
            .map(|b| b.trim_matches([' ', ',', '.', ';']))
            .all(|b| matches!(b, "" | "or" | "and" | "etc"))
}

/// What makes a piece a fact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fact {
    /// A value, format, unit, range or default: it says something on its own.
    Standing,
    /// Only a qualifier (`not`, `only`, `must`, or a fact word alone: `default`): it says
    /// something of its sentence.
    Qualifier,
}

/// Whether a piece says what an argument's name and type do not: a fact word (one the
/// schema states itself — a `default`, an `enum` and its values, `required` without a
/// condition — aside; a boolean has no format or unit), a quoted value, or a number (a
/// word that begins with a digit, or a standard's: `RFC3339`).
pub(crate) fn is_fact(piece: &str, schema: &serde_json::Value) -> bool {
    fact(piece, schema).is_some()
}

/// What makes `piece` a fact, if anything does ([`is_fact`]).
pub(crate) fn fact(piece: &str, schema: &serde_json::Value) -> Option<Fact> {
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
        "one of" | "either" => !values.is_empty(),
        "format" => !values.is_empty() || boolean,
        "required" | "optional" => !conditioned(&lower, word),
        _ => values.iter().any(|v| v == word) || (boolean && FORMATS.contains(&word)),
    };
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '-'))
        .collect();
    // "format" is a fact where a format is named (`in ISO format`, `Markdown format`), not
    // in `The format of the content`.
    let named = piece
        .split_whitespace()
        .skip(1)
        .any(|w| w.starts_with(char::is_uppercase));
    let said = |fact: &&str| {
        !stated(fact)
            && (*fact != "format" || named || piece.contains(':'))
            && if fact.contains(' ') || *fact == "%" {
                lower.contains(fact)
            } else {
                words.contains(fact)
            }
    };
    let fact_word = ANY_TYPE
        .iter()
        .chain(FORMATS)
        .filter(|f| !QUALIFIERS.contains(f))
        .any(said);
    let qualifier = QUALIFIERS.iter().any(said);
    // A quoted word the schema does not state as a value or the default.
    let default = schema
        .get("default")
        .and_then(serde_json::Value::as_str)
        .map(str::to_ascii_lowercase);
    let quoted = QUOTES.iter().any(|q| {
        lower.matches(*q).count() >= 2
            && lower.split(*q).skip(1).step_by(2).any(|inner| {
                !inner.is_empty()
                    && !inner.contains(' ')
                    && !values.iter().any(|v| v == inner)
                    && default.as_deref() != Some(inner)
            })
    });
    // A number (`30`, `1.5`, `10s`), not a name with a digit in it (`Context7`, `o200k`);
    // a standard's (`RFC3339`) is one.
    let number = words
        .iter()
        .any(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()) || standard(w));
    // A fact word alone (`(default)`, `(optional)`) qualifies its sentence too.
    let alone = words.iter().filter(|w| !w.is_empty()).count() == 1;
    let standing = quoted || number || (fact_word && !alone);
    match (standing, fact_word || qualifier) {
        (true, _) => Some(Fact::Standing),
        (false, true) => Some(Fact::Qualifier),
        (false, false) => None,
    }
}
