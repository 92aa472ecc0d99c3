use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {
    #[mcp(name = "q")]
    query: String,
}

fn main() {}
