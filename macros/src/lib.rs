//! Procedural macros of [mcp-tailor](https://docs.rs/mcp-tailor): `#[mcp_tool]` and
//! `description!`. Depend on `mcp-tailor`, which re-exports them; its documentation
//! describes the DSL.
//!
//! Data flows one way: tokens → model (`parse`, `input`) → validated model (`valid`) →
//! tables (`tables`, pure) → tokens (`expand`), or `fallback` when anything was wrong.

mod ast;
mod errors;
mod expand;
mod fallback;
#[cfg(test)]
mod fuzz;
mod input;
mod parse;
mod tables;
mod valid;

use proc_macro::TokenStream;

/// Declares an MCP tool with tailored descriptions on a struct with named fields.
/// See the `mcp-tailor` crate for the DSL.
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    entry::tool(attr.into(), item.into()).into()
}

/// A tailored [`Description`](https://docs.rs/mcp-tailor) without a struct, usable in a
/// `static`. See the `mcp-tailor` crate for the DSL.
#[proc_macro]
pub fn description(input: TokenStream) -> TokenStream {
    entry::description(input.into()).into()
}

mod entry {
    use crate::errors::Errors;
    use crate::{expand, fallback, input, parse, valid};
    use proc_macro2::{Span, TokenStream};

    pub fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
        let mut errors = Errors::default();
        let item = match syn::parse2::<syn::ItemStruct>(item.clone()) {
            Ok(item) => item,
            Err(_) => {
                let message = "`#[mcp_tool]` goes on a struct with named fields";
                match syn::parse2::<syn::DeriveInput>(item.clone()) {
                    Ok(other) => errors.at(&other.ident, message),
                    Err(_) => errors.at_span(Span::call_site(), message),
                }
                let errors = errors.to_compile_errors();
                return quote::quote!(#item #errors);
            }
        };
        let attr = parse::tool_attr(attr, &mut errors);
        let input = input::tool_input(item, &mut errors);
        match expand::tool(attr, &input, &mut errors) {
            Some(tokens) => tokens,
            None => fallback::tool(&input, &errors),
        }
    }

    pub fn description(input: TokenStream) -> TokenStream {
        let mut errors = Errors::default();
        let spec = parse::desc_spec(input, &mut errors);
        let checked = valid::desc(&spec, None, &mut errors);
        let tokens = expand::description(checked, Span::call_site(), &mut errors);
        if errors.is_empty() {
            tokens
        } else {
            fallback::description(&errors)
        }
    }
}
