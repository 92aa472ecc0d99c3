//! The attribute layer, through darling: every key of the DSL is declared once, as a field
//! of a `FromMeta` struct below, and darling reports unknown keys (with "did you mean"),
//! keys given twice and misplaced lists. Values stay unparsed expressions: the description
//! grammar (`parse`) reads them, so one grammar serves all four call sites.

use crate::errors::CompileErrors;
use crate::exprs;
use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use syn::{Attribute, Expr, Meta};

/// The value of a `key = value` key, as written. A key written another way (`key(…)` or a
/// bare `key`) has no expression, so the grammar can say how to write it.
pub struct AttrValue {
    pub key: syn::Path,
    expr: Option<Expr>,
}

impl FromMeta for AttrValue {
    fn from_meta(meta: &Meta) -> darling::Result<Self> {
        let expr = match meta {
            Meta::NameValue(nv) => Some(nv.value.clone()),
            _ => None,
        };
        Ok(AttrValue {
            key: meta.path().clone(),
            expr,
        })
    }
}

/// Reads an optional key's value with `read`, or reports a key not written `key = …`.
pub fn value<T>(
    value: &Option<AttrValue>,
    errors: &mut CompileErrors,
    read: impl FnOnce(&Expr, &mut CompileErrors) -> T,
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
    pub description: Option<AttrValue>,
    pub descriptions: Option<AttrValue>,
    pub verbosity_map: Option<AttrValue>,
    pub runners: Option<AttrValue>,
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
    pub krate: Option<AttrValue>,
}

/// The keys of `#[mcp_tool(...)]`.
#[derive(Default, FromMeta)]
pub struct ToolArgs {
    pub name: Option<AttrValue>,
    pub title: Option<AttrValue>,
    pub annotations: Option<Nested<AnnotationArgs>>,
    pub scopes: Option<AttrValue>,
    #[darling(flatten)]
    pub site: SiteArgs,
}

/// The keys of `annotations(...)`: its title (a text, for the grammar) and the hints.
#[derive(Default, FromMeta)]
pub struct AnnotationArgs {
    pub title: Option<AttrValue>,
    #[darling(flatten)]
    pub hints: Hints,
}

/// The four MCP tool hints, each `key = true` or `key = false`.
#[derive(Clone, Copy, Default, FromMeta)]
pub struct Hints {
    pub read_only_hint: Option<Hint>,
    pub destructive_hint: Option<Hint>,
    pub idempotent_hint: Option<Hint>,
    pub open_world_hint: Option<Hint>,
}

/// A hint's value: a `bool` literal, nothing else.
#[derive(Clone, Copy)]
pub struct Hint(pub bool);

impl FromMeta for Hint {
    fn from_meta(meta: &Meta) -> darling::Result<Self> {
        let key = quote::ToTokens::to_token_stream(meta.path());
        match meta {
            Meta::NameValue(syn::MetaNameValue {
                value:
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Bool(b),
                        ..
                    }),
                ..
            }) => Ok(Hint(b.value)),
            Meta::NameValue(nv) => Err(darling::Error::custom(format!(
                "expected `true` or `false` for `{key}`"
            ))
            .with_span(&nv.value)),
            other => Err(darling::Error::custom(format!("expected `{key} = …`")).with_span(other)),
        }
    }
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

/// `T` read leniently: never fails. When darling rejects the list (an unknown key, a key
/// twice), `value` is read again from the items that stand on their own (each key's first
/// occurrence), so the grammar still checks them, and darling's error is kept in `error`.
pub struct Lenient<T> {
    pub value: T,
    pub error: Option<darling::Error>,
}

impl<T: FromMeta + Default> FromMeta for Lenient<T> {
    fn from_list(items: &[NestedMeta]) -> darling::Result<Self> {
        Ok(Lenient::read(items))
    }
}

impl<T: FromMeta + Default> Lenient<T> {
    /// Reads `items` into `T`; never fails.
    pub fn read(items: &[NestedMeta]) -> Self {
        match T::from_list(items) {
            Ok(value) => Lenient { value, error: None },
            Err(error) => Lenient {
                value: T::from_list(&standalone::<T>(items)).unwrap_or_default(),
                error: Some(error),
            },
        }
    }
}

impl<T> Lenient<T> {
    /// The value, with darling's error (if any) reported into `errors`.
    pub fn report(self, errors: &mut CompileErrors) -> T {
        if let Some(error) = self.error {
            errors.darling(error);
        }
        self.value
    }
}

/// Each key's first occurrence, when `T` accepts it on its own.
fn standalone<T: FromMeta>(items: &[NestedMeta]) -> Vec<NestedMeta> {
    let mut seen = Vec::new();
    items
        .iter()
        .filter(|item| {
            let NestedMeta::Meta(meta) = item else {
                return false;
            };
            let key = quote::ToTokens::to_token_stream(meta.path()).to_string();
            let first = !seen.contains(&key);
            seen.push(key);
            first && T::from_list(std::slice::from_ref(*item)).is_ok()
        })
        .cloned()
        .collect()
}

/// A nested list `key(a = …, …)`, read leniently so its own errors never hide the rest of
/// the attribute; or the path of a key written otherwise.
pub enum Nested<T> {
    List(Lenient<T>),
    Misformed(syn::Path),
}

impl<T: FromMeta + Default> FromMeta for Nested<T> {
    fn from_meta(meta: &Meta) -> darling::Result<Self> {
        Ok(match meta {
            Meta::List(list) => Nested::List(match exprs::meta_list(list.tokens.clone()) {
                Ok(items) => Lenient::read(&items),
                Err(error) => Lenient {
                    value: T::default(),
                    error: Some(error.into()),
                },
            }),
            other => Nested::Misformed(other.path().clone()),
        })
    }
}

/// The doc comment as one text: each line without its first space, joined with newlines,
/// trimmed (as `schemars` reads it). `None` when there is none.
pub fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').map(str::to_owned).unwrap_or(line))
        .collect();
    let doc = lines.join("\n").trim().to_owned();
    (!doc.is_empty()).then_some(doc)
}

/// Parses an attribute's tokens into `T`, reporting every error into `errors`.
pub fn read<T: FromMeta + Default>(tokens: TokenStream, errors: &mut CompileErrors) -> T {
    match exprs::meta_list(tokens) {
        Ok(items) => Lenient::<T>::read(&items).report(errors),
        Err(error) => {
            errors.push(error);
            T::default()
        }
    }
}
