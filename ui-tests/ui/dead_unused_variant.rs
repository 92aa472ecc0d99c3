#![deny(warnings)]
use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(descriptions = [used = "Used.", never = "Never served."], runners = [((codex, _), [default = used])])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {
    /// A field.
    #[mcp(descriptions = [orphan = "Orphan."])]
    field: String,
}

fn main() {}
