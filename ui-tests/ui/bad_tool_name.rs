use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(name = "bad name!")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
