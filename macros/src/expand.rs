//! Validated model → tokens: the static tables of each description, the const assertions
//! for texts the macro cannot see, and the `McpTool` impl. Every path is absolute, so the
//! expansion compiles whatever the caller's scope shadows.

use crate::ast::{Annotations, Text, ToolAttr};
use crate::errors::Errors;
use crate::input::ToolInput;
use crate::tables::{self, ModelMatch, Shape, Table};
use crate::valid::{self, Checked};
use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// At most this many distinct texts per description (slot 255 means "none").
const MAX_TEXTS: usize = 255;

/// The tokens of one text. A text the macro cannot read (a const, `include_str!`,
/// `concat!`) is trimmed of surrounding ASCII whitespace at compile time: a file's final
/// newline is never part of a description.
fn text_tokens(text: &Text) -> TokenStream {
    match text {
        Text::Lit { lit, .. } => quote!(#lit),
        Text::Expr(expr) => quote!(::mcp_tailor::__private::trim(#expr)),
    }
}

/// A const assertion for each text the macro could not read (a const or a macro), so an
/// empty or blank one still fails to compile, spanned on the text.
fn text_assertions(texts: &[Text]) -> TokenStream {
    texts
        .iter()
        .filter_map(|text| match text {
            Text::Expr(expr) => Some(quote_spanned! {expr.span()=>
                const _: () = ::core::assert!(
                    !::mcp_tailor::__private::is_blank(#expr),
                    "empty text: a description text must not be empty or only whitespace",
                );
            }),
            Text::Lit { .. } => None,
        })
        .collect()
}

fn option_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(value: Option<bool>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// An expression of type `mcp_tailor::Description`, preceded by its const assertions.
/// `span` places an error about the description as a whole.
pub fn description(checked: Checked, span: Span, errors: &mut Errors) -> TokenStream {
    let assertions = text_assertions(&checked.texts);
    let value = match tables::build(checked.plan) {
        Shape::Absent => quote!(::mcp_tailor::Description::ABSENT),
        Shape::Bare(handle) => {
            let text = text_tokens(&checked.texts[handle]);
            quote!(::mcp_tailor::Description::bare(#text))
        }
        Shape::Tailored(table) => tailored(&table, &checked.texts, span, errors),
    };
    quote!({ #assertions #value })
}

fn tailored(table: &Table<usize>, texts: &[Text], span: Span, errors: &mut Errors) -> TokenStream {
    let pool = tables::pool(table);
    if pool.len() > MAX_TEXTS {
        errors.at_span(
            span,
            format!(
                "{} distinct texts in one description; at most {MAX_TEXTS} are supported",
                pool.len()
            ),
        );
        return quote!(::mcp_tailor::Description::ABSENT);
    }
    let slot = |handle: &Option<usize>| -> u8 {
        handle
            .and_then(|h| pool.iter().position(|p| *p == h))
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(u8::MAX)
    };
    let pool_texts = pool.iter().map(|h| text_tokens(&texts[*h]));
    let base = table.base.iter().map(slot);
    let rules = table.rules.iter().map(|rule| {
        let provider = option_str(rule.provider.as_deref());
        let model = match &rule.model {
            ModelMatch::Any => quote!(::mcp_tailor::__private::ModelMatch::Any),
            ModelMatch::Exact(m) => quote!(::mcp_tailor::__private::ModelMatch::Exact(#m)),
            ModelMatch::List(ms) => quote!(::mcp_tailor::__private::ModelMatch::List(&[#(#ms),*])),
        };
        let slots = rule.slots.iter().map(slot);
        quote! {
            ::mcp_tailor::__private::Rule { provider: #provider, model: #model, slots: [#(#slots),*] }
        }
    });
    let default_verbosity = match table.default_verbosity {
        Some(level) => quote!(::core::option::Option::Some(#level)),
        None => quote!(::core::option::Option::None),
    };
    let definitive = slot(&table.definitive);
    quote! {{
        static __MCP_TAILOR_TABLES: ::mcp_tailor::__private::Tailored = ::mcp_tailor::__private::Tailored {
            texts: &[#(#pool_texts),*],
            base: [#(#base),*],
            rules: &[#(#rules),*],
            default_verbosity: #default_verbosity,
            definitive: #definitive,
        };
        ::mcp_tailor::Description::__tailored(&__MCP_TAILOR_TABLES)
    }}
}

fn annotations(annotations: Option<&Annotations>) -> TokenStream {
    let Some(a) = annotations else {
        return quote!(::core::option::Option::None);
    };
    let title = match &a.title {
        Some(text) => {
            let t = text_tokens(text);
            quote!(::core::option::Option::Some(#t))
        }
        None => quote!(::core::option::Option::None),
    };
    let assertions = text_assertions(a.title.as_slice());
    let (ro, de, id, ow) = (
        option_bool(a.read_only_hint),
        option_bool(a.destructive_hint),
        option_bool(a.idempotent_hint),
        option_bool(a.open_world_hint),
    );
    quote! {
        ::core::option::Option::Some({
            #assertions
            ::mcp_tailor::__private::Annotations {
                title: #title,
                read_only_hint: #ro,
                destructive_hint: #de,
                idempotent_hint: #id,
                open_world_hint: #ow,
            }
        })
    }
}

/// The whole `#[mcp_tool]` expansion, or `None` when validation found errors.
pub fn tool(attr: ToolAttr, input: &ToolInput, errors: &mut Errors) -> Option<TokenStream> {
    let ident = &input.item.ident;
    let name = match &attr.name {
        Some((name, span)) => {
            valid::tool_name(name, *span, errors);
            name.clone()
        }
        None => crate::input::snake_case(&ident.to_string()),
    };
    let doc = input.doc.as_ref().map(|(d, s)| (d.as_str(), *s));
    let description = valid::desc(&attr.desc, doc, errors);
    let title = valid::desc(
        &crate::ast::DescSpec {
            description: attr.title.clone(),
            ..Default::default()
        },
        None,
        errors,
    );
    let fields: Vec<_> = input
        .fields
        .iter()
        .map(|field| {
            let doc = field.doc.as_ref().map(|(d, s)| (d.as_str(), *s));
            (field, valid::desc(&field.desc, doc, errors))
        })
        .collect();
    let mut seen_names: Vec<&str> = Vec::new();
    for (field, _) in &fields {
        if seen_names.contains(&field.serialized_name.as_str()) {
            errors.at(
                &field.rust_name,
                format!(
                    "two annotated fields serialize as `{}`",
                    field.serialized_name
                ),
            );
        }
        seen_names.push(&field.serialized_name);
    }
    let span = ident.span();
    let description = self::description(description, span, errors);
    let title = self::description(title, span, errors);
    let fields = fields.into_iter().map(|(field, checked)| {
        let name = &field.serialized_name;
        let desc = self::description(checked, field.rust_name.span(), errors);
        quote!((#name, #desc))
    });
    let fields: Vec<_> = fields.collect();
    let annotations = annotations(attr.annotations.as_ref());
    let scopes = attr.scopes.iter().map(|group| quote!(&[#(#group),*]));
    if !errors.is_empty() || !input.well_formed {
        return None;
    }
    let item = &input.item;
    Some(quote! {
        #item
        const _: () = {
            #[automatically_derived]
            impl ::mcp_tailor::McpTool for #ident {
                const NAME: &'static ::core::primitive::str = #name;
                fn def() -> &'static ::mcp_tailor::ToolDef {
                    static DEF: ::mcp_tailor::ToolDef = ::mcp_tailor::ToolDef::__new(
                        ::mcp_tailor::__private::ToolParts {
                            name: #name,
                            title: #title,
                            description: #description,
                            fields: &[#(#fields),*],
                            annotations: #annotations,
                            scopes: &[#(#scopes),*],
                            schema: ::mcp_tailor::__private::input_schema::<#ident>,
                        },
                    );
                    &DEF
                }
            }
        };
    })
}
