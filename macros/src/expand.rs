//! Validated model → tokens: the static tables of a `description!`, the packed table of a
//! tool or `#[mcp_args]` type (laid out by `packed`), the const assertions for texts the
//! macro cannot see, the warnings about dead variants, and the impls. Every path is
//! absolute (`::core`, and `mcp_tailor` as `krate`, `crate = path` when given), so the
//! expansion compiles whatever the caller's scope shadows.

use crate::ast::Text;
use crate::input::{self, ToolInput};
use crate::packed::Packer;
use crate::valid::{Checked, ValidField, ValidTool};
use mcp_tailor_model::dead::Warning;
use mcp_tailor_model::tables::{self, ModelMatch, Shape, Table};
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
        // Never pooled: a slot that says nothing is `SILENT`, not a text.
        Text::Nothing(none) => {
            syn::Error::new(none.span(), "`None` is not a text here").to_compile_error()
        }
    }
}

/// A const assertion for each text the macro could not read (a const or a macro), so an
/// empty or blank one still fails to compile, spanned on the text.
fn text_assertions<'a>(texts: impl IntoIterator<Item = &'a Text>, k: &TokenStream) -> TokenStream {
    texts
        .into_iter()
        .filter_map(|text| match text {
            Text::Expr(expr) => Some(quote_spanned! {expr.span()=>
                const _: () = ::core::assert!(
                    !#k::__private::is_blank(#expr),
                    "empty text: a description text must not be empty or only whitespace",
                );
            }),
            Text::Lit { .. } | Text::Nothing(_) => None,
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
    let checks = checks(&checked, k);
    let value = match tables::build(checked.plan) {
        Shape::Absent => quote!(#k::Description::ABSENT),
        Shape::Bare(handle) => {
            let text = text_tokens(&checked.texts[handle], k);
            quote!(#k::Description::bare(#text))
        }
        Shape::Tailored(table) => tailored(&table, &checked.texts, k),
    };
    quote!({ #checks #value })
}

/// Each warning as the use of the runtime's deprecated constant for its kind, spanned on
/// the dead entry: rustc's own warning, on stable, with the fix as its note.
fn warnings(warnings: &[Warning<TokenStream>], k: &TokenStream) -> TokenStream {
    warnings
        .iter()
        .map(|w| {
            let span = syn::spanned::Spanned::span(&w.loc);
            let kind = syn::Ident::new(w.kind, span);
            quote_spanned! {span=> const _: () = #k::dead_variant::#kind; }
        })
        .collect()
}

fn tailored(table: &Table<usize>, texts: &[Text], k: &TokenStream) -> TokenStream {
    let cow = quote!(#k::__private::Cow::Borrowed);
    let pool = tables::pool(table);
    let pool_texts = pool.iter().map(|h| text_tokens(&texts[*h], k));
    // Ten slots as one byte-string literal: one constant for rustc, not ten operands.
    let slots = |slots: &[Option<usize>]| {
        let bytes = tables::slot_bytes(table, &pool, slots);
        syn::LitByteStr::new(&bytes, proc_macro2::Span::call_site())
    };
    let base = slots(&table.base);
    let rules = table.rules.iter().map(|rule| {
        let runner = option(rule.runner.as_deref().map(|r| quote!(#cow(#r))));
        let model = match &rule.model {
            ModelMatch::Any => quote!(#k::__private::CompiledModelMatch::Any),
            ModelMatch::Exact(m) => quote!(#k::__private::CompiledModelMatch::Exact(#cow(#m))),
            ModelMatch::List(ms) => {
                quote!(#k::__private::CompiledModelMatch::List(#cow(&[#(#cow(#ms)),*])))
            }
        };
        let slots = slots(&rule.slots);
        quote! {
            #k::__private::CompiledRule { runner: #runner, model: #model, slots: *#slots }
        }
    });
    let default_verbosity = option(table.default_verbosity);
    let definitive = tables::slot_bytes(table, &pool, &[table.definitive])[0];
    // The tables live in a `static`: they hold `Cow`s (a run-time table owns its texts),
    // which promotion to `'static` does not cover.
    quote! {{
        static __MCP_TAILOR_TABLES: #k::__private::Tailored = #k::__private::Tailored {
            texts: #cow(&[#(#cow(#pool_texts)),*]),
            base: *#base,
            rules: #cow(&[#(#rules),*]),
            default_verbosity: #default_verbosity,
            definitive: #definitive,
        };
        #k::__private::tailored(&__MCP_TAILOR_TABLES)
    }}
}

/// The struct, then `imp` (an impl for it, with the lints an expansion must not trip), then
/// `checks` in an anonymous const of their own when there are any: no item rustc does not
/// need, since each body costs it a type check and a borrow check.
fn with_impl(item: &TokenStream, imp: TokenStream, checks: TokenStream) -> TokenStream {
    let checks = (!checks.is_empty()).then(|| quote!(const _: () = { #checks };));
    quote! {
        #item
        #[automatically_derived]
        #[allow(unused_qualifications, clippy::absolute_paths)]
        #imp
        #checks
    }
}

/// The const assertions and the warnings of one description.
fn checks(checked: &Checked, k: &TokenStream) -> TokenStream {
    let assertions = text_assertions(&checked.texts, k);
    let warnings = warnings(&checked.warnings, k);
    quote!(#assertions #warnings)
}

/// The packed table's fields: `texts` (one string literal, then each text the macro could
/// not read) and `layout` (one byte-string literal).
fn table(packer: Packer<'_>, k: &TokenStream) -> TokenStream {
    let packed = packer.finish();
    let span = proc_macro2::Span::call_site();
    let literal = syn::LitStr::new(&packed.literal, span);
    let others = packed.others.iter().map(|text| text_tokens(text, k));
    let layout = syn::LitByteStr::new(&packed.layout, span);
    quote!(texts: &[#literal #(, #others)*], layout: #layout)
}

/// The whole `#[mcp_tool]` expansion: the struct, its `McpTool` impl with the packed
/// table, and the checks of what the macro could not read.
pub fn tool(tool: ValidTool, input: &ToolInput, k: &TokenStream) -> TokenStream {
    let ident = &tool.ident;
    let name = &tool.name;
    let mut packer = Packer::new();
    let mut checks: TokenStream = [&tool.title, &tool.description]
        .into_iter()
        .chain(tool.fields.iter().map(|f| &f.checked))
        .map(|checked| self::checks(checked, k))
        .collect();
    checks.extend(text_assertions(
        tool.annotations.iter().flat_map(|a| &a.title),
        k,
    ));
    packer.description(&tool.title.texts, tool.title.plan);
    packer.description(&tool.description.texts, tool.description.plan);
    packer.fields(&tool.fields);
    packer.annotations(tool.annotations.as_ref());
    packer.scopes(&tool.scopes);
    let table = table(packer, k);
    let imp = quote! {
        impl #k::McpTool for #ident {
            const TABLE: #k::__private::ToolTable = #k::__private::ToolTable {
                name: #name,
                #table,
            };
        }
    };
    with_impl(&input.emitted, imp, checks)
}

/// The whole `#[mcp_args]` expansion: the struct, marked so that its schema says where
/// schemars put it, and its `McpArgs` impl with the packed table.
pub fn args(fields: Vec<ValidField>, input: &ToolInput, k: &TokenStream) -> TokenStream {
    let ident = &input.item.ident;
    let checks: TokenStream = fields.iter().map(|f| checks(&f.checked, k)).collect();
    let mut packer = Packer::new();
    packer.fields(&fields);
    let table = table(packer, k);
    // After the derives, so that `schemars`' derive helper is introduced before its use.
    let mark = quote!(#[schemars(transform = #k::__private::mark_args::<#ident>)]);
    let item = input::after_outer_attrs(&input.emitted, mark);
    let imp = quote! {
        impl #k::McpArgs for #ident {
            const TABLE: #k::__private::Packed = #k::__private::Packed { #table };
        }
    };
    with_impl(&item, imp, checks)
}
