//! The wording of the rules a front end checks while it reads its own syntax (texts, level
//! forms, matchers, keys): one function per message, so the macro and a tailoring file say
//! the same thing about the same mistake. The rules that need the whole site live in
//! [`valid`](crate::valid).

use crate::errors::{backticked, did_you_mean};

/// The forms a level spec takes, for messages.
pub const SPEC_FORMS: &str = "an integer 0..=9, `LO..=HI` or `[A, B, …]`";

/// Why a text literal cannot be served, or `None` when it can.
pub fn text_problem(value: &str) -> Option<&'static str> {
    if value.is_empty() {
        Some("empty text; write the description or remove the entry")
    } else if value.trim().is_empty() {
        Some("blank text (only whitespace); write the description or remove the entry")
    } else {
        None
    }
}

/// A level that is not a level at all; `found` names what was written (`a string`).
pub fn expected_level(found: &str) -> String {
    format!("expected a verbosity level: {SPEC_FORMS}; found {found}")
}

/// `LO..HI`: only inclusive ranges are levels.
pub fn exclusive_range(lo: i128, hi: i128) -> String {
    let hint = if hi > lo {
        format!("write `{lo}..={}`", hi - 1)
    } else {
        "write `LO..=HI`".to_owned()
    };
    format!("exclusive range `{lo}..{hi}`; {hint}")
}

/// A range with a bound missing.
pub const OPEN_RANGE: &str = "open range; write both bounds as `LO..=HI`";

/// A runner or model matcher written as a number (`5.4`), which names nothing.
pub fn numeric_matcher(what: &str, written: &str) -> String {
    format!("numeric {what} `{written}`; write `\"{written}\"`")
}

/// `_` inside a model list.
pub const ANY_IN_LIST: &str = "`_` cannot stand inside a model list; write `_` alone";

/// `default` (or `default_verbosity`) twice in one list.
pub fn given_twice_in_list(key: &str) -> String {
    format!("`{key}` given twice in one list; keep one")
}

/// `default` twice in one runner's rule list.
pub const RULE_DEFAULT_TWICE: &str = "`default` given twice in one rule list; keep one";

/// A named-variant key inside a title's or a description's list.
pub fn misplaced_key(key: &str, is_title: bool) -> String {
    if is_title {
        format!(
            "misplaced key `{key}`: a title takes no named variants, only level entries, `default` and `default_verbosity`"
        )
    } else {
        format!("misplaced key `{key}`: write it beside `description = [...]`, not inside the list")
    }
}

/// A key no table of this kind takes, worded as darling words the macro's: the closest
/// known key when one is close, else every key there is.
pub fn unknown_key(key: &str, known: &[&str]) -> String {
    match did_you_mean(key, known) {
        Some(close) => format!("Unknown field: `{key}`. Did you mean `{close}`?"),
        None => format!(
            "Unknown field: `{key}`. Available values: {}",
            backticked(known)
        ),
    }
}

/// A tool name: 1..=128 characters of `A-Z a-z 0-9 _ - .`; the error when it is not.
pub fn tool_name(name: &str) -> Option<String> {
    let valid_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    (name.is_empty() || name.len() > 128 || !name.chars().all(valid_char)).then(|| {
        format!("invalid tool name `{name}`; use 1..=128 characters of `A-Z a-z 0-9 _ - .`")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(text_problem("Search."), None);
        assert!(text_problem("").unwrap().starts_with("empty text"));
        assert!(text_problem(" \t").unwrap().starts_with("blank text"));
    }

    #[test]
    fn exclusive_ranges_suggest_the_inclusive_one() {
        assert_eq!(
            exclusive_range(0, 5),
            "exclusive range `0..5`; write `0..=4`"
        );
        assert_eq!(
            exclusive_range(5, 5),
            "exclusive range `5..5`; write `LO..=HI`"
        );
    }

    #[test]
    fn unknown_keys_name_the_closest_or_all() {
        let known = ["description", "title"];
        assert_eq!(
            unknown_key("descriptoin", &known),
            "Unknown field: `descriptoin`. Did you mean `description`?"
        );
        assert_eq!(
            unknown_key("zzz", &known),
            "Unknown field: `zzz`. Available values: `description`, `title`"
        );
    }

    #[test]
    fn tool_names() {
        assert_eq!(tool_name("search_notes.v2-b"), None);
        assert!(tool_name("").is_some());
        assert!(tool_name("a b").is_some());
        assert!(tool_name(&"a".repeat(129)).is_some());
    }
}
