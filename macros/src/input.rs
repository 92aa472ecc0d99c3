//! Reading the struct `#[mcp_tool]` or `#[mcp_args]` is attached to: its doc comment, its
//! fields' `#[mcp]` attributes (read by darling, consumed here so they never reach rustc),
//! and the serialized name of each annotated field, computed by `serde_derive_internals`
//! exactly as `schemars` computes it (`#[schemars(rename…)]` overriding `#[serde(rename…)]`).

use crate::ast::FieldAttr;
use crate::attr::{DescArgs, Lenient, doc_comment};
use crate::errors::CompileErrors;
use crate::exprs;
use crate::parse;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use serde_derive_internals::{Ctxt, Derive, ast as serde_ast};
use syn::ext::IdentExt;
use syn::{Attribute, Fields};

/// The struct, with its `#[mcp]` attributes removed, and what they said.
pub struct ToolInput {
    pub item: syn::ItemStruct,
    /// The struct as the expansion gives it back: the tokens as written, minus every field's
    /// `#[mcp]` (handing rustc back its own tokens costs it less than a re-printing).
    pub emitted: TokenStream,
    pub doc: Option<(String, Span)>,
    pub fields: Vec<FieldAttr>,
    /// Whether the struct has named fields and no generics, so a real impl can be emitted.
    pub well_formed: bool,
}

/// Reads the struct (`item`, parsed from `tokens`). Every `#[mcp]` is stripped, whether or
/// not it is valid. `what` names the attribute (`#[mcp_tool]`, `#[mcp_args]`) and `field`
/// what a field is, for messages.
pub fn tool_input(
    item: syn::ItemStruct,
    tokens: TokenStream,
    what: &str,
    field: &str,
    errors: &mut CompileErrors,
) -> ToolInput {
    let doc = doc_comment(&item.attrs).map(|d| (d, item.ident.span()));
    let well_formed = check_shape(&item, what, field, errors);
    let names = serialized_names(&item);
    let fields = item
        .fields
        .iter()
        .enumerate()
        .filter_map(|(index, field)| field_attr(field, names.get(index), what, errors))
        .collect();
    ToolInput {
        item,
        emitted: without_field_attrs(tokens, "mcp"),
        doc,
        fields,
        well_formed,
    }
}

/// Whether the struct has the shape the tables need: no generic parameters (its tables are
/// `static`), named fields. Each failure is reported.
fn check_shape(
    item: &syn::ItemStruct,
    what: &str,
    field: &str,
    errors: &mut CompileErrors,
) -> bool {
    let mut well_formed = true;
    if !item.generics.params.is_empty() {
        errors.at(
            &item.generics,
            format!("`{what}` takes a struct without generic parameters; its tables are `static`"),
        );
        well_formed = false;
    }
    if !matches!(item.fields, Fields::Named(_)) {
        errors.at_span(
            fields_span(item),
            format!("`{what}` takes a struct with named fields; each field is {field}"),
        );
        well_formed = false;
    }
    well_formed
}

/// A field's `#[mcp(...)]` attributes, read as one list (keys by darling; a form that is not
/// a list is reported here); `None` for a field without one, or one in error.
fn field_attr(
    field: &syn::Field,
    serialized_name: Option<&String>,
    what: &str,
    errors: &mut CompileErrors,
) -> Option<FieldAttr> {
    let mut attrs = field
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("mcp"))
        .peekable();
    let first = (*attrs.peek()?).clone();
    // Every list's items, read as one list: a key in two of them is a key given twice.
    let mut items = Vec::new();
    let mut readable = true;
    for attr in attrs {
        match &attr.meta {
            syn::Meta::List(list) => match exprs::meta_list(list.tokens.clone()) {
                Ok(list) => items.extend(list),
                Err(error) => {
                    errors.push(error);
                    readable = false;
                }
            },
            other => errors.at(other, "write `#[mcp(description = …)]`"),
        }
    }
    if !readable {
        return None;
    }
    let Some(ident) = field.ident.clone() else {
        errors.at(
            &first,
            format!("`#[mcp]` needs a named field; `{what}` takes a struct with named fields"),
        );
        return None;
    };
    let args = Lenient::<DescArgs>::read(&items);
    let desc = parse::desc_spec(&args.report(errors), errors);
    Some(FieldAttr {
        doc: doc_comment(&field.attrs).map(|d| (d, ident.span())),
        serialized_name: serialized_name
            .cloned()
            .unwrap_or_else(|| ident.unraw().to_string()),
        rust_name: ident,
        desc,
    })
}

fn fields_span(item: &syn::ItemStruct) -> Span {
    match &item.fields {
        Fields::Unnamed(f) => f.paren_token.span.join(),
        Fields::Unit => item.ident.span(),
        Fields::Named(f) => f.brace_token.span.join(),
    }
}

/// The deserialize-side name of each field as `schemars` writes it, by position: the
/// container's and the field's `rename`/`rename_all` from `#[serde]` and `#[schemars]` (the
/// latter winning), read by `serde_derive_internals`. Empty when nothing renames (each
/// field's own name is the answer) or serde could not read the attributes (serde's own
/// derive reports why).
fn serialized_names(item: &syn::ItemStruct) -> Vec<String> {
    let container = renames(&item.attrs);
    let fields: Vec<_> = item.fields.iter().map(|f| renames(&f.attrs)).collect();
    if container.is_empty() && fields.iter().all(Vec::is_empty) {
        // Nothing renames: serde's name is the field's own (what the caller falls back to).
        return Vec::new();
    }
    // Only what serde reads for names: the renames, the idents, the types.
    let mut bare = item.fields.clone();
    for (field, attrs) in bare.iter_mut().zip(fields) {
        field.attrs = attrs;
    }
    let input = syn::DeriveInput {
        attrs: container,
        vis: syn::Visibility::Inherited,
        ident: item.ident.clone(),
        generics: syn::Generics::default(),
        data: syn::Data::Struct(syn::DataStruct {
            struct_token: item.struct_token,
            fields: bare,
            semi_token: item.semi_token,
        }),
    };
    let cx = Ctxt::new();
    let private = syn::Ident::new("__private", Span::call_site());
    let names = match serde_ast::Container::from_ast(&cx, &input, Derive::Deserialize, &private) {
        Some(serde_ast::Container {
            data: serde_ast::Data::Struct(_, fields),
            ..
        }) => fields
            .iter()
            .map(|f| f.attrs.name().deserialize_name().to_string())
            .collect(),
        _ => Vec::new(),
    };
    match cx.check() {
        Ok(()) => names,
        Err(_) => Vec::new(),
    }
}

/// The `rename`/`rename_all` items of `#[serde]` and `#[schemars]`, as one `#[serde]`
/// attribute in which a `#[schemars]` item overrides the `#[serde]` item of the same key.
fn renames(attrs: &[Attribute]) -> Vec<Attribute> {
    const KEYS: [&str; 2] = ["rename", "rename_all"];
    let items = |path: &str| -> Vec<syn::Meta> {
        attrs
            .iter()
            .filter(|a| a.path().is_ident(path))
            .filter_map(|a| {
                a.parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .ok()
            })
            .flatten()
            .filter(|m| KEYS.iter().any(|k| m.path().is_ident(k)))
            .collect()
    };
    let schemars = items("schemars");
    let mut kept: Vec<syn::Meta> = items("serde")
        .into_iter()
        .filter(|m| !schemars.iter().any(|s| s.path() == m.path()))
        .collect();
    kept.extend(schemars);
    if kept.is_empty() {
        return Vec::new();
    }
    vec![syn::parse_quote!(#[serde(#(#kept),*)])]
}

/// The struct's tokens without the field attributes named `name`: every `#[name …]` at the
/// top level of the struct's body (braces or parentheses) goes, everything else is kept
/// as it came.
fn without_field_attrs(tokens: TokenStream, name: &str) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(body)
                if matches!(body.delimiter(), Delimiter::Brace | Delimiter::Parenthesis) =>
            {
                let mut stripped = Group::new(body.delimiter(), strip_attrs(body.stream(), name));
                stripped.set_span(body.span());
                TokenTree::Group(stripped)
            }
            other => other,
        })
        .collect()
}

/// `tokens` without the attributes (`#` and a bracket group) whose path starts with `name`.
fn strip_attrs(tokens: TokenStream, name: &str) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if attr_at(&trees, i).is_some_and(
            |attr| matches!(attr.stream().into_iter().next(), Some(TokenTree::Ident(path)) if path == name),
        ) {
            i += 2;
            continue;
        }
        out.push(trees[i].clone());
        i += 1;
    }
    out.into_iter().collect()
}

/// The bracket group of the attribute (`#` and `[…]`) starting at `trees[i]`, if one does.
fn attr_at(trees: &[TokenTree], i: usize) -> Option<&Group> {
    match (trees.get(i), trees.get(i + 1)) {
        (Some(TokenTree::Punct(pound)), Some(TokenTree::Group(attr)))
            if pound.as_char() == '#' && attr.delimiter() == Delimiter::Bracket =>
        {
            Some(attr)
        }
        _ => None,
    }
}

/// `tokens` (an item) with `attr` added after its outer attributes, before its visibility.
pub fn after_outer_attrs(tokens: &TokenStream, attr: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let mut at = 0;
    while attr_at(&trees, at).is_some() {
        at += 2;
    }
    let (outer, rest) = trees.split_at(at);
    outer
        .iter()
        .cloned()
        .chain(attr)
        .chain(rest.iter().cloned())
        .collect()
}
