//! The parsed model of the DSL. Every piece keeps the span of the tokens it came from, so
//! validation can point at the offending token.

use proc_macro2::{Span, TokenStream};

/// A verbosity level as written (not yet checked against 0..=9).
#[derive(Clone, Debug)]
pub struct Level {
    pub value: i128,
    /// The tokens as written, so an error spans all of them (`-1`, not just `-`).
    pub tokens: TokenStream,
}

/// A level spec `S`: `N`, `LO..=HI` or `[A, B, …]`.
#[derive(Clone, Debug)]
pub enum LevelSpec {
    One(Level),
    Range {
        lo: Level,
        hi: Level,
        tokens: TokenStream,
    },
    Set {
        members: Vec<Level>,
        tokens: TokenStream,
    },
}

impl LevelSpec {
    /// The spec's tokens as written.
    pub fn tokens(&self) -> &TokenStream {
        match self {
            LevelSpec::One(level) => &level.tokens,
            LevelSpec::Range { tokens, .. } | LevelSpec::Set { tokens, .. } => tokens,
        }
    }
}

/// A text `T`: a string literal (checked now) or an expression of type `&'static str`
/// (`concat!`, `include_str!`, a const path — checked by an emitted const assertion).
#[derive(Clone)]
pub enum Text {
    Lit { value: String, lit: syn::LitStr },
    Expr(syn::Expr),
}

impl Text {
    /// Where the text was written.
    pub fn span(&self) -> Span {
        match self {
            Text::Lit { lit, .. } => lit.span(),
            Text::Expr(expr) => syn::spanned::Spanned::span(expr),
        }
    }
}

/// A variant tag: `foo_bar` or `"hippo-5"`, normalised to its string.
#[derive(Clone, Debug)]
pub struct Tag {
    pub name: String,
    pub span: Span,
}

/// `[ (verbosity(S), T), …, default = T, default_verbosity = N ]`.
#[derive(Clone, Default)]
pub struct DescList {
    pub entries: Vec<(LevelSpec, Text)>,
    pub default: Option<Text>,
    pub default_verbosity: Option<Level>,
}

/// The value of `description =` or `title =`.
#[derive(Clone)]
pub enum DescValue {
    Bare(Text),
    List(DescList),
}

/// A runner matcher: `_` or an exact name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunnerMatch {
    Any,
    Exact(String),
}

/// A model matcher: `_`, an exact name, or a membership list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    Any,
    Exact(String),
    List(Vec<String>),
}

/// `((runner, model), [ (verbosity(S), tag), …, default = tag ])`.
#[derive(Clone)]
pub struct Runner {
    pub runner: RunnerMatch,
    pub model: Model,
    pub rules: Vec<(LevelSpec, Tag)>,
    pub default: Option<Tag>,
    /// The `(runner, model)` tokens, where a warning about the rule points.
    pub matchers: TokenStream,
}

/// One description site: a tool's description, a field's `#[mcp]`, or `description!`.
#[derive(Clone, Default)]
pub struct DescSpec {
    pub description: Option<DescValue>,
    pub descriptions: Vec<(Tag, Text)>,
    pub verbosity_map: Vec<(LevelSpec, Tag)>,
    pub runners: Vec<Runner>,
    /// `allow(dead_variants)`: no warning for variants that can never be served.
    pub allow_dead: bool,
    /// `crate = path`: the path of `mcp_tailor` in the expansion.
    pub krate: Option<syn::Path>,
}

/// `annotations(title = …, read_only_hint = …, …)`.
#[derive(Clone, Default)]
pub struct Annotations {
    pub title: Option<Text>,
    pub hints: crate::attr::Hints,
}

/// Everything `#[mcp_tool(...)]` declares about the tool itself.
#[derive(Clone, Default)]
pub struct ToolAttr {
    pub name: Option<(String, Span)>,
    pub title: Option<DescValue>,
    pub desc: DescSpec,
    pub annotations: Option<Annotations>,
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
