//! A file's tool tailoring applied to an rmcp `Tool`: its title, description and argument
//! descriptions, resolved for the reader. Where a tool also has `#[mcp_tool]` tables, each
//! item those tables declare wins.

use super::{Location, Tailoring, ToolTailoring};
use crate::{RenderCtx, ToolDef};
use rmcp::model::Tool;
use serde_json::{Map, Value};
use std::sync::Arc;

impl ToolTailoring {
    /// Tailors `tool` for `ctx`: each item the file declares replaces the tool's (a title,
    /// description or argument description that resolves to nothing is removed). Nothing
    /// else of `tool` changes.
    pub fn tailor_tool(&self, tool: &mut Tool, ctx: &RenderCtx<'_>) {
        self.tailor_tool_under(tool, ctx, None);
    }

    /// As [`tailor_tool`](Self::tailor_tool), leaving alone every item `def` (the tool's
    /// compile-time tables) declares.
    pub(crate) fn tailor_tool_under(
        &self,
        tool: &mut Tool,
        ctx: &RenderCtx<'_>,
        def: Option<&ToolDef>,
    ) {
        if let Some(title) = &self.title
            && def.is_none_or(|d| d.title().is_absent())
        {
            tool.title = title.resolve(ctx).map(str::to_owned);
        }
        if let Some(description) = &self.description
            && def.is_none_or(|d| d.description().is_absent())
        {
            tool.description = description.resolve_cow(ctx);
        }
        let mut arguments = self
            .arguments
            .iter()
            .filter(|(name, _)| def.is_none_or(|d| d.field(name).is_none()))
            .peekable();
        if arguments.peek().is_none() {
            return;
        }
        let schema = Arc::make_mut(&mut tool.input_schema);
        for (name, description) in arguments {
            let text = description.resolve(ctx);
            if let Some(property) = property(schema, name) {
                match text {
                    Some(text) => property.insert("description".into(), text.into()),
                    None => property.remove("description"),
                };
            }
        }
    }

    /// The items this file declares that `def`'s tables also declare (and so win): `title`,
    /// `description`, `arguments.NAME`.
    pub(crate) fn overridden_by(&self, def: &ToolDef) -> Vec<String> {
        let mut out = Vec::new();
        if self.title.is_some() && !def.title().is_absent() {
            out.push("title".to_owned());
        }
        if self.description.is_some() && !def.description().is_absent() {
            out.push("description".to_owned());
        }
        for name in self.arguments.keys() {
            if def.field(name).is_some() {
                out.push(format!("arguments.{name}"));
            }
        }
        out
    }
}

/// Something a tailoring file declares that a catalog lacks: a tool, or an argument of a
/// tool it has. Not an error (an upstream may add it later): a warning, and a `lint`
/// finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched<'a> {
    /// The tool the file names.
    pub tool: &'a str,
    /// The argument the tool lacks (`None`: the catalog lacks the whole tool).
    pub argument: Option<&'a str>,
    /// Where the file declares the tool.
    pub at: &'a Location,
}

impl std::fmt::Display for Unmatched<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.argument {
            None => write!(f, "{}: the catalog has no tool `{}`", self.at, self.tool),
            Some(argument) => write!(
                f,
                "{}: tool `{}` has no argument `{argument}`",
                self.at, self.tool
            ),
        }
    }
}

impl Tailoring {
    /// What this file declares that `tools` lack, in the file's order of tools. A dotted
    /// argument (a path into a nested object) counts when its path reaches a property.
    pub fn unmatched(&self, tools: &[Tool]) -> Vec<Unmatched<'_>> {
        let mut out = Vec::new();
        for (name, file) in self.tools() {
            let at = file.location();
            let Some(tool) = tools.iter().find(|t| t.name == name) else {
                out.push(Unmatched {
                    tool: name,
                    argument: None,
                    at,
                });
                continue;
            };
            let mut schema = (*tool.input_schema).clone();
            for (argument, _) in file.arguments() {
                if property(&mut schema, argument).is_none() {
                    out.push(Unmatched {
                        tool: name,
                        argument: Some(argument),
                        at,
                    });
                }
            }
        }
        out
    }
}

/// The property schema an argument name reaches in an input schema: a property of the
/// root, or a dotted path through nested objects (`filter.tag`), following local `$ref`s
/// into `$defs`.
fn property<'s>(
    schema: &'s mut Map<String, Value>,
    name: &str,
) -> Option<&'s mut Map<String, Value>> {
    let has = |schema: &Map<String, Value>, key: &str| {
        schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(key))
    };
    if has(schema, name) || !name.contains('.') {
        return properties(schema)?.get_mut(name)?.as_object_mut();
    }
    let segments: Vec<&str> = name.split('.').collect();
    // Each step's target: a pointer into the schema (`/properties/a/properties/b`, or into
    // `/$defs/X` through a `$ref`), computed over an immutable view, then taken mutably.
    let mut pointer = String::new();
    for (i, segment) in segments.iter().enumerate() {
        let node = if pointer.is_empty() {
            Some(&*schema)
        } else {
            pointer_in(schema, &pointer)?.as_object()
        }?;
        let node_pointer = match node.get("$ref").and_then(Value::as_str) {
            Some(reference) => reference.strip_prefix('#')?.to_owned(),
            None => pointer.clone(),
        };
        let escaped = segment.replace('~', "~0").replace('/', "~1");
        pointer = format!("{node_pointer}/properties/{escaped}");
        if i + 1 < segments.len() && pointer_in(schema, &pointer).is_none() {
            return None;
        }
    }
    let (first, rest) = pointer.strip_prefix('/')?.split_once('/')?;
    let first = first.replace("~1", "/").replace("~0", "~");
    schema
        .get_mut(&first)?
        .pointer_mut(&format!("/{rest}"))?
        .as_object_mut()
}

fn properties(schema: &mut Map<String, Value>) -> Option<&mut Map<String, Value>> {
    schema.get_mut("properties")?.as_object_mut()
}

/// The value at a JSON pointer into a root object.
fn pointer_in<'s>(schema: &'s Map<String, Value>, pointer: &str) -> Option<&'s Value> {
    let (first, rest) = pointer
        .strip_prefix('/')?
        .split_once('/')
        .unwrap_or((pointer.strip_prefix('/')?, ""));
    let first = first.replace("~1", "/").replace("~0", "~");
    let node = schema.get(&first)?;
    if rest.is_empty() {
        Some(node)
    } else {
        node.pointer(&format!("/{rest}"))
    }
}
