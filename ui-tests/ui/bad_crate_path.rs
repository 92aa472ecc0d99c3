use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(crate = "not a path")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
