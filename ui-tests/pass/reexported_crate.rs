//! `crate = path` for a crate that re-exports mcp-tailor under another name.
#![deny(warnings)]

mod framework {
    pub use mcp_tailor as tailoring;
}

use framework::tailoring::{McpTool, RenderCtx};

/// A tool.
#[framework::tailoring::mcp_tool(crate = framework::tailoring, description = [(verbosity(0), "t"), (verbosity(9), "Tool.")])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Tool {
    /// A field.
    #[mcp(description = "f")]
    pub field: Option<Arg>,
}

/// A nested argument.
#[framework::tailoring::mcp_args(crate = framework::tailoring)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Arg {
    #[mcp(description = "x")]
    pub x: u8,
}

static D: framework::tailoring::Description =
    framework::tailoring::description!(crate = framework::tailoring, description = "d");

fn main() {
    assert_eq!(Tool::description(&RenderCtx::new().verbosity(0)), Some("t"));
    assert_eq!(D.resolve(&RenderCtx::new()), Some("d"));
}
