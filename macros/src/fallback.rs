//! What to emit when the input has errors: the user's item (helper attributes stripped), a
//! stub impl so uses of the tool type-check, and the errors — so the user sees only the
//! real mistakes, never a cascade.

use crate::errors::Errors;
use crate::input::{ToolInput, snake_case};
use proc_macro2::TokenStream;
use quote::quote;

/// The fallback of `#[mcp_tool]` for a parsed struct.
pub fn tool(input: &ToolInput, errors: &Errors) -> TokenStream {
    let item = &input.item;
    let errors = errors.to_compile_errors();
    if !input.item.generics.params.is_empty() {
        return quote!(#item #errors);
    }
    let ident = &item.ident;
    let name = snake_case(&ident.to_string());
    quote! {
        #item
        #errors
        const _: () = {
            #[automatically_derived]
            impl ::mcp_tailor::McpTool for #ident {
                const NAME: &'static ::core::primitive::str = #name;
                fn def() -> &'static ::mcp_tailor::ToolDef {
                    static DEF: ::mcp_tailor::ToolDef = ::mcp_tailor::ToolDef::__new(
                        ::mcp_tailor::__private::ToolParts {
                            name: #name,
                            title: ::mcp_tailor::Description::ABSENT,
                            description: ::mcp_tailor::Description::ABSENT,
                            fields: &[],
                            annotations: ::core::option::Option::None,
                            scopes: &[],
                            schema: ::mcp_tailor::__private::input_schema::<#ident>,
                        },
                    );
                    &DEF
                }
            }
        };
    }
}

/// The fallback of `description!`: the errors, then an absent description.
pub fn description(errors: &Errors) -> TokenStream {
    let errors = errors.to_compile_errors();
    quote!({ #errors ::mcp_tailor::Description::ABSENT })
}
