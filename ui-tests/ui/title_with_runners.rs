use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(title = [(verbosity(0), "T"), runners = [((codex, _), [default = a])]])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
