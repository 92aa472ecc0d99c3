//! Argument types: `#[mcp_args]` structs tailored wherever schemars puts them (`$defs`,
//! inline, behind `Option` and `Vec`), serialized names exactly as schemars writes them, and
//! an annotated field missing from the schema refused at registration and at first render.
#![allow(dead_code)]

use mcp_tailor::server::{BuildError, CallContext, Server};
use mcp_tailor::{McpArgs, McpTool, RenderCtx, mcp_args, mcp_tool};
use serde_json::Value;

/// A filter, referenced through `$defs`.
#[mcp_args]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Filter {
    /// Tag to match.
    #[mcp(
        description = [(verbosity(0), "tag"), (verbosity(9), "Only notes carrying this tag.")],
        descriptions = [grok_v = "tag (one word)"],
        runners = [((grok, _), [default = grok_v])],
    )]
    tag_name: String,
    /// Untailored: keeps what schemars wrote.
    limit: Option<u32>,
    /// Nested one level deeper.
    #[mcp(description = "When, as a range.")]
    range: Option<Range>,
}

/// A range, nested inside `Filter`.
#[mcp_args]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Range {
    #[mcp(description = [(verbosity(0), "from"), (verbosity(5..=9), "Start date, inclusive.")])]
    from: String,
}

/// Always inlined by schemars.
#[mcp_args]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[schemars(inline)]
struct Paging {
    /// Page size.
    #[mcp(description = [(verbosity(0), "size"), (verbosity(9), "How many results per page.")])]
    #[schemars(rename = "pageSize")]
    #[serde(rename = "page_size")]
    size: u32,
}

/// Search notes.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Search {
    /// The words.
    #[mcp(description = [(verbosity(0), "q"), (verbosity(9), "The words to look for.")])]
    query: String,
    filter: Filter,
    maybe: Option<Filter>,
    many: Vec<Filter>,
    paging: Paging,
}

fn at<'a>(tool: &'a Value, pointer: &str) -> &'a Value {
    tool.pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer} missing in {tool:#}"))
}

#[test]
fn nested_fields_are_tailored_in_defs_for_every_reader() {
    let cases = [
        (RenderCtx::new().verbosity(0), "tag", "from"),
        (
            RenderCtx::new().verbosity(9),
            "Only notes carrying this tag.",
            "Start date, inclusive.",
        ),
        (
            RenderCtx::new().runner("grok"),
            "tag (one word)",
            "Start date, inclusive.",
        ),
    ];
    for (ctx, tag, from) in cases {
        let tool = Search::render(&ctx);
        let filter = "/inputSchema/$defs/Filter/properties";
        assert_eq!(at(&tool, &format!("{filter}/tagName/description")), tag);
        assert_eq!(
            at(&tool, &format!("{filter}/limit/description")),
            "Untailored: keeps what schemars wrote."
        );
        assert_eq!(
            at(&tool, &format!("{filter}/range/description")),
            "When, as a range."
        );
        let range = "/inputSchema/$defs/Range/properties/from/description";
        assert_eq!(at(&tool, range), from);
        assert_eq!(Filter::field_description("tagName", &ctx), Some(tag));
    }
}

#[test]
fn option_and_vec_reach_the_same_definition() {
    let tool = Search::render(&RenderCtx::new().verbosity(0));
    let properties = at(&tool, "/inputSchema/properties");
    let text = properties.to_string();
    assert!(text.contains("#/$defs/Filter"), "{text}");
    assert_eq!(
        at(&tool, "/inputSchema/properties/many/items/$ref"),
        "#/$defs/Filter"
    );
    assert_eq!(at(&tool, "/inputSchema/properties/query/description"), "q");
}

#[test]
fn inline_argument_types_are_tailored_where_they_sit() {
    for (level, want) in [(0, "size"), (9, "How many results per page.")] {
        let tool = Search::render(&RenderCtx::new().verbosity(level));
        let pointer = "/inputSchema/properties/paging/properties/pageSize/description";
        assert_eq!(at(&tool, pointer), want);
    }
}

#[test]
fn no_marker_is_left_in_any_schema() {
    let def = Search::def();
    let text = def.input_schema().to_string();
    assert!(!text.contains("x-mcp-tailor"), "{text}");
    let tool = Search::render(&RenderCtx::new());
    assert!(!tool.to_string().contains("x-mcp-tailor"));
    // Another generator (an rmcp server's, say) sees the type's plain schema.
    let plain = schemars::schema_for!(Filter);
    assert!(!plain.as_value().to_string().contains("x-mcp-tailor"));
}

#[test]
fn the_schema_stays_static_and_the_tool_counts_as_tailored() {
    let def = Search::def();
    assert!(def.is_tailored());
    assert_eq!(def.argument_descriptions().count(), 1 + 2 + 1 + 1);
    let static_schema = def.input_schema().clone();
    let _ = Search::render(&RenderCtx::new().verbosity(0));
    assert_eq!(def.input_schema(), &static_schema);
}

/// `#[serde(skip)]` takes the field out of the schema: its `#[mcp]` text has nowhere to go.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Skips {
    #[mcp(description = "never seen")]
    #[serde(skip)]
    hidden: String,
    shown: String,
}

#[test]
fn an_annotated_field_missing_from_the_schema_is_an_error() {
    let missing = Skips::def().check_schema().unwrap_err();
    assert_eq!(
        (missing.tool, missing.field, missing.pointer.as_str()),
        ("skips", "hidden", "")
    );
    assert!(missing.to_string().contains("`hidden`"), "{missing}");
    let built = Server::builder()
        .tool(|_: Skips, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .build();
    assert_eq!(built.err(), Some(BuildError::MissingField(missing)));
    let render = std::panic::catch_unwind(|| Skips::render(&RenderCtx::new()));
    assert!(render.is_err());
}
