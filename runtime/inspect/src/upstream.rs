//! Inspecting a catalog this binary did not compile: another server's `tools/list` (fetched
//! through the gateway, or captured in a file), tailored by a tailoring file. The tools are
//! listed as `proxy` serves them ([`Inspection::of_wrapped`]), and each also becomes a
//! definition whose strings are the file's where it declares them and the server's own
//! text otherwise, so every report reads it by string as it reads `#[mcp_tool]`s.
//!
//! [`Inspection::of_wrapped`]: super::Inspection::of_wrapped

use super::Finding;
use mcp_tailor_core::seam::ToolView;
use mcp_tailor_core::seam::schema_path;
use mcp_tailor_core::seam::{RuntimeNested, RuntimeParts};
use mcp_tailor_core::{Annotations, Description, Tailoring, ToolDef};
use mcp_tailor_server::rmcp::model::Tool;
use mcp_tailor_server::seam::verbatim;
use serde_json::Value;

/// The definitions `tools` amount to as `tailoring` words them, in their order: every
/// report reads their strings as it reads `#[mcp_tool]`s' (inspect them with
/// [`Inspection::of_wrapped`](super::Inspection::of_wrapped), which lists the tools
/// themselves).
pub fn definitions(tools: &[Tool], tailoring: &Tailoring) -> Vec<&'static ToolDef> {
    tools
        .iter()
        .map(|tool| definition(tool, &ToolView::new(None, tailoring.tool(&tool.name))))
        .collect()
}

/// Reads a captured catalog: a `tools/list` result (`{"tools": […]}`), a JSON-RPC response
/// carrying one, or a bare list of tools. Each tool keeps what rmcp's types cannot hold of
/// it (unknown fields, field order, numbers as written), as the gateway keeps a listing:
/// [`Inspection::of_wrapped`](super::Inspection::of_wrapped) lists it as written.
pub fn read_catalog(json: &str) -> Result<Vec<Tool>, CatalogError> {
    let value: Value = serde_json::from_str(json).map_err(CatalogError::NotJson)?;
    let tools = match &value {
        Value::Array(_) => &value,
        _ => value
            .get("result")
            .unwrap_or(&value)
            .get("tools")
            .ok_or(CatalogError::NoTools)?,
    };
    let mut typed: Vec<Tool> =
        serde_json::from_value(tools.clone()).map_err(CatalogError::Malformed)?;
    if let Value::Array(written) = tools {
        verbatim::keep_tools(&mut typed, written);
    }
    Ok(typed)
}

/// Why a captured catalog cannot be read ([`read_catalog`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CatalogError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    /// The JSON holds no tools.
    #[error("expected a `tools/list` result: an object with `tools`, or a list of tools")]
    NoTools,
    /// A tool is not a tool.
    #[error("a tool is malformed: {0}")]
    Malformed(#[source] serde_json::Error),
}

/// The definition `tool` amounts to under `view` (the same view `proxy` serves it by):
/// each string the file words reads its table where it covers the level and reader, and
/// the server's own words elsewhere; a nested argument of the file's sits where the view
/// puts it.
fn definition(tool: &Tool, view: &ToolView) -> &'static ToolDef {
    let own = |text: Option<&str>| {
        text.map_or(Description::ABSENT, |t| {
            Description::bare_owned(t.to_owned())
        })
    };
    let mut fields: Vec<(String, Description)> = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(name, property)| {
            let given = property.get("description").and_then(Value::as_str)?;
            Some((name.clone(), own(Some(given))))
        })
        .collect();
    let mut nested: Vec<RuntimeNested> = Vec::new();
    // What the file words, by string: to tell its words from the server's.
    let mut overlays: Vec<(String, Description)> = Vec::new();
    for (path, at, file) in view.arguments_in(&tool.input_schema) {
        overlays.push((path.to_owned(), file.clone()));
        let given = schema_path::at(&tool.input_schema, &at.pointer())
            .and_then(|p| p.get("description"))
            .and_then(Value::as_str);
        let description = file.over(given);
        if at.parent.is_empty() {
            match fields.iter_mut().find(|(name, _)| *name == at.name) {
                Some((_, own)) => *own = description,
                None => fields.push((at.name, description)),
            }
            continue;
        }
        let group = match nested.iter().position(|n| n.pointer == at.parent) {
            Some(i) => &mut nested[i].fields,
            None => {
                // The object's path as the file names it: `files[].` of `files[].path`.
                let prefix = path.strip_suffix(at.name.as_str()).unwrap_or_default();
                nested.push(RuntimeNested {
                    pointer: at.parent.clone(),
                    path: prefix.to_owned(),
                    fields: Vec::new(),
                });
                &mut nested.last_mut().expect("just pushed").fields
            }
        };
        group.push((at.name, description));
    }
    let schema = Value::Object((*tool.input_schema).clone());
    let annotations = tool.annotations.as_ref().map(|a| Annotations {
        title: a.title.clone().map(|t| &*t.leak()),
        read_only_hint: a.read_only_hint,
        destructive_hint: a.destructive_hint,
        idempotent_hint: a.idempotent_hint,
        open_world_hint: a.open_world_hint,
    });
    let mut item = |key: &str, file: Option<&Description>, given: Option<&str>| match file {
        Some(file) => {
            overlays.push((key.to_owned(), file.clone()));
            file.over(given)
        }
        None => own(given),
    };
    let title = item("title", view.title(), tool.title.as_deref());
    let description = item(
        "description",
        view.description(),
        tool.description.as_deref(),
    );
    ToolDef::leaked(RuntimeParts {
        name: tool.name.to_string(),
        title,
        description,
        fields,
        nested,
        overlays,
        annotations,
        schema,
    })
}

/// Each tool and argument `tailoring` names that `tools` lack, as a finding (no error
/// elsewhere: an upstream may add it later; `lint` of another server's catalog reports it).
pub fn lacking(tools: &[Tool], tailoring: &Tailoring) -> Vec<Finding> {
    tailoring
        .unmatched(tools)
        .into_iter()
        .map(|u| Finding {
            tool: u.tool.to_owned(),
            string: u
                .argument
                .map_or_else(|| "tool".to_owned(), |a| format!("argument `{a}`")),
            read_by: String::new(),
            message: format!(
                "the tailoring file declares what the catalog lacks ({})",
                u.at
            ),
        })
        .collect()
}
