// An unknown key with no close match lists every key `#[mcp_tool]` takes.
use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(visibility = "public")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
