//! Procedural macros of [mcp-tailor](https://docs.rs/mcp-tailor): `#[mcp_tool]` and
//! `description!`. Depend on `mcp-tailor`, which re-exports them; its documentation
//! describes the DSL.
//!
//! Data flows one way: tokens → keys (`attr`, darling) → model (`parse` with the expression
//! `grammar`, `input` for the struct) → validated model (`valid`, warnings from `dead`) →
//! tables (`tables`, pure) → tokens (`expand`), or `fallback` when anything was wrong.

mod ast;
mod attr;
mod errors;
mod expand;
mod exprs;
mod fallback;
mod grammar;
mod input;
mod packed;
mod parse;
#[cfg(test)]
mod tests;
mod valid;

use proc_macro::TokenStream;

/// Declares an MCP tool with tailored descriptions on a struct with named fields.
/// See the `mcp-tailor` crate for the DSL.
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    entry::tool(attr.into(), item.into()).into()
}

/// Tailored field descriptions on a struct used as an argument type inside tools.
/// See the `mcp-tailor` crate for the DSL.
#[proc_macro_attribute]
pub fn mcp_args(attr: TokenStream, item: TokenStream) -> TokenStream {
    entry::args(attr.into(), item.into()).into()
}

/// A tailored [`Description`](https://docs.rs/mcp-tailor) without a struct, usable in a
/// `static`. See the `mcp-tailor` crate for the DSL.
#[proc_macro]
pub fn description(input: TokenStream) -> TokenStream {
    entry::description(input.into()).into()
}

mod entry {
    use crate::attr::{self, SiteArgs, ToolArgs};
    use crate::errors::CompileErrors;
    use crate::input;
    use crate::{expand, fallback, parse, valid};
    use proc_macro2::{Span, TokenStream};
    use quote::{ToTokens, quote};

    /// The struct an attribute is on, or the error saying it must be one.
    fn item_struct(item: TokenStream, what: &str) -> Result<syn::ItemStruct, TokenStream> {
        syn::parse2::<syn::ItemStruct>(item.clone()).map_err(|_| {
            let mut errors = CompileErrors::default();
            let message = format!("`{what}` goes on a struct with named fields");
            match syn::parse2::<syn::DeriveInput>(item.clone()) {
                Ok(other) => errors.at(&other.ident, message),
                Err(_) => errors.at_span(Span::call_site(), message),
            }
            let errors = errors.to_compile_errors();
            quote!(#item #errors)
        })
    }

    /// `crate = path`, or `::mcp_tailor`.
    fn krate(path: Option<&syn::Path>) -> TokenStream {
        path.map_or_else(|| quote!(::mcp_tailor), ToTokens::to_token_stream)
    }

    /// Runs `expand` on the struct an attribute is on (parsed, and its tokens), or says it
    /// must be a struct.
    fn on_struct(
        item: TokenStream,
        what: &str,
        expand: impl FnOnce(syn::ItemStruct, TokenStream, &mut CompileErrors) -> TokenStream,
    ) -> TokenStream {
        match item_struct(item.clone(), what) {
            Ok(parsed) => expand(parsed, item, &mut CompileErrors::default()),
            Err(tokens) => tokens,
        }
    }

    pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
        on_struct(item, "#[mcp_tool]", |item, tokens, errors| {
            let args: ToolArgs = attr::read(attr, errors);
            let attr = parse::tool_attr(args, errors);
            let k = krate(attr.desc.krate.as_ref());
            let name = attr.tool_name(&item.ident);
            let input = input::tool_input(item, tokens, "#[mcp_tool]", "a tool argument", errors);
            match valid::tool(attr, &input, errors) {
                Some(tool) => expand::tool(tool, &input, &k),
                None => fallback::tool(&input, &name, errors, &k),
            }
        })
    }

    pub fn args(attr: TokenStream, item: TokenStream) -> TokenStream {
        on_struct(item, "#[mcp_args]", |item, tokens, errors| {
            let args: SiteArgs = attr::read(attr, errors);
            let spec = parse::args_attr(&args, errors);
            let k = krate(spec.krate.as_ref());
            let input = input::tool_input(item, tokens, "#[mcp_args]", "an argument", errors);
            let fields = valid::fields(&input, spec.spec.allow_dead, errors);
            if errors.is_empty() && input.well_formed {
                expand::args(fields, &input, &k)
            } else {
                fallback::args(&input, errors, &k)
            }
        })
    }

    pub fn description(input: TokenStream) -> TokenStream {
        let mut errors = CompileErrors::default();
        let args: SiteArgs = attr::read(input, &mut errors);
        let site = parse::site_spec(&args, &mut errors);
        let checked = valid::desc(&site.spec, None, &mut errors);
        let k = krate(site.krate.as_ref());
        if errors.is_empty() {
            expand::description(checked, &k)
        } else {
            fallback::description(&errors, &k)
        }
    }
}
