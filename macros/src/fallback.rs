//! What to emit when the input has errors: the user's struct (helper attributes stripped),
//! the errors, and a minimal impl so that uses of the type still type-check — the user sees
//! only the real mistakes, never a cascade. Independent of `expand` by design.

use crate::errors::CompileErrors;
use crate::input::ToolInput;
use proc_macro2::TokenStream;
use quote::quote;

/// The fallback of `#[mcp_tool]`: the struct, the errors, and `McpTool` with its `NAME`.
pub fn tool(input: &ToolInput, name: &str, errors: &CompileErrors, k: &TokenStream) -> TokenStream {
    stub(input, errors, |ident| {
        quote! {
            impl #k::McpTool for #ident {
                const TABLE: #k::__private::ToolTable = #k::__private::ToolTable {
                    name: #name,
                    texts: &[],
                    layout: &[],
                };
            }
        }
    })
}

/// The fallback of `#[mcp_args]`: the struct, the errors, and `McpArgs` without fields.
pub fn args(input: &ToolInput, errors: &CompileErrors, k: &TokenStream) -> TokenStream {
    stub(input, errors, |ident| {
        quote! {
            impl #k::McpArgs for #ident {
                const TABLE: #k::__private::Packed = #k::__private::Packed { texts: &[], layout: &[] };
            }
        }
    })
}

/// The struct, the errors, and `imp` for the struct unless it is generic (then the impl
/// could only add errors).
fn stub(
    input: &ToolInput,
    errors: &CompileErrors,
    imp: impl FnOnce(&syn::Ident) -> TokenStream,
) -> TokenStream {
    let errors = errors.to_compile_errors();
    let item = &input.emitted;
    if !input.item.generics.params.is_empty() {
        return quote!(#item #errors);
    }
    let imp = imp(&input.item.ident);
    quote! {
        #item
        #errors
        #[automatically_derived]
        #imp
    }
}

/// The fallback of `description!`: the errors, then an absent description.
pub fn description(errors: &CompileErrors, k: &TokenStream) -> TokenStream {
    let errors = errors.to_compile_errors();
    quote!({ #errors #k::Description::ABSENT })
}
