//! The rules a valid call depends on, told from prose by their forms. A level that says
//! anything of a tool or an argument keeps every rule of it (`Picks::with_rules`).
//!
//! The forms are the words these sentences are built on in the 30 catalogs captured in
//! `cli/tests/init/` and `tests/findability/` (BENCHMARKS.md §8 counts the rules found in
//! each): a requirement, a prohibition, how arguments go together, the condition a value
//! or an argument holds under, and what must always be done.

/// One form of rule: its name and the word sequences that state it (`*` stands for any
/// one word).
pub(crate) struct RuleForm {
    pub(crate) name: &'static str,
    pub(crate) phrases: &'static [&'static str],
}

/// Every form of rule, in the order BENCHMARKS.md counts them.
pub(crate) const FORMS: &[RuleForm] = &[
    RuleForm {
        name: "required",
        phrases: &[
            "required",
            "requires",
            "mandatory",
            "must",
            "need to",
            "needs to",
            "has to",
            "have to",
            "is needed",
            "are needed",
        ],
    },
    RuleForm {
        name: "forbidden",
        phrases: &[
            "do not",
            "don't",
            "does not accept",
            "never",
            "cannot",
            "can't",
            "can not",
            "should not",
            "shouldn't",
            "not supported",
            "unsupported",
            "not allowed",
            "not permitted",
            "not accepted",
            "forbidden",
            "invalid",
            "will fail",
            "fails if",
            "rejected",
            "not valid",
        ],
    },
    RuleForm {
        name: "together",
        phrases: &[
            "exactly one",
            "at least one",
            "at most one",
            "only one",
            "mutually exclusive",
            "exclusive with",
            "together",
            "either",
            "neither",
            "one of",
            "both",
            "in combination",
            "in conjunction",
            "alongside",
            "used with",
            "combined with",
        ],
    },
    RuleForm {
        name: "condition",
        phrases: &[
            "only if",
            "only when",
            "only for",
            "only with",
            "only applies",
            "only applicable",
            "only available",
            "only used",
            "only works",
            "only valid",
            "available only",
            "applies only",
            "used only",
            "valid only",
            "ignored",
            "unless",
            "has no effect",
            "takes precedence",
            "overrides",
            "if not",
            "when not",
            "if omitted",
            "if provided",
            "if specified",
            "if set",
            "if true",
            "if false",
            "when true",
            "when false",
            "when set",
            "when provided",
            "when specified",
            "applicable when",
            "applicable for",
        ],
    },
    RuleForm {
        name: "always",
        phrases: &[
            "always",
            "at least",
            "at most",
            "no more than",
            "no less than",
        ],
    },
];

/// Whether `text` names the argument `name`: as code (`` `sha` ``), or as written where
/// it is no plain word (`project_id`, `projectSlug`, `ref2`); `branch` in prose is a word.
fn names_argument(text: &str, name: &str) -> bool {
    if text.contains(&format!("`{name}`")) {
        return true;
    }
    let plain = name.chars().all(|c| c.is_ascii_lowercase());
    !plain
        && text.match_indices(name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !word(before) && !word(after)
        })
}

/// The name of the first form of rule `text` states, if any.
pub(crate) fn form(text: &str) -> Option<&'static str> {
    let words = words(text);
    FORMS
        .iter()
        .find(|form| form.phrases.iter().any(|phrase| said(&words, phrase)))
        .map(|form| form.name)
}

/// Whether `text` (an argument's description) states a rule a valid call depends on
/// (`FORMS`).
pub fn is_rule(text: &str) -> bool {
    form(text).is_some()
}

/// The forms that speak to the caller whatever they name (`Never call…`, `You MUST…`,
/// `EXACTLY ONE of…`): a rule in a tool's description without naming an argument.
const DIRECT: &[&str] = &[
    "must",
    "never",
    "do not",
    "don't",
    "always",
    "exactly one",
    "at least one",
    "mutually exclusive",
    "only one",
];

/// The words a tool's description names its arguments by where it names none.
const ARGUMENTS: &[&str] = &[
    "parameter",
    "parameters",
    "param",
    "params",
    "argument",
    "arguments",
    "field",
    "fields",
    "input",
    "inputs",
];

/// Whether `text`, of a tool's description, states a rule a valid call depends on: a
/// form that speaks to the caller (`DIRECT`), or any form where it names an argument
/// (one of `names`, or a word for one). `it requires merge permission` is none.
pub fn is_call_rule(text: &str, names: &[String]) -> bool {
    let Some(_) = form(text) else {
        return false;
    };
    let words = words(text);
    let named = words.iter().any(|w| ARGUMENTS.contains(&w.as_str()))
        || names.iter().any(|name| names_argument(text, name));
    named || DIRECT.iter().any(|phrase| said(&words, phrase))
}

/// The lower-case words of `text` (letters, digits, `'` and `_` inside a word).
pub(super) fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace('’', "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_'))
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether `words` hold `phrase`'s words in a row.
pub(super) fn said(words: &[String], phrase: &str) -> bool {
    let phrase: Vec<&str> = phrase.split(' ').collect();
    words
        .windows(phrase.len())
        .any(|run| run.iter().zip(&phrase).all(|(w, p)| *p == "*" || w == p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issues_rules_are_told() {
        for rule in [
            "Required for: get_status, get_changes.",
            "Mutually exclusive with assignee_username.",
            "At least one of \"paths\" or \"data\" must be provided.",
            "Do not pass anything to this param if no commit sha is specified",
            "ISO country codes (e.g., 'us', 'jp') are not supported.",
            "Available only if topic is general.",
            "Input options (EXACTLY ONE of these THREE options must be used):",
            "ALL of these must be provided together",
            "Never call this tool with incomplete parameters",
            "(required when updating existing files)",
        ] {
            assert!(is_rule(rule), "{rule}");
        }
        for prose in [
            "Search the web for current information.",
            "ID of the run.",
            "Returns the commit log.",
        ] {
            assert!(!is_rule(prose), "{prose}");
        }
    }

    #[test]
    fn words_are_matched_whole() {
        assert!(!is_rule("Reads the mustard list."));
        assert_eq!(form("Don’t pass a path."), Some("forbidden"));
    }
}
