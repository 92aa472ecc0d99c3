// A field's `#[mcp]` attributes are read as one list: a key given in two of them is given
// twice, and an attribute not written `#[mcp(…)]` is reported where it stands.
use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {
    #[mcp(description = "The query.")]
    #[mcp(description = "The query, again.")]
    query: String,
    #[mcp]
    limit: u32,
    #[mcp = "The offset."]
    offset: u32,
}

fn main() {}
