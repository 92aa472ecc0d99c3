//! Error accumulation: every rule reports into one `Errors`, and the caller turns the lot
//! into `compile_error!` invocations at once — no `?` inside a validation loop.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::fmt::Display;

/// Collects every error of one macro invocation.
#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanned on `tokens` (the offending token or expression).
    pub fn at<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        self.list.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error at an explicit span.
    pub fn at_span<M: Display>(&mut self, span: Span, message: M) {
        self.list.push(syn::Error::new(span, message));
    }

    /// Records an error produced elsewhere (for example by `syn`'s parser).
    pub fn push(&mut self, error: syn::Error) {
        self.list.push(error);
    }

    /// Records darling's errors (unknown keys, keys given twice), each at its own span and
    /// phrased like every other error of the macro.
    pub fn darling(&mut self, error: darling::Error) {
        for one in error.flatten() {
            let message = house_style(&one.to_string(), alternatives(&format!("{one:?}")));
            self.at_span(one.span(), message);
        }
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// All recorded errors as `compile_error!` invocations, each at its own span.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.list.iter().map(syn::Error::to_compile_error).collect()
    }
}

/// The candidate closest to `word`, when one is close enough to be a likely misspelling.
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c), *c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `` `a`, `b`, `c` `` — a list of names for a message.
pub fn backticked<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// darling's message in the macro's own phrasing: `unknown key `x`; did you mean `y`?`,
/// `` `x` given twice; keep one ``. The location darling appends (`at annotations`) goes:
/// the span already points there. `keys` (the error's [`alternatives`]) completes an
/// unknown key's message where darling's own left the list out.
fn house_style(message: &str, keys: Option<String>) -> String {
    let message = match message.rsplit_once(" at ") {
        Some((head, location))
            if location
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/') =>
        {
            head
        }
        _ => message,
    };
    if let Some(rest) = message.strip_prefix("Unknown field: ") {
        return match rest.split_once(". Did you mean ") {
            Some((key, close)) => format!("unknown key {key}; did you mean {close}"),
            None => match (rest.split_once(". Available values: "), keys) {
                (Some((key, keys)), _) => format!("unknown key {key}; keys here: {keys}"),
                (None, Some(keys)) => format!("unknown key {rest}; keys here: {keys}"),
                (None, None) => format!("unknown key {rest}"),
            },
        };
    }
    if let Some(key) = message.strip_prefix("Duplicate field ") {
        return format!("{key} given twice; keep one");
    }
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The keys darling knew for an unknown key, from its `Debug` form (`alts: {"a", "b"}`): its
/// message lists them only below ten keys, and `#[mcp_tool]` has ten. `None` for any other
/// error, or when the form has no such set (a test pins the darling version's form).
fn alternatives(debug: &str) -> Option<String> {
    let (_, rest) = debug.split_once("alts: {")?;
    let (set, _) = rest.split_once('}')?;
    let keys: Vec<&str> = set.split(", ").map(|k| k.trim_matches('"')).collect();
    (!set.is_empty()).then(|| backticked(&keys))
}

#[cfg(test)]
mod tests {
    use super::{Errors, house_style};

    #[test]
    fn unknown_key_lists_every_key_past_darlings_nine() {
        let keys = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
        let mut errors = Errors::default();
        errors.darling(darling::Error::unknown_field_with_alts("zzz", &keys));
        errors.darling(darling::Error::unknown_field_with_alts("jj", &keys));
        let messages: Vec<String> = errors.list.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "unknown key `zzz`; keys here: `a`, `b`, `c`, `d`, `e`, `f`, `g`, `h`, `i`, `j`",
                "unknown key `jj`; did you mean `j`?",
            ]
        );
    }

    #[test]
    fn darling_messages_in_house_style() {
        let cases = [
            (
                "Unknown field: `nmae`. Did you mean `name`?",
                "unknown key `nmae`; did you mean `name`?",
            ),
            (
                "Unknown field: `zz`. Available values: `a`, `b`",
                "unknown key `zz`; keys here: `a`, `b`",
            ),
            ("Unknown field: `zz`", "unknown key `zz`"),
            (
                "Duplicate field `title` at annotations",
                "`title` given twice; keep one",
            ),
            (
                "Unexpected literal type `string`",
                "unexpected literal type `string`",
            ),
        ];
        for (darling, ours) in cases {
            assert_eq!(house_style(darling, None), ours);
        }
    }
}
