//! Paging over alpha, bravo, charlie with signed, bound, expiring cursors.

use crate::common::*;
use base64::Engine as _;
use mcp_tailor::server::Presentation;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn names(result: &Value) -> Vec<&str> {
    result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

fn next(result: &Value) -> String {
    result["nextCursor"]
        .as_str()
        .expect("a next cursor")
        .to_owned()
}

#[tokio::test]
async fn pages_of_one_with_reusable_cursors_on_every_transport() {
    let server = abc(&Calls::default()).page_size(1).build().unwrap();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        let page1 = list(&client, None, json!({})).await.unwrap();
        assert_eq!(names(&page1), ["alpha"], "{transport} {era:?}");
        let cursor = next(&page1);
        for _ in 0..2 {
            let page2 = list(&client, Some(&cursor), json!({})).await.unwrap();
            assert_eq!(names(&page2), ["bravo"], "{transport} {era:?}");
        }
        let page2 = list(&client, Some(&cursor), json!({})).await.unwrap();
        let page3 = list(&client, Some(&next(&page2)), json!({})).await.unwrap();
        assert_eq!(names(&page3), ["charlie"]);
        assert!(page3.get("nextCursor").is_none());
    }
}

#[tokio::test]
async fn another_principal_cannot_use_a_cursor() {
    let server = abc(&Calls::default()).page_size(1).build().unwrap();
    let addr = http_server(&server).await;
    let (alice, _) = http(
        addr,
        "codex",
        Opening::SessionBound,
        &[("x-test-principal", "alice")],
    )
    .await;
    let (bob, _) = http(
        addr,
        "codex",
        Opening::SessionBound,
        &[("x-test-principal", "bob")],
    )
    .await;
    let cursor = next(&list(&alice, None, json!({})).await.unwrap());
    let error = list(&bob, Some(&cursor), json!({})).await.unwrap_err();
    assert_eq!((error.code.0, reason(&error)), (-32602, "invalid_cursor"));
    assert_eq!(
        names(&list(&alice, Some(&cursor), json!({})).await.unwrap()),
        ["bravo"]
    );
}

#[tokio::test]
async fn a_cursor_dies_when_the_presentation_changes() {
    let version = Arc::new(AtomicUsize::new(0));
    let current = version.clone();
    let server = abc(&Calls::default())
        .page_size(1)
        .presentation(move |tool, _| {
            let n = current.load(Ordering::SeqCst);
            async move {
                if tool["name"] == "charlie" && n > 0 {
                    Presentation::Overrides(
                        json!({"title": format!("Charlie v{n}")})
                            .as_object()
                            .unwrap()
                            .clone(),
                    )
                } else {
                    Presentation::Default
                }
            }
        })
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    let cursor = next(&list(&client, None, json!({})).await.unwrap());
    version.store(1, Ordering::SeqCst);
    let error = list(&client, Some(&cursor), json!({})).await.unwrap_err();
    assert_eq!(reason(&error), "invalid_cursor");
    let fresh = list(&client, None, json!({})).await.unwrap();
    assert_eq!(
        names(&list(&client, Some(&next(&fresh)), json!({})).await.unwrap()),
        ["bravo"]
    );
}

#[tokio::test]
async fn a_cursor_is_bound_to_the_reader_when_tailoring_is_active() {
    let server = abc(&Calls::default()).page_size(1).build().unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    let cursor = next(&list(&client, None, json!({})).await.unwrap());
    let error = list(
        &client,
        Some(&cursor),
        json!({"mcp-tailor.dev/runner": "grok"}),
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&error), "invalid_cursor");
}

#[tokio::test]
async fn tampered_truncated_expired_and_foreign_cursors_are_refused() {
    let server = abc(&Calls::default())
        .page_size(1)
        .cursor_secret(b"one".repeat(11))
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    let cursor = next(&list(&client, None, json!({})).await.unwrap());
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let raw = engine.decode(&cursor).unwrap();
    let mut bad = Vec::new();
    for i in [0, 3, 10, raw.len() / 2, raw.len() - 1] {
        let mut flipped = raw.clone();
        flipped[i] ^= 0x01;
        bad.push(engine.encode(flipped));
    }
    bad.push(cursor[..cursor.len() - 1].to_owned());
    bad.push(cursor[..10].to_owned());
    bad.push(String::new());
    bad.push("%%%".to_owned());
    for cursor in &bad {
        let error = list(&client, Some(cursor), json!({})).await.unwrap_err();
        assert_eq!(reason(&error), "invalid_cursor", "{cursor}");
    }
    // Another server secret.
    let other = abc(&Calls::default())
        .page_size(1)
        .cursor_secret(b"two".repeat(11))
        .build()
        .unwrap();
    let other_client = connect(&other, "stdio", "codex", Opening::SessionBound).await;
    assert_eq!(
        reason(
            &list(&other_client, Some(&cursor), json!({}))
                .await
                .unwrap_err()
        ),
        "invalid_cursor"
    );
    // The same secret on another replica accepts it.
    let replica = abc(&Calls::default())
        .page_size(1)
        .cursor_secret(b"one".repeat(11))
        .build()
        .unwrap();
    let replica_client = connect(&replica, "stdio", "codex", Opening::SessionBound).await;
    assert_eq!(
        names(
            &list(&replica_client, Some(&cursor), json!({}))
                .await
                .unwrap()
        ),
        ["bravo"]
    );
    // Expiry.
    let short = abc(&Calls::default())
        .page_size(1)
        .cursor_ttl(Duration::from_millis(50))
        .build()
        .unwrap();
    let short_client = connect(&short, "stdio", "codex", Opening::SessionBound).await;
    let cursor = next(&list(&short_client, None, json!({})).await.unwrap());
    // Sleep: time passing is what is tested (past the cursor's 50 ms).
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(
        reason(
            &list(&short_client, Some(&cursor), json!({}))
                .await
                .unwrap_err()
        ),
        "invalid_cursor"
    );
}
