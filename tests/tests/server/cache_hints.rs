//! Cache hints and icons per revision: `ttlMs`/`cacheScope` on 2026-07-28 results, none on older ones, and icons
//! dropped for 2025-06-18.

use crate::common::*;
use mcp_tailor::server::{CallContext, Instructions, Presentation, ToolRegistration};
use serde_json::json;
use std::time::Duration;

/// A bare tool, the same for every reader.
#[mcp_tailor::mcp_tool(description = "Static.")]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Plain {}

fn plain() -> mcp_tailor::server::ServerBuilder {
    mcp_tailor::server::Server::builder()
        .tool(|_: Plain, _: CallContext| async { Ok::<_, String>(json!({})) })
}

#[tokio::test]
async fn stateless_results_are_private_and_immediately_stale_when_tailored() {
    let server = abc(&Calls::default()).build().unwrap();
    for transport in ["stdio", "http"] {
        let client = connect(&server, transport, "codex", Opening::Stateless).await;
        let result = list(&client, None, json!({})).await.unwrap();
        assert_eq!(
            (result["cacheScope"].clone(), result["ttlMs"].clone()),
            (json!("private"), json!(0)),
            "{transport}"
        );
        let session_bound = connect(&server, transport, "codex", Opening::SessionBound).await;
        let result = list(&session_bound, None, json!({})).await.unwrap();
        assert!(
            result.get("ttlMs").is_none() && result.get("cacheScope").is_none(),
            "{transport}: {result}"
        );
    }
}

#[tokio::test]
async fn an_untailored_catalog_is_public_and_a_host_ttl_is_kept() {
    let server = plain().list_ttl(Duration::from_secs(60)).build().unwrap();
    let client = connect(&server, "stdio", "codex", Opening::Stateless).await;
    let result = list(&client, None, json!({})).await.unwrap();
    assert_eq!(
        (result["cacheScope"].clone(), result["ttlMs"].clone()),
        (json!("public"), json!(60_000))
    );

    let tailored = abc(&Calls::default())
        .list_ttl(Duration::from_secs(60))
        .build()
        .unwrap();
    let client = connect(&tailored, "stdio", "codex", Opening::Stateless).await;
    let result = list(&client, None, json!({})).await.unwrap();
    assert_eq!(
        (result["cacheScope"].clone(), result["ttlMs"].clone()),
        (json!("private"), json!(60_000))
    );
}

#[tokio::test]
async fn a_provider_or_presentation_makes_even_a_bare_catalog_private() {
    let with_provider = plain()
        .instructions_provider(|_| async { Instructions::Omit })
        .build()
        .unwrap();
    let with_presentation = plain()
        .presentation(|_, _| async { Presentation::Default })
        .build()
        .unwrap();
    for server in [with_provider, with_presentation] {
        let client = connect(&server, "stdio", "codex", Opening::Stateless).await;
        let result = list(&client, None, json!({})).await.unwrap();
        assert_eq!(
            (result["cacheScope"].clone(), result["ttlMs"].clone()),
            (json!("private"), json!(0))
        );
    }
}

#[tokio::test]
async fn a_page_with_a_next_cursor_never_outlives_the_cursor() {
    let server = abc(&Calls::default())
        .page_size(1)
        .list_ttl(Duration::from_secs(3600))
        .cursor_ttl(Duration::from_secs(30))
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::Stateless).await;
    let page1 = list(&client, None, json!({})).await.unwrap();
    assert_eq!(page1["ttlMs"], 30_000);
    let page3 = list(
        &client,
        Some(page1["nextCursor"].as_str().unwrap()),
        json!({}),
    )
    .await
    .unwrap();
    let page3 = list(
        &client,
        Some(page3["nextCursor"].as_str().unwrap()),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(
        page3["ttlMs"], 3_600_000,
        "the last page has no cursor to outlive"
    );
}

#[tokio::test]
async fn icons_are_dropped_for_2025_06_18() {
    let server = plain()
        .register(
            ToolRegistration::new(|_: WithIcon, _| async { Ok::<_, String>(json!({})) })
                .icons(json!([{"src": "https://example.com/i.png", "sizes": ["48x48"]}])),
        )
        .build()
        .unwrap();
    let mut raw = Raw::connect(&server);
    let init = raw
        .request(1, "initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "old", "version": "1"}}))
        .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
    let listed = raw.request(2, "tools/list", json!({})).await;
    let tool = &listed["result"]["tools"][1];
    assert_eq!(tool["name"], "with_icon");
    assert!(tool.get("icons").is_none(), "{tool}");

    let client = connect(&server, "stdio", "new", Opening::SessionBound).await;
    let listed = list(&client, None, json!({})).await.unwrap();
    assert_eq!(
        by_name(&listed)["with_icon"]["icons"][0]["src"],
        "https://example.com/i.png"
    );
}

/// A tool with an icon.
#[mcp_tailor::mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct WithIcon {}
