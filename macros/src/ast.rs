//! The macro's side of the DSL's model: the shared model (`mcp-tailor-model`) over the
//! macro's tokens, and what only a tool declares (name, annotations, scopes).

pub use mcp_tailor_model::ast::{Model, RunnerMatch};
use mcp_tailor_model::{Front, ast as model};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

/// The macro's front of the shared model: locations are the tokens as written (an error
/// spans all of them), texts are literals or `&'static str` expressions.
#[derive(Clone, Copy, Debug)]
pub struct Macro;

impl Front for Macro {
    type Loc = TokenStream;
    type Text = Text;

    fn literal(text: &Text) -> Option<&str> {
        match text {
            Text::Lit { value, .. } => Some(value),
            Text::Expr(_) | Text::Nothing(_) => None,
        }
    }

    fn text_loc(text: &Text) -> TokenStream {
        match text {
            Text::Lit { lit, .. } => lit.to_token_stream(),
            Text::Expr(expr) => expr.to_token_stream(),
            Text::Nothing(none) => none.to_token_stream(),
        }
    }

    fn is_nothing(text: &Text) -> bool {
        matches!(text, Text::Nothing(_))
    }
}

/// A verbosity level as written (not yet checked against 0..=9).
pub type Level = model::Level<Macro>;
/// A level spec `S`: `N`, `LO..=HI` or `[A, B, …]`.
pub type LevelSpec = model::LevelSpec<Macro>;
/// A variant tag: `foo_bar` or `"hippo-5"`, normalised to its string.
pub type Tag = model::Tag<Macro>;
/// `[ (verbosity(S), T), …, default = T, default_verbosity = N ]`.
pub type DescList = model::DescList<Macro>;
/// The value of `description =` or `title =`.
pub type DescValue = model::DescValue<Macro>;
/// `((runner, model), [ (verbosity(S), tag), …, default = tag ])`.
pub type Runner = model::Runner<Macro>;
/// One description site's keys.
pub type DescSpec = model::DescSpec<Macro>;

/// A text `T`: a string literal (checked now) or an expression of type `&'static str`
/// (`concat!`, `include_str!`, a const path — checked by an emitted const assertion).
#[derive(Clone)]
pub enum Text {
    Lit {
        value: String,
        lit: syn::LitStr,
    },
    Expr(syn::Expr),
    /// `None`: say nothing (the key is left out where it answers).
    Nothing(syn::Ident),
}

/// A description site that may name the crate: `description!`, `#[mcp_tool]`, `#[mcp_args]`.
#[derive(Clone, Default)]
pub struct Site {
    pub spec: DescSpec,
    /// `crate = path`: the path of `mcp_tailor` in the expansion.
    pub krate: Option<syn::Path>,
}

/// `annotations(title = …, read_only_hint = …, …)`.
#[derive(Clone, Default)]
pub struct AnnotationsAttr {
    pub title: Option<Text>,
    pub hints: crate::attr::Hints,
}

/// Everything `#[mcp_tool(...)]` declares about the tool itself.
#[derive(Clone, Default)]
pub struct ToolAttr {
    pub name: Option<(String, Span)>,
    pub title: Option<DescValue>,
    pub desc: Site,
    pub annotations: Option<AnnotationsAttr>,
    /// All groups are required; one scope of each group suffices.
    pub scopes: Vec<Vec<String>>,
}

impl ToolAttr {
    /// The tool's name: `name = …` as given, or the struct's name in snake_case.
    pub fn tool_name(&self, ident: &syn::Ident) -> String {
        self.name
            .as_ref()
            .map_or_else(|| snake_case(&ident.to_string()), |(name, _)| name.clone())
    }
}

/// A field's `#[mcp(...)]` with the field's serialized name and doc comment.
pub struct FieldAttr {
    pub rust_name: syn::Ident,
    pub serialized_name: String,
    pub desc: DescSpec,
    pub doc: Option<(String, Span)>,
}

/// `SearchNotes` → `search_notes`, `HTTPGet` → `http_get`.
fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_names() {
        assert_eq!(snake_case("SearchNotes"), "search_notes");
        assert_eq!(snake_case("HTTPGet"), "http_get");
        assert_eq!(snake_case("Tool2Go"), "tool2_go");
        assert_eq!(snake_case("already_snake"), "already_snake");
        assert_eq!(snake_case("A"), "a");
    }
}
