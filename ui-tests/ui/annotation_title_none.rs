use mcp_tailor::mcp_tool;

/// Search.
#[mcp_tool(annotations(title = None, read_only_hint = true))]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Search {}

fn main() {}
