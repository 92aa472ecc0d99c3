//! Validated model → tokens: the static tables of each description, the const assertions
//! for texts the macro cannot see, the warnings about dead variants, and the `McpTool`
//! impl. Every path is absolute (`::core`, and `mcp_tailor` as `krate`, `crate = path` when
//! given), so the expansion compiles whatever the caller's scope shadows.

use crate::ast::{Annotations, Text};
use crate::attr::Hint;
use crate::dead::Warning;
use crate::tables::{self, ModelMatch, Shape, Table};
use crate::valid::{Checked, ValidField, ValidTool};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

/// The tokens of one text. A text the macro cannot read (a const, `include_str!`,
/// `concat!`) is trimmed of surrounding ASCII whitespace at compile time: a file's final
/// newline is never part of a description.
fn text_tokens(text: &Text, k: &TokenStream) -> TokenStream {
    match text {
        Text::Lit { lit, .. } => quote!(#lit),
        Text::Expr(expr) => quote!(#k::__private::trim(#expr)),
    }
}

/// A const assertion for each text the macro could not read (a const or a macro), so an
/// empty or blank one still fails to compile, spanned on the text.
fn text_assertions(texts: &[Text], k: &TokenStream) -> TokenStream {
    texts
        .iter()
        .filter_map(|text| match text {
            Text::Expr(expr) => Some(quote_spanned! {expr.span()=>
                const _: () = ::core::assert!(
                    !#k::__private::is_blank(#expr),
                    "empty text: a description text must not be empty or only whitespace",
                );
            }),
            Text::Lit { .. } => None,
        })
        .collect()
}

/// `Some(value)` or `None`, as an expression.
fn option(value: Option<impl ToTokens>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// An expression of type `mcp_tailor::Description`, preceded by its const assertions and
/// its warnings.
pub fn description(checked: Checked, k: &TokenStream) -> TokenStream {
    let assertions = text_assertions(&checked.texts, k);
    let warnings = warnings(&checked.warnings, k);
    let value = match tables::build(checked.plan) {
        Shape::Absent => quote!(#k::Description::ABSENT),
        Shape::Bare(handle) => {
            let text = text_tokens(&checked.texts[handle], k);
            quote!(#k::Description::bare(#text))
        }
        Shape::Tailored(table) => tailored(&table, &checked.texts, k),
    };
    quote!({ #assertions #warnings #value })
}

/// Each warning as the use of the runtime's deprecated constant for its kind, spanned on
/// the dead entry: rustc's own warning, on stable, with the fix as its note.
fn warnings(warnings: &[Warning], k: &TokenStream) -> TokenStream {
    warnings
        .iter()
        .map(|w| {
            let kind = syn::Ident::new(w.kind, w.span);
            quote_spanned! {w.span=> const _: () = #k::dead_variant::#kind; }
        })
        .collect()
}

fn tailored(table: &Table<usize>, texts: &[Text], k: &TokenStream) -> TokenStream {
    let pool = tables::pool(table);
    let slot = |handle: &Option<usize>| -> u8 {
        handle
            .and_then(|h| pool.iter().position(|p| *p == h))
            .and_then(|i| u8::try_from(i).ok())
            .unwrap_or(u8::MAX)
    };
    let pool_texts = pool.iter().map(|h| text_tokens(&texts[*h], k));
    // Ten slots as one byte-string literal: one constant for rustc, not ten operands.
    let slots = |slots: &[Option<usize>]| {
        let bytes: Vec<u8> = slots.iter().map(slot).collect();
        syn::LitByteStr::new(&bytes, proc_macro2::Span::call_site())
    };
    let base = slots(&table.base);
    let rules = table.rules.iter().map(|rule| {
        let runner = option(rule.runner.as_deref());
        let model = match &rule.model {
            ModelMatch::Any => quote!(#k::__private::ModelMatch::Any),
            ModelMatch::Exact(m) => quote!(#k::__private::ModelMatch::Exact(#m)),
            ModelMatch::List(ms) => quote!(#k::__private::ModelMatch::List(&[#(#ms),*])),
        };
        let slots = slots(&rule.slots);
        quote! {
            #k::__private::Rule { runner: #runner, model: #model, slots: #slots }
        }
    });
    let default_verbosity = option(table.default_verbosity);
    let definitive = slot(&table.definitive);
    let tables = quote! {
        #k::__private::Tailored {
            texts: &[#(#pool_texts),*],
            base: #base,
            rules: &[#(#rules),*],
            default_verbosity: #default_verbosity,
            definitive: #definitive,
        }
    };
    // Literal tables are promoted to `'static` where they stand, one item fewer for rustc
    // to check; a text from a const or a macro goes through a `const fn`, which promotion
    // does not cover, so those tables live in a `static`.
    if pool.iter().all(|h| matches!(texts[*h], Text::Lit { .. })) {
        quote!(#k::__private::tailored(&#tables))
    } else {
        quote! {{
            static __MCP_TAILOR_TABLES: #k::__private::Tailored = #tables;
            #k::__private::tailored(&__MCP_TAILOR_TABLES)
        }}
    }
}

fn annotations(annotations: Option<&Annotations>, k: &TokenStream) -> TokenStream {
    let Some(a) = annotations else {
        return quote!(::core::option::Option::None);
    };
    let title = option(a.title.as_ref().map(|text| text_tokens(text, k)));
    let assertions = text_assertions(a.title.as_slice(), k);
    let hint = |hint: Option<Hint>| option(hint.map(|Hint(v)| v));
    let h = &a.hints;
    let (ro, de, id, ow) = (
        hint(h.read_only_hint),
        hint(h.destructive_hint),
        hint(h.idempotent_hint),
        hint(h.open_world_hint),
    );
    quote! {
        ::core::option::Option::Some({
            #assertions
            #k::__private::Annotations {
                title: #title,
                read_only_hint: #ro,
                destructive_hint: #de,
                idempotent_hint: #id,
                open_world_hint: #ow,
            }
        })
    }
}

/// The fields' table: `(serialized name, description)` pairs.
fn fields(fields: Vec<ValidField>, k: &TokenStream) -> TokenStream {
    let fields = fields.into_iter().map(|field| {
        let name = field.name;
        let desc = description(field.checked, k);
        quote!((#name, #desc))
    });
    quote!(&[#(#fields),*])
}

/// The struct, then `imp` (an impl for it) in a lint-allow block of its own.
fn with_impl(item: &syn::ItemStruct, imp: TokenStream) -> TokenStream {
    quote! {
        #item
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::absolute_paths)]
        const _: () = {
            #[automatically_derived]
            #imp
        };
    }
}

/// The whole `#[mcp_tool]` expansion.
pub fn tool(tool: ValidTool, item: &syn::ItemStruct, k: &TokenStream) -> TokenStream {
    let ident = &tool.ident;
    let name = &tool.name;
    let title = description(tool.title, k);
    let description = description(tool.description, k);
    let fields = fields(tool.fields, k);
    let annotations = annotations(tool.annotations.as_ref(), k);
    let scopes = tool.scopes.iter().map(|group| quote!(&[#(#group),*]));
    let imp = quote! {
        impl #k::McpTool for #ident {
            const NAME: &'static ::core::primitive::str = #name;
            fn def() -> &'static #k::ToolDef {
                static DEF: #k::ToolDef = #k::__private::tool_def(
                    #k::__private::ToolParts {
                        name: #name,
                        title: #title,
                        description: #description,
                        fields: #fields,
                        annotations: #annotations,
                        scopes: &[#(#scopes),*],
                        schema: #k::__private::input_schema::<#ident>,
                    },
                );
                &DEF
            }
        }
    };
    with_impl(item, imp)
}

/// The whole `#[mcp_args]` expansion: the struct, marked so that its schema says where
/// schemars put it, and its `McpArgs` impl.
pub fn args(fields: Vec<ValidField>, item: &syn::ItemStruct, k: &TokenStream) -> TokenStream {
    let ident = &item.ident;
    let fields = self::fields(fields, k);
    // After the derives, so that `schemars`' derive helper is introduced before its use.
    let mut item = item.clone();
    item.attrs
        .push(syn::parse_quote!(#[schemars(transform = #k::__private::mark_args::<#ident>)]));
    let imp = quote! {
        impl #k::McpArgs for #ident {
            fn fields() -> #k::Fields {
                static FIELDS: #k::Fields = #fields;
                FIELDS
            }
        }
    };
    with_impl(&item, imp)
}
