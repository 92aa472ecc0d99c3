//! Reading the struct `#[mcp_tool]` is attached to: its doc comment, its fields' `#[mcp]`
//! attributes (consumed here, so they never reach rustc), and the serialized name of each
//! annotated field (`#[serde(rename)]`, `rename_all` and `#[schemars(rename)]` honoured).

use crate::ast::FieldAttr;
use crate::errors::Errors;
use crate::parse;
use proc_macro2::Span;
use syn::{Attribute, Fields};

/// The struct, with its `#[mcp]` attributes removed, and what they said.
pub struct ToolInput {
    pub item: syn::ItemStruct,
    pub doc: Option<(String, Span)>,
    pub fields: Vec<FieldAttr>,
    /// Whether the struct has named fields and no generics, so a real impl can be emitted.
    pub well_formed: bool,
}

/// Parses the struct. Every `#[mcp]` is stripped, whether or not it is valid.
pub fn tool_input(mut item: syn::ItemStruct, errors: &mut Errors) -> ToolInput {
    let doc = doc_comment(&item.attrs).map(|d| (d, item.ident.span()));
    let mut well_formed = true;
    if !item.generics.params.is_empty() {
        errors.at(
            &item.generics,
            "`#[mcp_tool]` takes a struct without generic parameters; its tables are `static`",
        );
        well_formed = false;
    }
    let rename_all = rename_all(&item.attrs);
    let named = matches!(item.fields, Fields::Named(_));
    if !named {
        errors.at_span(
            fields_span(&item),
            "`#[mcp_tool]` takes a struct with named fields; each field is a tool argument",
        );
        well_formed = false;
    }
    let mut fields = Vec::new();
    for field in item.fields.iter_mut() {
        let (mcp, rest): (Vec<_>, Vec<_>) = field
            .attrs
            .drain(..)
            .partition(|a| a.path().is_ident("mcp"));
        field.attrs = rest;
        for attr in mcp {
            let Some(ident) = field.ident.as_ref().filter(|_| named) else {
                errors.at(
                    &attr,
                    "`#[mcp]` needs a named field; `#[mcp_tool]` takes a struct with named fields",
                );
                continue;
            };
            let tokens = match &attr.meta {
                syn::Meta::List(list) => list.tokens.clone(),
                other => {
                    errors.at(other, "write `#[mcp(description = …)]`");
                    continue;
                }
            };
            if fields.iter().any(|f: &FieldAttr| f.rust_name == *ident) {
                errors.at(&attr, "`#[mcp]` given twice on one field; merge them");
                continue;
            }
            let desc = parse::desc_spec(tokens, errors);
            let serialized_name = serialized_name(ident, &field.attrs, rename_all.as_deref());
            fields.push(FieldAttr {
                rust_name: ident.clone(),
                serialized_name,
                desc,
                doc: doc_comment(&field.attrs).map(|d| (d, ident.span())),
            });
        }
    }
    ToolInput {
        item,
        doc,
        fields,
        well_formed,
    }
}

fn fields_span(item: &syn::ItemStruct) -> Span {
    match &item.fields {
        Fields::Unnamed(f) => f.paren_token.span.join(),
        Fields::Unit => item.ident.span(),
        Fields::Named(f) => f.brace_token.span.join(),
    }
}

/// The doc comment as one text: each line without its first space, joined with newlines,
/// trimmed (as `schemars` reads it). `None` when there is none.
pub fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
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

/// The struct's `rename_all` (deserialize side), `schemars` winning over `serde`.
fn rename_all(attrs: &[Attribute]) -> Option<String> {
    let mut found = None;
    for attr in attrs
        .iter()
        .filter(|a| a.path().is_ident("serde") || a.path().is_ident("schemars"))
    {
        let is_schemars = attr.path().is_ident("schemars");
        if let Some(value) = rename_value(attr, "rename_all")
            && (found.is_none() || is_schemars)
        {
            found = Some(value);
        }
    }
    found
}

/// The serialized (deserialize-side) name of a field.
fn serialized_name(ident: &syn::Ident, attrs: &[Attribute], rename_all: Option<&str>) -> String {
    let mut explicit = None;
    for attr in attrs
        .iter()
        .filter(|a| a.path().is_ident("serde") || a.path().is_ident("schemars"))
    {
        let is_schemars = attr.path().is_ident("schemars");
        if let Some(value) = rename_value(attr, "rename")
            && (explicit.is_none() || is_schemars)
        {
            explicit = Some(value);
        }
    }
    let raw = ident.to_string();
    let name = raw.strip_prefix("r#").unwrap_or(&raw);
    explicit.unwrap_or_else(|| apply_rename_rule(name, rename_all))
}

/// Reads `key = "x"` or `key(deserialize = "x", …)` from a `#[serde(...)]`-style attribute.
fn rename_value(attr: &Attribute, key: &str) -> Option<String> {
    let mut out = None;
    let result = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(key) {
            if meta.input.peek(syn::Token![=]) {
                let lit: syn::LitStr = meta.value()?.parse()?;
                out = Some(lit.value());
            } else {
                meta.parse_nested_meta(|inner| {
                    let lit: syn::LitStr = inner.value()?.parse()?;
                    if inner.path.is_ident("deserialize") {
                        out = Some(lit.value());
                    }
                    Ok(())
                })?;
            }
        } else {
            skip_meta_value(&meta)?;
        }
        Ok(())
    });
    // The derive that owns this attribute reports its own syntax errors.
    let _ = result;
    out
}

/// Skips `= value` or `(…)` after a nested meta key we do not read.
fn skip_meta_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

/// serde's `rename_all` rules, applied to a snake_case field name.
pub fn apply_rename_rule(field: &str, rule: Option<&str>) -> String {
    let words = || field.split('_').filter(|w| !w.is_empty());
    let capitalize = |w: &str| {
        let mut chars = w.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect::<String>())
            .unwrap_or_default()
    };
    match rule {
        Some("UPPERCASE" | "SCREAMING_SNAKE_CASE") => field.to_ascii_uppercase(),
        Some("PascalCase") => words().map(capitalize).collect(),
        Some("camelCase") => {
            let pascal: String = words().map(capitalize).collect();
            let mut chars = pascal.chars();
            chars
                .next()
                .map(|c| c.to_lowercase().chain(chars).collect())
                .unwrap_or_default()
        }
        Some("kebab-case") => field.replace('_', "-"),
        Some("SCREAMING-KEBAB-CASE") => field.replace('_', "-").to_ascii_uppercase(),
        _ => field.to_owned(),
    }
}

/// `SearchNotes` → `search_notes`, `HTTPGet` → `http_get`.
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_names() {
        assert_eq!(snake_case("SearchNotes"), "search_notes");
        assert_eq!(snake_case("HTTPGet"), "http_get");
        assert_eq!(snake_case("Tool2Go"), "tool2_go");
        assert_eq!(snake_case("already_snake"), "already_snake");
        assert_eq!(snake_case("A"), "a");
    }

    #[test]
    fn rename_rules() {
        let cases = [
            ("lowercase", "max_results"),
            ("UPPERCASE", "MAX_RESULTS"),
            ("PascalCase", "MaxResults"),
            ("camelCase", "maxResults"),
            ("snake_case", "max_results"),
            ("SCREAMING_SNAKE_CASE", "MAX_RESULTS"),
            ("kebab-case", "max-results"),
            ("SCREAMING-KEBAB-CASE", "MAX-RESULTS"),
        ];
        for (rule, want) in cases {
            assert_eq!(apply_rename_rule("max_results", Some(rule)), want, "{rule}");
        }
        assert_eq!(apply_rename_rule("max_results", None), "max_results");
    }
}
