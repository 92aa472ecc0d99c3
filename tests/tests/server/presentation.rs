//! Per-request presentation overrides, and every invalid one failing the
//! whole listing while calls and the registered definitions stay as they were.

use crate::common::*;
use mcp_tailor::server::{Failure, FailureKind, Presentation, ToolRegistration};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

fn overrides(value: Value) -> Presentation {
    Presentation::Overrides(value.as_object().cloned().unwrap_or_else(Map::new))
}

fn with_alpha_meta(calls: &Calls) -> mcp_tailor::server::ServerBuilder {
    abc(calls).register(
        ToolRegistration::new(|_: Extra, _| async { Ok::<_, String>(json!({})) })
            .meta(json!({"com.example/registered": 1, "com.example/overridden": "registered"}))
            .icons(json!([{"src": "https://example.com/registered.png"}])),
    )
}

/// A tool with registered `_meta` and icons.
#[mcp_tailor::mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Extra {}

#[tokio::test]
async fn per_principal_overrides_are_applied_and_merged() {
    let server = with_alpha_meta(&Calls::default())
        .presentation(|tool, info| async move {
            if tool["name"] != "extra" || info.principal.id != "alice" {
                return Presentation::Default;
            }
            overrides(json!({
                "title": "Alice's extra",
                "description": "Presented for Alice.",
                "icons": [{"src": "https://example.com/alice.png", "theme": "dark"}],
                "_meta": {"com.example/overridden": "alice", "com.example/added": true},
            }))
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let (alice, _) = http(addr, "codex", era, &[("x-test-principal", "alice")]).await;
        let (bob, _) = http(addr, "codex", era, &[("x-test-principal", "bob")]).await;
        let a = by_name(&list(&alice, None, json!({})).await.unwrap())["extra"].clone();
        let b = by_name(&list(&bob, None, json!({})).await.unwrap())["extra"].clone();
        assert_eq!(a["title"], "Alice's extra");
        assert_eq!(a["description"], "Presented for Alice.");
        assert_eq!(
            a["icons"],
            json!([{"src": "https://example.com/alice.png", "theme": "dark"}])
        );
        assert_eq!(
            a["_meta"],
            json!({"com.example/registered": 1, "com.example/overridden": "alice", "com.example/added": true})
        );
        assert_eq!(
            b["description"],
            "A tool with registered `_meta` and icons."
        );
        assert_eq!(
            b["_meta"],
            json!({"com.example/registered": 1, "com.example/overridden": "registered"})
        );
        assert_eq!(
            b["icons"],
            json!([{"src": "https://example.com/registered.png"}])
        );
    }
}

#[tokio::test]
async fn empty_overrides_and_default_change_nothing() {
    let plain = with_alpha_meta(&Calls::default()).build().unwrap();
    let client = connect(&plain, "stdio", "codex", Opening::SessionBound).await;
    let reference = list(&client, None, json!({})).await.unwrap();
    for answer in [Presentation::Default, overrides(json!({}))] {
        let server = with_alpha_meta(&Calls::default())
            .presentation(move |_, _| {
                let answer = answer.clone();
                async move { answer }
            })
            .build()
            .unwrap();
        let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
        assert_eq!(list(&client, None, json!({})).await.unwrap(), reference);
    }
}

#[tokio::test]
async fn every_invalid_presentation_fails_the_whole_list() {
    let deep = (0..70).fold(json!(1), |inner, _| json!({ "a": inner }));
    let invalid: Vec<(&str, Presentation)> = vec![
        ("name", overrides(json!({"name": "renamed"}))),
        ("inputSchema", overrides(json!({"inputSchema": {}}))),
        ("outputSchema", overrides(json!({"outputSchema": {}}))),
        (
            "annotations",
            overrides(json!({"annotations": {"readOnlyHint": true}})),
        ),
        ("execution", overrides(json!({"execution": {}}))),
        ("handler", overrides(json!({"handler": "x"}))),
        ("unknown key", overrides(json!({"com.example/unknown": 1}))),
        (
            "reserved meta prefix",
            overrides(json!({"_meta": {"io.modelcontextprotocol/serverInfo": {}}})),
        ),
        (
            "reserved mcp label",
            overrides(json!({"_meta": {"dev.mcp/flag": true}})),
        ),
        (
            "progressToken",
            overrides(json!({"_meta": {"progressToken": 1}})),
        ),
        (
            "traceparent",
            overrides(json!({"_meta": {"traceparent": "00"}})),
        ),
        ("_private", overrides(json!({"_meta": {"_private": 1}}))),
        ("meta not an object", overrides(json!({"_meta": "x"}))),
        (
            "meta too deep",
            overrides(json!({"_meta": {"com.example/deep": deep}})),
        ),
        (
            "javascript icon",
            overrides(json!({"icons": [{"src": "javascript:alert(1)"}]})),
        ),
        (
            "ftp icon",
            overrides(json!({"icons": [{"src": "ftp://example.com/i.png"}]})),
        ),
        (
            "html mime",
            overrides(
                json!({"icons": [{"src": "https://example.com/i.png", "mimeType": "text/html"}]}),
            ),
        ),
        ("empty title", overrides(json!({"title": ""}))),
        (
            "blank description",
            overrides(json!({"description": "   "})),
        ),
        ("callback error", Presentation::Error("secret cause".into())),
    ];
    for (label, answer) in invalid {
        let failures = Arc::new(Mutex::new(Vec::<Failure>::new()));
        let seen = failures.clone();
        let calls = Calls::default();
        let server = with_alpha_meta(&calls)
            .presentation(move |tool, _| {
                let answer = if tool["name"] == "bravo" {
                    answer.clone()
                } else {
                    Presentation::Default
                };
                async move { answer }
            })
            .reporter(move |f| seen.lock().unwrap().push(f.clone()))
            .build()
            .unwrap();
        for (transport, era) in COMBOS {
            let client = connect(&server, transport, "codex", era).await;
            let error = list(&client, None, json!({})).await.unwrap_err();
            assert_eq!(error.code.0, -32603, "{label}");
            assert_eq!(
                reason(&error),
                "tool_presentation_failure",
                "{label} {transport} {era:?}"
            );
            let text = serde_json::to_string(&error).unwrap();
            assert!(
                !text.contains("secret cause") && !text.contains("alpha"),
                "{label}: {text}"
            );
            // Calls keep working, and go by the registered definitions.
            assert_eq!(
                call(&client, "alpha", json!({"word": "hi"})).await.unwrap()["structuredContent"]["echo"],
                "hi"
            );
        }
        assert!(
            failures
                .lock()
                .unwrap()
                .iter()
                .all(|f| f.kind == FailureKind::Presentation),
            "{label}"
        );
        assert_eq!(calls.get(), 4, "{label}");
    }
}

#[tokio::test]
async fn a_panicking_callback_fails_the_list_and_the_server_keeps_serving() {
    let server = abc(&Calls::default())
        .presentation(|_, info| async move {
            if info.principal.id == "boom" {
                panic!("presentation bug");
            }
            Presentation::Default
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    let (boom, _) = http(
        addr,
        "codex",
        Opening::SessionBound,
        &[("x-test-principal", "boom")],
    )
    .await;
    let (fine, _) = http(
        addr,
        "codex",
        Opening::SessionBound,
        &[("x-test-principal", "fine")],
    )
    .await;
    assert_eq!(
        reason(&list(&boom, None, json!({})).await.unwrap_err()),
        "tool_presentation_failure"
    );
    assert_eq!(
        list(&fine, None, json!({})).await.unwrap()["tools"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        reason(&list(&boom, None, json!({})).await.unwrap_err()),
        "tool_presentation_failure"
    );
}

#[tokio::test]
async fn a_slow_callback_is_a_presentation_failure_caused_by_timeout() {
    let server = abc(&Calls::default())
        .request_deadline(std::time::Duration::from_millis(200))
        .presentation(|_, info| async move {
            if info.principal.id == "slow" {
                // Sleep: simulated work, a callback that hangs.
                tokio::time::sleep(std::time::Duration::from_secs(30)).await;
            }
            Presentation::Default
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let (slow, _) = http(addr, "codex", era, &[("x-test-principal", "slow")]).await;
        let error = list(&slow, None, json!({})).await.unwrap_err();
        assert_eq!(error.code.0, -32603, "{era:?}");
        assert_eq!(
            error.data,
            Some(json!({"reason": "tool_presentation_failure", "cause": "timeout"})),
            "{era:?}"
        );
        let (fine, _) = http(addr, "codex", era, &[("x-test-principal", "fine")]).await;
        assert!(list(&fine, None, json!({})).await.is_ok(), "{era:?}");
    }
}

#[tokio::test]
async fn registered_definitions_never_change() {
    let server = abc(&Calls::default())
        .presentation(|tool, _| async move {
            if tool["name"] == "alpha" {
                overrides(json!({"description": "presented"}))
            } else {
                Presentation::Default
            }
        })
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    for _ in 0..2 {
        assert_eq!(
            by_name(&list(&client, None, json!({})).await.unwrap())["alpha"]["description"],
            "presented"
        );
    }
    let alpha = server.tools().find(|t| t.name() == "alpha").unwrap();
    assert_eq!(alpha.description().definitive(), None);
    assert_eq!(alpha.description().texts().len(), 4);
    assert!(alpha.description().texts().all(|t| t != "presented"));
}
