//! The `McpTool` trait, the static tool descriptor, and rendering a tool for a context.

use crate::ctx::RenderCtx;
use crate::description::Description;
use serde_json::{Map, Value};
use std::sync::OnceLock;

/// A tool declared with `#[mcp_tool]`: its name, its tailored strings, and its MCP `Tool`
/// object for any render context. Every item is an associated function; the macro writes
/// `NAME` and `def`, the rest is provided.
pub trait McpTool {
    /// The tool's name as MCP clients see it.
    const NAME: &'static str;

    /// The static descriptor behind every other item.
    fn def() -> &'static ToolDef;

    /// The tool's description for this context.
    fn description(ctx: &RenderCtx<'_>) -> Option<&'static str> {
        Self::def().description().resolve(ctx)
    }

    /// The tool's title for this context.
    fn title(ctx: &RenderCtx<'_>) -> Option<&'static str> {
        Self::def().title().resolve(ctx)
    }

    /// The description of an argument, by its serialized property name, for this context.
    /// `None` for a property without `#[mcp]` (its schema keeps what `schemars` wrote).
    fn field_description(field: &str, ctx: &RenderCtx<'_>) -> Option<&'static str> {
        Self::def().field(field)?.resolve(ctx)
    }

    /// The MCP `Tool` object for this context.
    fn render(ctx: &RenderCtx<'_>) -> Value {
        Self::def().render(ctx)
    }

    /// The `rmcp` tool for this context: what an rmcp `list_tools` returns for this tool.
    #[cfg(feature = "server")]
    fn tool(ctx: &RenderCtx<'_>) -> rmcp::model::Tool {
        Self::def().tool(ctx)
    }
}

/// An argument struct declared with `#[mcp_args]`: the tailored descriptions of its fields.
/// A tool whose arguments contain the type (directly, behind `Option` or `Vec`, in `$defs`
/// or inline, wherever `schemars` puts it) renders them like its own fields.
pub trait McpArgs {
    /// Each annotated field: its serialized name and its description.
    fn fields() -> Fields;

    /// The description of a field, by its serialized name, for this context.
    fn field_description(field: &str, ctx: &RenderCtx<'_>) -> Option<&'static str> {
        Self::fields()
            .iter()
            .find(|(n, _)| *n == field)?
            .1
            .resolve(ctx)
    }
}

/// Annotated fields: serialized name and description.
pub type Fields = &'static [(&'static str, Description)];

/// Where an `#[mcp_args]` type's schema sits in a tool's input schema, and its fields.
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct Nested {
    /// A JSON pointer to the type's object schema.
    pub pointer: String,
    pub fields: Fields,
}

/// A generated input schema and where its `#[mcp_args]` types are. Not a stable API.
#[derive(Debug)]
#[doc(hidden)]
pub struct Generated {
    pub value: Value,
    pub nested: Vec<Nested>,
}

/// An annotated field that the generated input schema does not have (a field that serde
/// skips or flattens, or a hand-written schema): its tailored text would have nowhere to go.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MissingField {
    /// The tool's name.
    pub tool: &'static str,
    /// The field's serialized name.
    pub field: &'static str,
    /// A JSON pointer to the object schema that lacks it (empty for the root).
    pub pointer: String,
}

impl std::fmt::Display for MissingField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "the root"
        } else {
            &self.pointer
        };
        write!(
            f,
            "tool `{}`: the annotated field `{}` is not a property of the input schema at {at}; \
             serde skips or flattens it, or a hand-written schema leaves it out, so its `#[mcp]` \
             text has nowhere to go",
            self.tool, self.field
        )
    }
}

impl std::error::Error for MissingField {}

/// Everything `#[mcp_tool]` declared about one tool. Lives in a `static`.
#[derive(Debug)]
pub struct ToolDef {
    name: &'static str,
    title: Description,
    description: Description,
    fields: Fields,
    annotations: Option<Annotations>,
    scopes: &'static [&'static [&'static str]],
    schema: SchemaCell,
}

/// The MCP tool annotations declared with `annotations(...)`; hints, never guarantees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// A human-readable title.
    pub title: Option<&'static str>,
    /// The tool does not modify its environment.
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    pub destructive_hint: Option<bool>,
    /// Repeating a call with the same arguments has no additional effect.
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    pub open_world_hint: Option<bool>,
}

impl Annotations {
    /// The `rmcp` tool annotations.
    #[cfg(feature = "server")]
    pub fn to_rmcp(&self) -> rmcp::model::ToolAnnotations {
        let mut out = rmcp::model::ToolAnnotations::default();
        out.title = self.title.map(str::to_owned);
        out.read_only_hint = self.read_only_hint;
        out.destructive_hint = self.destructive_hint;
        out.idempotent_hint = self.idempotent_hint;
        out.open_world_hint = self.open_world_hint;
        out
    }

    /// The MCP `ToolAnnotations` JSON object (camelCase keys, absent hints omitted).
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(title) = self.title {
            out.insert("title".into(), title.into());
        }
        let hints = [
            ("readOnlyHint", self.read_only_hint),
            ("destructiveHint", self.destructive_hint),
            ("idempotentHint", self.idempotent_hint),
            ("openWorldHint", self.open_world_hint),
        ];
        for (key, hint) in hints {
            if let Some(hint) = hint {
                out.insert(key.into(), hint.into());
            }
        }
        Value::Object(out)
    }
}

/// The input schema, generated by `schemars` once and kept, with the `#[mcp_args]` types
/// found in it, or the annotated field it lacks.
pub(crate) struct SchemaCell {
    cell: OnceLock<Result<Generated, MissingField>>,
    make: fn() -> Generated,
}

impl std::fmt::Debug for SchemaCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaCell")
            .field("ready", &self.cell.get().is_some())
            .finish()
    }
}

/// The parts of a [`ToolDef`], as `#[mcp_tool]` emits them. Not a stable API.
#[doc(hidden)]
pub struct ToolParts {
    pub name: &'static str,
    pub title: Description,
    pub description: Description,
    pub fields: Fields,
    pub annotations: Option<Annotations>,
    pub scopes: &'static [&'static [&'static str]],
    pub schema: fn() -> Generated,
}

impl ToolDef {
    /// The definition of the parts an expansion emitted.
    pub(crate) const fn from_parts(parts: ToolParts) -> ToolDef {
        ToolDef {
            name: parts.name,
            title: parts.title,
            description: parts.description,
            fields: parts.fields,
            annotations: parts.annotations,
            scopes: parts.scopes,
            schema: SchemaCell {
                cell: OnceLock::new(),
                make: parts.schema,
            },
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The tool's (possibly tailored) title.
    pub fn title(&self) -> &Description {
        &self.title
    }

    /// The tool's (possibly tailored) description.
    pub fn description(&self) -> &Description {
        &self.description
    }

    /// The description of the property `name` (serialized name), if it carries `#[mcp]`
    /// or a doc comment the macro saw.
    pub fn field(&self, name: &str) -> Option<&Description> {
        self.fields.iter().find(|(n, _)| *n == name).map(|(_, d)| d)
    }

    /// Every annotated property of the tool's own arguments: serialized name and
    /// description.
    pub fn fields(&self) -> Fields {
        self.fields
    }

    /// Every tailored argument description: the tool's own fields, then the fields of each
    /// `#[mcp_args]` type in its input schema, in a fixed order.
    pub fn argument_descriptions(&self) -> impl Iterator<Item = &'static Description> + '_ {
        let nested = self.generated().nested.iter().flat_map(|n| n.fields);
        self.fields.iter().chain(nested).map(|(_, d)| d)
    }

    /// Checks that every annotated field (the tool's own and its `#[mcp_args]` types')
    /// is a property of the generated input schema. Registering a tool with a server
    /// checks this; rendering a tool that fails it panics with the same message.
    pub fn check_schema(&self) -> Result<(), MissingField> {
        self.generation().as_ref().map(|_| ()).map_err(Clone::clone)
    }

    /// The schema generated once and checked, or the annotated field it lacks.
    fn generation(&self) -> &Result<Generated, MissingField> {
        self.schema.cell.get_or_init(|| self.generate())
    }

    fn generate(&self) -> Result<Generated, MissingField> {
        let generated = (self.schema.make)();
        let root = std::iter::once((String::new(), self.fields));
        let nested = generated
            .nested
            .iter()
            .map(|n| (n.pointer.clone(), n.fields));
        for (pointer, fields) in root.chain(nested) {
            let properties = generated
                .value
                .pointer(&pointer)
                .and_then(|o| o.get("properties"))
                .and_then(Value::as_object);
            for (field, _) in fields {
                if !properties.is_some_and(|p| p.contains_key(*field)) {
                    return Err(MissingField {
                        tool: self.name,
                        field,
                        pointer,
                    });
                }
            }
        }
        Ok(generated)
    }

    fn generated(&self) -> &Generated {
        match self.generation() {
            Ok(generated) => generated,
            Err(missing) => panic!("{missing}"),
        }
    }

    /// The declared annotations.
    pub fn annotations(&self) -> Option<&Annotations> {
        self.annotations.as_ref()
    }

    /// The scopes the tool requires: every group is required, any scope of a group will do.
    pub fn scopes(&self) -> &'static [&'static [&'static str]] {
        self.scopes
    }

    /// Whether any string of the tool can depend on the render context.
    pub fn is_tailored(&self) -> bool {
        self.title.is_tailored()
            || self.description.is_tailored()
            || self.argument_descriptions().any(Description::is_tailored)
    }

    /// The static input schema (the one arguments are validated against), with every
    /// annotated property's description as `schemars` wrote it.
    ///
    /// # Panics
    /// When an annotated field is not in the schema (see [`check_schema`](Self::check_schema)).
    pub fn input_schema(&self) -> &Value {
        &self.generated().value
    }

    /// The input schema for this context: the static schema with each annotated property's
    /// description resolved (removed when nothing resolves). Its structure never varies.
    pub fn render_schema(&self, ctx: &RenderCtx<'_>) -> Value {
        let mut schema = self.input_schema().clone();
        if let Value::Object(root) = &mut schema {
            self.tailor_properties(root, ctx);
        }
        schema
    }

    /// Sets the description of each annotated property of `schema` (a root object schema),
    /// the tool's own and its `#[mcp_args]` types' wherever they sit, to the text resolved
    /// for `ctx`, removing it when nothing resolves.
    pub fn tailor_properties(&self, schema: &mut Map<String, Value>, ctx: &RenderCtx<'_>) {
        tailor_object(schema, self.fields, ctx);
        for nested in &self.generated().nested {
            // The root is a map, not a `Value`: step into its first key, then follow the rest.
            let pointer = nested.pointer.strip_prefix('/').unwrap_or_default();
            let (first, rest) = pointer.split_once('/').unwrap_or((pointer, ""));
            let first = first.replace("~1", "/").replace("~0", "~");
            let node = schema.get_mut(&first).and_then(|node| match rest {
                "" => Some(node),
                rest => node.pointer_mut(&format!("/{rest}")),
            });
            if let Some(Value::Object(object)) = node {
                tailor_object(object, nested.fields, ctx);
            }
        }
    }

    /// The MCP tool object for this context with `schema` as its input schema, before
    /// encoding: the one place that decides what the object holds.
    fn object<S>(&self, ctx: &RenderCtx<'_>, input_schema: S) -> ToolObject<'_, S> {
        ToolObject {
            name: self.name,
            title: self.title.resolve(ctx),
            description: self.description.resolve(ctx),
            input_schema,
            annotations: self.annotations.as_ref(),
        }
    }

    /// The `rmcp` tool for this context, with `schema` as its input schema.
    #[cfg(feature = "server")]
    pub(crate) fn tool_with_schema(
        &self,
        ctx: &RenderCtx<'_>,
        schema: std::sync::Arc<Map<String, Value>>,
    ) -> rmcp::model::Tool {
        self.object(ctx, schema).into_rmcp()
    }

    /// The `rmcp` tool for this context (see [`render`](Self::render)).
    #[cfg(feature = "server")]
    pub fn tool(&self, ctx: &RenderCtx<'_>) -> rmcp::model::Tool {
        let schema = match self.render_schema(ctx) {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        self.tool_with_schema(ctx, std::sync::Arc::new(schema))
    }

    /// Tailors another implementation's tool of the same name (say, an rmcp `#[tool]`
    /// taking `Parameters<Self>`): its title and description become this definition's
    /// when they resolve, and each annotated property of its input schema gets the
    /// resolved description. Nothing else of `tool` changes.
    #[cfg(feature = "server")]
    pub fn tailor_tool(&self, tool: &mut rmcp::model::Tool, ctx: &RenderCtx<'_>) {
        if let Some(title) = self.title.resolve(ctx) {
            tool.title = Some(title.to_owned());
        }
        if let Some(description) = self.description.resolve(ctx) {
            tool.description = Some(std::borrow::Cow::Borrowed(description));
        }
        if self.argument_descriptions().next().is_some() {
            self.tailor_properties(std::sync::Arc::make_mut(&mut tool.input_schema), ctx);
        }
    }

    /// The MCP `Tool` object for this context: `name`, `title` and `description` when they
    /// resolve, `inputSchema` with each annotated property's description resolved (removed
    /// when nothing resolves), and `annotations` when declared. Only strings vary with the
    /// context, never the structure of the schema.
    pub fn render(&self, ctx: &RenderCtx<'_>) -> Value {
        self.object(ctx, self.render_schema(ctx)).into_json()
    }
}

/// What an MCP tool object holds: `name`; `title` and `description` when they resolve;
/// `inputSchema`; `annotations` when declared. Encoded as JSON or as an `rmcp` tool.
struct ToolObject<'a, S> {
    name: &'static str,
    title: Option<&'static str>,
    description: Option<&'static str>,
    input_schema: S,
    annotations: Option<&'a Annotations>,
}

impl ToolObject<'_, Value> {
    fn into_json(self) -> Value {
        let mut tool = Map::new();
        tool.insert("name".into(), self.name.into());
        if let Some(title) = self.title {
            tool.insert("title".into(), title.into());
        }
        if let Some(description) = self.description {
            tool.insert("description".into(), description.into());
        }
        tool.insert("inputSchema".into(), self.input_schema);
        if let Some(annotations) = self.annotations {
            tool.insert("annotations".into(), annotations.to_json());
        }
        Value::Object(tool)
    }
}

#[cfg(feature = "server")]
impl ToolObject<'_, std::sync::Arc<Map<String, Value>>> {
    fn into_rmcp(self) -> rmcp::model::Tool {
        let description = self.description.map(std::borrow::Cow::Borrowed);
        let mut tool = rmcp::model::Tool::new_with_raw(self.name, description, self.input_schema);
        tool.title = self.title.map(str::to_owned);
        tool.annotations = self.annotations.map(Annotations::to_rmcp);
        tool
    }
}

/// Sets the description of each of `fields` among `object`'s properties.
fn tailor_object(object: &mut Map<String, Value>, fields: Fields, ctx: &RenderCtx<'_>) {
    let Some(properties) = object.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, description) in fields {
        if let Some(Value::Object(property)) = properties.get_mut(*name) {
            match description.resolve(ctx) {
                Some(text) => property.insert("description".into(), text.into()),
                None => property.remove("description"),
            };
        }
    }
}
