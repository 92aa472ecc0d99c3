use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool(#[mcp(description = "x")] String);

fn main() {}
