use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(annotations(read_only = true))]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
