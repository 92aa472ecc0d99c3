//! Every key of `#[mcp_tool]` and `#[mcp]`, in every form the DSL accepts.
#![deny(warnings)]

use mcp_tailor::{McpTool, RenderCtx, mcp_tool};

const SHORT: &str = "Search.";
mod texts {
    pub const RICH: &str = "Search the index for documents matching a full-text query.";
}

/// Search the index.
#[mcp_tool(
    allow(dead_variants),
    name = "search",
    title = [(verbosity(0..=4), "Search"), (verbosity([5, 6, 7, 8, 9]), "Search the index"), default = "Search", default_verbosity = 3],
    description = [
        (verbosity(2..=3), "Medium description."),
        (verbosity(0), SHORT),
        (verbosity([7, 9]), texts::RICH),
        (verbosity(5), concat!("Search", " the index.")),
        default = "Definitive fallback text",
        default_verbosity = 3,
    ],
    descriptions = [foo_bar = "foo bar", "hippo-5" = "hippo", codex_foobar = "codex foobar"],
    verbosity_map = [(0..=5, foo_bar), (verbosity(6), "hippo-5"), ([7, 8], codex_foobar)],
    runners = [
        ((grok, _), [(verbosity(0..=5), "hippo-5")]),
        ((codex, ["spark", "5.4"]), [default = codex_foobar]),
        (("claude-code", "opus"), [(verbosity(0), foo_bar), (verbosity(9), "hippo-5"), default = foo_bar]),
        ((_, spark), []),
    ],
    annotations(
        title = "Search",
        read_only_hint = true,
        destructive_hint = false,
        idempotent_hint = true,
        open_world_hint = false,
    ),
    scopes = ["index.read", "index.admin" | "root"],
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    /// The query.
    #[mcp(
        description = [(verbosity(0), "q"), (verbosity(9), "the full-text query")],
        descriptions = [g = "query (plain words)"],
        verbosity_map = [],
        runners = [((grok, _), [default = g])],
    )]
    pub query_text: String,
    /// Doc comment only.
    #[mcp()]
    pub page: Option<u32>,
    #[mcp(description = "bare text")]
    #[serde(rename = "k")]
    pub max_results: Option<u32>,
    pub untouched: Option<bool>,
}

/// A tool without arguments and with a bare attribute.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Ping {}

/// Empty lists everywhere.
#[mcp_tool(description = [], descriptions = [], verbosity_map = [], runners = [], scopes = [])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Empty {}

fn main() {
    let ctx = RenderCtx::new().runner("codex").model("spark").verbosity(2);
    // `(_, spark)` (exact model) outranks `(codex, [spark, "5.4"])`; it is empty, so the
    // vmap answers — the next-best rule is never tried.
    assert_eq!(Search::description(&ctx), Some("foo bar"));
    let ctx54 = RenderCtx::new().runner("codex").model("5.4");
    assert_eq!(Search::description(&ctx54), Some("codex foobar"));
    assert_eq!(Search::field_description("queryText", &ctx), Some("q"));
    assert_eq!(Search::field_description("page", &ctx), Some("Doc comment only."));
    assert_eq!(Search::field_description("k", &ctx), Some("bare text"));
    assert_eq!(Search::title(&ctx), Some("Search"));
    assert_eq!(Ping::NAME, "ping");
    assert_eq!(Ping::description(&ctx), Some("A tool without arguments and with a bare attribute."));
    // An explicit (empty) `description` replaces the doc comment.
    assert_eq!(Empty::description(&ctx), None);
    let _ = Search::render(&ctx);
}
