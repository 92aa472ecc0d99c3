//! Validation: the whole tool (name, fields, every description, duplicate serialized
//! names). Each description is checked by the shared model's rules (`mcp-tailor-model`,
//! which a tailoring file is checked by too); every rule reports into the shared `CompileErrors`
//! and carries on, so one compile shows every mistake.

use crate::ast::{AnnotationsAttr, DescSpec, Macro, Text, ToolAttr};
use crate::errors::CompileErrors;
use crate::input::ToolInput;
use mcp_tailor_model::rules;
use proc_macro2::Span;

/// The checked form of one description: its texts, a plan whose handles index them, and
/// the warnings about variants it can never serve.
pub type Checked = mcp_tailor_model::valid::Checked<Macro>;

/// An annotated field, checked: its serialized name and its description.
pub struct ValidField {
    pub name: String,
    pub checked: Checked,
}

/// A tool that passed validation: everything `expand` needs, nothing left to check.
pub struct ValidTool {
    pub ident: syn::Ident,
    pub name: String,
    pub title: Checked,
    pub description: Checked,
    pub fields: Vec<ValidField>,
    pub annotations: Option<AnnotationsAttr>,
    pub scopes: Vec<Vec<String>>,
}

/// Validates a whole tool. `None` when anything is wrong (every error reported).
pub fn tool(attr: ToolAttr, input: &ToolInput, errors: &mut CompileErrors) -> Option<ValidTool> {
    let ident = input.item.ident.clone();
    if let Some((name, span)) = &attr.name {
        tool_name(name, *span, errors);
    }
    let name = attr.tool_name(&ident);
    let doc = input.doc.as_ref().map(|(d, s)| (d.as_str(), *s));
    let allow_dead = attr.desc.spec.allow_dead;
    let description = desc(&attr.desc.spec, doc, errors);
    let title_spec = DescSpec {
        description: attr.title,
        allow_dead,
        ..Default::default()
    };
    let title = desc(&title_spec, None, errors);
    let fields = fields(input, allow_dead, errors);
    (errors.is_empty() && input.well_formed).then_some(ValidTool {
        ident,
        name,
        title,
        description,
        fields,
        annotations: attr.annotations,
        scopes: attr.scopes,
    })
}

/// Validates the annotated fields of a struct: each description, and that no two
/// serialize under one name. `allow_dead` silences dead-variant warnings for all of them.
pub fn fields(input: &ToolInput, allow_dead: bool, errors: &mut CompileErrors) -> Vec<ValidField> {
    let mut out: Vec<ValidField> = Vec::new();
    for field in &input.fields {
        if out.iter().any(|f| f.name == field.serialized_name) {
            errors.at(
                &field.rust_name,
                format!(
                    "two annotated fields serialize as `{}`",
                    field.serialized_name
                ),
            );
        }
        let doc = field.doc.as_ref().map(|(d, s)| (d.as_str(), *s));
        let spec = DescSpec {
            allow_dead: allow_dead || field.desc.allow_dead,
            ..field.desc.clone()
        };
        let checked = desc(&spec, doc, errors);
        out.push(ValidField {
            name: field.serialized_name.clone(),
            checked,
        });
    }
    out
}

/// Checks a description site with the shared model's rules, reporting into `errors`.
/// `doc` is the doc comment and its span, the description when none is given.
pub fn desc(spec: &DescSpec, doc: Option<(&str, Span)>, errors: &mut CompileErrors) -> Checked {
    let doc = doc.map(|(doc, span)| Text::Lit {
        value: doc.to_owned(),
        lit: syn::LitStr::new(doc, span),
    });
    mcp_tailor_model::valid::desc(spec, doc, errors)
}

/// A tool name: 1..=128 characters of `A-Z a-z 0-9 _ - .`.
fn tool_name(name: &str, span: Span, errors: &mut CompileErrors) {
    if let Some(message) = rules::tool_name(name) {
        errors.at_span(span, message);
    }
}
