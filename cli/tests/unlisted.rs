//! An upstream that completes the handshake but answers `tools/list` with an error (npm
//! `@supabase/mcp-server-supabase` does, without its service: `-32603 fetch failed`):
//! `inspect` says so in those terms, and `proxy` serves it all the same, passing the error
//! on to its clients as the upstream wrote it.

mod common;

use common::BIN;
use serde_json::json;
use tokio::process::Command;

/// A stdio MCP server in `sh`: it answers `tools/list` with an error.
fn unlisted() -> String {
    let error =
        r#"'{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"fetch failed"}}\n' "$id""#;
    common::sh_server("unlisted", &[(r#"*'"method":"tools/list"'*"#, error)])
}

#[tokio::test(flavor = "multi_thread")]
async fn inspect_says_the_listing_failed_not_the_handshake() {
    let output = Command::new(BIN)
        .args(["inspect", "list", "--", "sh", "-c", &unlisted()])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let said = "could not list its tools: it answered tools/list with error -32603: fetch failed";
    assert!(stderr.contains(said), "{stderr}");
    assert!(!stderr.contains("handshake"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn proxy_serves_an_upstream_whose_listing_fails_and_passes_the_error_on() {
    let proxy = common::spawned(common::proxy_of(&["sh", "-c", &unlisted()])).await;
    let session = common::RawSession::open(&common::url(&proxy)).await;
    let answer = session
        .ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "fetch failed"}})
    );
    let stderr = proxy.ended().await;
    assert!(
        stderr.contains("could not list its tools: it answered tools/list with error -32603"),
        "{stderr}"
    );
    // An error answer passed on is no failure of the proxy's: rmcp's line for each (its
    // types' `Debug`) is not logged.
    assert!(!stderr.contains("response error"), "{stderr}");
}
