//! Error accumulation: every rule (the macro's own and the shared model's) reports into one
//! `CompileErrors`, and the caller turns the lot into `compile_error!` invocations at once — no `?`
//! inside a validation loop.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::fmt::Display;

/// Collects every error of one macro invocation.
#[derive(Default)]
pub struct CompileErrors {
    list: Vec<syn::Error>,
}

impl CompileErrors {
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
    /// worded as darling words it: darling exposes no error kind to rephrase by, and its
    /// rendered text is no interface.
    pub fn darling(&mut self, error: darling::Error) {
        self.list
            .extend(error.flatten().into_iter().map(syn::Error::from));
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

/// The shared model's rules report here, each error spanned on the tokens it names.
impl mcp_tailor_model::Sink<TokenStream> for CompileErrors {
    fn error(&mut self, loc: TokenStream, message: String) {
        self.at(loc, message);
    }
}

#[cfg(test)]
mod tests {
    use super::CompileErrors;

    #[test]
    fn darling_errors_keep_darlings_words_and_spans() {
        let keys = ["name", "title"];
        let mut errors = CompileErrors::default();
        errors.darling(darling::Error::multiple(vec![
            darling::Error::unknown_field_with_alts("nmae", &keys),
            darling::Error::duplicate_field("title").at("annotations"),
        ]));
        let messages: Vec<String> = errors.list.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "Unknown field: `nmae`. Did you mean `name`?",
                "Duplicate field `title` at annotations",
            ]
        );
    }
}
