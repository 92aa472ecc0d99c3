//! The attribute layer, through darling: every key of the DSL is declared once, as a field
//! of a `FromMeta` struct below, and darling reports unknown keys (with "did you mean"),
//! keys given twice and misplaced lists. Values stay unparsed expressions: the description
//! grammar (`parse`) reads them, so one grammar serves all four call sites.

use crate::errors::Errors;
use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use syn::{Expr, Meta};

/// The value of a `key = value` key, as written. A key written another way (`key(…)` or a
/// bare `key`) has no expression, so the grammar can say how to write it.
pub struct Value {
    pub key: syn::Path,
    expr: Option<Expr>,
}

impl FromMeta for Value {
    fn from_meta(meta: &Meta) -> darling::Result<Self> {
        let expr = match meta {
            Meta::NameValue(nv) => Some(nv.value.clone()),
            _ => None,
        };
        Ok(Value {
            key: meta.path().clone(),
            expr,
        })
    }
}

/// Reads an optional key's value with `read`, or reports a key not written `key = …`.
pub fn value<T>(
    value: &Option<Value>,
    errors: &mut Errors,
    read: impl FnOnce(&Expr, &mut Errors) -> T,
) -> Option<T> {
    let value = value.as_ref()?;
    match &value.expr {
        Some(expr) => Some(read(expr, errors)),
        None => {
            let key = quote::ToTokens::to_token_stream(&value.key);
            errors.at(&value.key, format!("expected `{key} = …`"));
            None
        }
    }
}

/// The keys of a field's `#[mcp(...)]`, and of every other description site (flattened).
#[derive(Default, FromMeta)]
pub struct DescArgs {
    pub description: Option<Value>,
    pub descriptions: Option<Value>,
    pub verbosity_map: Option<Value>,
    pub runners: Option<Value>,
    /// `allow(dead_variants)`: no warning for variants that can never be served.
    pub allow: Option<Allow>,
}

/// The keys of `description!(...)` and (flattened) `#[mcp_tool(...)]`; `#[mcp_args(...)]`
/// takes its `crate` and `allow`.
#[derive(Default, FromMeta)]
pub struct SiteArgs {
    #[darling(flatten)]
    pub desc: DescArgs,
    /// `crate = path`: where `mcp_tailor` is, for crates that re-export it.
    #[darling(rename = "crate")]
    pub krate: Option<Value>,
}

/// The keys of `#[mcp_tool(...)]`.
#[derive(Default, FromMeta)]
pub struct ToolArgs {
    pub name: Option<Value>,
    pub title: Option<Value>,
    pub annotations: Option<Nested<AnnotationArgs>>,
    pub scopes: Option<Value>,
    #[darling(flatten)]
    pub site: SiteArgs,
}

/// The keys of `annotations(...)`.
#[derive(Default, FromMeta)]
pub struct AnnotationArgs {
    pub title: Option<Value>,
    pub read_only_hint: Option<Value>,
    pub destructive_hint: Option<Value>,
    pub idempotent_hint: Option<Value>,
    pub open_world_hint: Option<Value>,
}

/// `allow(…)`: the warnings an item silences.
#[derive(Default, FromMeta)]
pub struct Allow {
    pub dead_variants: darling::util::Flag,
}

impl Allow {
    /// Whether an optional `allow(…)` names `dead_variants`.
    pub fn dead_variants(allow: &Option<Allow>) -> bool {
        allow.as_ref().is_some_and(|a| a.dead_variants.is_present())
    }
}

/// A nested list `key(a = …, …)`, read leniently so its own errors never hide the rest of
/// the attribute; or the path of a key written otherwise.
pub enum Nested<T> {
    List(T, Option<darling::Error>),
    Misformed(syn::Path),
}

impl<T: FromMeta + Default> FromMeta for Nested<T> {
    fn from_meta(meta: &Meta) -> darling::Result<Self> {
        Ok(match meta {
            Meta::List(list) => match NestedMeta::parse_meta_list(list.tokens.clone()) {
                Ok(items) => {
                    let (value, error) = lenient(&items);
                    Nested::List(value, error)
                }
                Err(error) => Nested::List(T::default(), Some(error.into())),
            },
            other => Nested::Misformed(other.path().clone()),
        })
    }
}

/// Reads the items of a list into `T`, every mistake reported, never failing: when darling
/// rejects the list (an unknown key, a key twice), the value is read again from the items
/// that stand on their own (each key's first occurrence), so the grammar still checks them.
fn lenient<T: FromMeta + Default>(items: &[NestedMeta]) -> (T, Option<darling::Error>) {
    match T::from_list(items) {
        Ok(value) => (value, None),
        Err(error) => {
            let mut seen = Vec::new();
            let kept: Vec<NestedMeta> = items
                .iter()
                .filter(|item| {
                    let key = match item {
                        NestedMeta::Meta(meta) => quote::ToTokens::to_token_stream(meta.path()),
                        _ => return false,
                    }
                    .to_string();
                    let first = !seen.contains(&key);
                    seen.push(key);
                    first && T::from_list(std::slice::from_ref(*item)).is_ok()
                })
                .cloned()
                .collect();
            (T::from_list(&kept).unwrap_or_default(), Some(error))
        }
    }
}

/// Parses an attribute's tokens into `T`, reporting every error into `errors`.
pub fn read<T: FromMeta + Default>(tokens: TokenStream, errors: &mut Errors) -> T {
    match NestedMeta::parse_meta_list(unwrap_invisible(tokens)) {
        Ok(items) => {
            let (value, error) = lenient(&items);
            if let Some(error) = error {
                errors.darling(error);
            }
            value
        }
        Err(error) => {
            errors.push(error);
            T::default()
        }
    }
}

/// `tokens` with every invisible group (what `macro_rules!` wraps a `$x:literal` or an
/// `$x:expr` in) replaced by its contents, so a DSL written through a declarative macro
/// reads exactly like one written by hand.
fn unwrap_invisible(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let mut out = TokenStream::new();
    for tree in tokens {
        match tree {
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                out.extend(unwrap_invisible(group.stream()));
            }
            TokenTree::Group(group) => {
                let mut unwrapped = Group::new(group.delimiter(), unwrap_invisible(group.stream()));
                unwrapped.set_span(group.span());
                out.extend([TokenTree::Group(unwrapped)]);
            }
            other => out.extend([other]),
        }
    }
    out
}
