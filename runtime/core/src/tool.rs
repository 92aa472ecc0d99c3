//! The `McpTool` and `McpArgs` traits: what the macros implement, and what they provide
//! from the packed tables.

use crate::ctx::RenderCtx;
use crate::decode::{self, Packed, ToolTable};
use crate::def::{Fields, ToolDef};
use crate::schema::input_schema;
use serde_json::Value;
use std::any::TypeId;

/// A tool declared with `#[mcp_tool]`: its name, its tailored strings, and its MCP `Tool`
/// object for any render context. Every item is an associated function or constant; the
/// macro writes the packed tables, the rest is provided.
pub trait McpTool: schemars::JsonSchema + 'static {
    /// The tool's name as MCP clients see it.
    const NAME: &'static str = Self::TABLE.name;

    /// The tables `#[mcp_tool]` packed. Not a stable API.
    #[doc(hidden)]
    const TABLE: ToolTable;

    /// The descriptor behind every other item. The first call decodes the packed tables
    /// (one allocation per table, kept for the life of the process); every later call is a
    /// lookup in a map of decoded types. Hold on to the `&'static ToolDef` where a path is
    /// hot: a server does, from the moment the tool is registered.
    fn def() -> &'static ToolDef {
        decode::tool_def(TypeId::of::<Self>(), &Self::TABLE, input_schema::<Self>)
    }

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
    #[cfg(feature = "rmcp")]
    fn tool(ctx: &RenderCtx<'_>) -> rmcp::model::Tool {
        Self::def().tool(ctx)
    }
}

/// An argument struct declared with `#[mcp_args]`: the tailored descriptions of its fields.
/// A tool whose arguments contain the type (directly, behind `Option` or `Vec`, in `$defs`
/// or inline, wherever `schemars` puts it) renders them like its own fields.
pub trait McpArgs: 'static {
    /// The tables `#[mcp_args]` packed. Not a stable API.
    #[doc(hidden)]
    const TABLE: Packed;

    /// Each annotated field: its serialized name and its description (decoded on first
    /// use, like [`McpTool::def`]).
    fn fields() -> Fields {
        decode::args_fields(TypeId::of::<Self>(), &Self::TABLE)
    }

    /// The description of a field, by its serialized name, for this context.
    fn field_description(field: &str, ctx: &RenderCtx<'_>) -> Option<&'static str> {
        Self::fields()
            .iter()
            .find(|(n, _)| *n == field)?
            .1
            .resolve(ctx)
    }
}
