// Several `#[mcp]` attributes on one field are read as one list (as a macro might write
// them), and a field's doc comment still answers where no variant does.
use mcp_tailor::{McpTool, RenderCtx, mcp_tool};

/// Searches.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Search {
    /// The query (doc comment).
    #[mcp(descriptions = [terse = "Query."])]
    #[mcp(runners = [((codex, _), [(verbosity(0..=4), terse)])])]
    query: String,
}

fn main() {
    let at = |verbosity| RenderCtx::new().runner("codex").verbosity(verbosity);
    assert_eq!(Search::field_description("query", &at(2)), Some("Query."));
    let other = RenderCtx::new().runner("claude").verbosity(2);
    assert_eq!(Search::field_description("query", &other), Some("The query (doc comment)."));
}
