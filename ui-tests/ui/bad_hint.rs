// A hint is `key = true` or `key = false`; the other hints and the title are still read.
use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool(annotations(title = "", read_only_hint = "yes", destructive_hint, idempotent_hint = true))]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {}

fn main() {}
