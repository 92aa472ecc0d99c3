use mcp_tailor::mcp_tool;
use mcp_tailor::{McpTool, RenderCtx};

/// A tool.
#[mcp_tool(description = [(verbosity(11), "x")])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {
    #[mcp(description = [(verbosity(0), "")])]
    query: String,
}

fn use_it() -> Option<&'static str> {
    // The struct and its impl still exist: only the real mistakes are reported.
    let _ = Tool::NAME;
    Tool::description(&RenderCtx::new())
}

fn main() {}
