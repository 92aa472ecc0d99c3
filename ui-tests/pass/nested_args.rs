//! `#[mcp_args]` on argument types that are not tools: the same `#[mcp]` field grammar, and
//! the struct stays an ordinary serde and schemars type.
#![deny(warnings)]

use mcp_tailor::{McpArgs, McpTool, RenderCtx, mcp_args, mcp_tool};

/// A filter.
#[mcp_args]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Filter {
    /// Tag to match.
    #[mcp(description = [(verbosity(0), "tag"), (verbosity(9), "Only notes with this tag.")])]
    pub tag_name: String,
    pub limit: Option<u32>,
}

/// A tool taking filters three ways.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Search {
    pub filter: Filter,
    pub maybe: Option<Filter>,
    pub many: Vec<Filter>,
}

fn main() {
    let terse = RenderCtx::new().verbosity(0);
    assert_eq!(Filter::field_description("tagName", &terse), Some("tag"));
    let tool = Search::render(&terse);
    let defs = &tool["inputSchema"]["$defs"]["Filter"]["properties"]["tagName"];
    assert_eq!(defs["description"], "tag");
    let filter: Filter = serde_json::from_str(r#"{"tagName":"a"}"#).unwrap();
    assert_eq!(filter.tag_name, "a");
}
