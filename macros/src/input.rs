//! Reading the struct `#[mcp_tool]` or `#[mcp_args]` is attached to: its doc comment, its
//! fields' `#[mcp]` attributes (read by darling, consumed here so they never reach rustc),
//! and the serialized name of each annotated field, computed by `serde_derive_internals`
//! exactly as `schemars` computes it (`#[schemars(rename…)]` overriding `#[serde(rename…)]`).

use crate::ast::FieldAttr;
use crate::attr::{DescArgs, Lenient, doc_comment};
use crate::errors::Errors;
use crate::exprs;
use crate::parse;
use proc_macro2::Span;
use serde_derive_internals::{Ctxt, Derive, ast as serde_ast};
use syn::ext::IdentExt;
use syn::{Attribute, Fields};

/// The struct, with its `#[mcp]` attributes removed, and what they said.
pub struct ToolInput {
    pub item: syn::ItemStruct,
    pub doc: Option<(String, Span)>,
    pub fields: Vec<FieldAttr>,
    /// Whether the struct has named fields and no generics, so a real impl can be emitted.
    pub well_formed: bool,
}

/// Parses the struct. Every `#[mcp]` is stripped, whether or not it is valid. `what` names
/// the attribute (`#[mcp_tool]`, `#[mcp_args]`) and `field` what a field is, for messages.
pub fn tool_input(
    mut item: syn::ItemStruct,
    what: &str,
    field: &str,
    errors: &mut Errors,
) -> ToolInput {
    let doc = doc_comment(&item.attrs).map(|d| (d, item.ident.span()));
    let well_formed = check_shape(&item, what, field, errors);
    let names = serialized_names(&item);
    let fields = item
        .fields
        .iter_mut()
        .enumerate()
        .filter_map(|(index, field)| field_attr(field, names.get(index), what, errors))
        .collect();
    ToolInput {
        item,
        doc,
        fields,
        well_formed,
    }
}

/// Whether the struct has the shape the tables need: no generic parameters (its tables are
/// `static`), named fields. Each failure is reported.
fn check_shape(item: &syn::ItemStruct, what: &str, field: &str, errors: &mut Errors) -> bool {
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

/// A field's `#[mcp(...)]`, read (keys by darling) and stripped from the field (a form that is not
/// a list is reported here); `None` for a field without one, or one in error.
fn field_attr(
    field: &mut syn::Field,
    serialized_name: Option<&String>,
    what: &str,
    errors: &mut Errors,
) -> Option<FieldAttr> {
    let first = field
        .attrs
        .iter()
        .find(|a| a.path().is_ident("mcp"))
        .cloned()?;
    // Lists are read below; a form that is not a list is reported here.
    field.attrs.retain(|attr| {
        if !attr.path().is_ident("mcp") {
            return true;
        }
        match &attr.meta {
            syn::Meta::List(_) => true,
            other => {
                errors.at(other, "write `#[mcp(description = …)]`");
                false
            }
        }
    });
    // Every list's items, read as one list: a key in two of them is a key given twice.
    let mut items = Vec::new();
    let mut readable = true;
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("mcp")) {
        if let syn::Meta::List(list) = &attr.meta {
            match exprs::meta_list(list.tokens.clone()) {
                Ok(list) => items.extend(list),
                Err(error) => {
                    errors.push(error);
                    readable = false;
                }
            }
        }
    }
    field.attrs.retain(|a| !a.path().is_ident("mcp"));
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
