use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {
    #[mcp(crate = mcp_tailor, description = "x")]
    field: String,
}

fn main() {}
