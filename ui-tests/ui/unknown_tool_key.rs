use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(nmae = "tool")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
