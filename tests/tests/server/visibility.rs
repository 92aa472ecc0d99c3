//! Visibility: scopes and `authorize` decide visibility before presentation; `tools/call`
//! checks eligibility on its own; hidden and unknown tools are both `unknown_tool`.

use crate::common::*;
use mcp_tailor::server::{CallContext, Presentation, Principal, ToolRegistration};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

fn names(result: &serde_json::Value) -> Vec<String> {
    result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn scopes_hide_tools_from_callers_without_them() {
    let calls = Calls::default();
    let counter = calls.clone();
    let server = abc(&calls)
        .tool(move |_: Secret, _: CallContext| {
            counter.0.fetch_add(1, Ordering::SeqCst);
            async { Ok::<_, String>(json!({"secret": 42})) }
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let before = calls.get();
        let (plain, _) = http(addr, "codex", era, &[("x-test-principal", "p")]).await;
        assert_eq!(
            names(&list(&plain, None, json!({})).await.unwrap()),
            ["alpha", "bravo", "charlie"]
        );
        let error = call(&plain, "secret", json!({})).await.unwrap_err();
        assert_eq!(reason(&error), "unknown_tool");
        assert_eq!(error.code.0, -32602);
        assert_eq!(error.data.as_ref().unwrap()["name"], "secret");
        assert_eq!(calls.get(), before, "the handler did not run");

        let (admin, _) = http(
            addr,
            "codex",
            era,
            &[("x-test-principal", "a"), ("x-test-scopes", "admin")],
        )
        .await;
        assert!(
            names(&list(&admin, None, json!({})).await.unwrap()).contains(&"secret".to_owned())
        );
        assert_eq!(
            call(&admin, "secret", json!({})).await.unwrap()["structuredContent"]["secret"],
            42
        );
    }
    let unknown = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    assert_eq!(
        reason(&call(&unknown, "nope", json!({})).await.unwrap_err()),
        "unknown_tool"
    );
    let stdio_admin = abc(&Calls::default())
        .tool(|_: Secret, _: CallContext| async { Ok::<_, String>(json!({})) })
        .default_principal(Principal::new("me").with_scopes(["secret.read"]))
        .build()
        .unwrap();
    let client = connect(&stdio_admin, "stdio", "codex", Opening::SessionBound).await;
    assert!(names(&list(&client, None, json!({})).await.unwrap()).contains(&"secret".to_owned()));
}

#[tokio::test]
async fn hidden_tools_never_reach_presentation_and_revoking_authorize_hides_at_once() {
    let allowed = Arc::new(AtomicBool::new(false));
    let gate = allowed.clone();
    let presented = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = presented.clone();
    let server = abc(&Calls::default())
        .tool(|_: Secret, _: CallContext| async { Ok::<_, String>(json!({})) })
        .register(
            ToolRegistration::new(|_: Gated, _: CallContext| async {
                Ok::<_, String>(json!({"gated": true}))
            })
            .authorize(move |_, _| {
                let allowed = gate.load(Ordering::SeqCst);
                async move { allowed }
            }),
        )
        .register(
            ToolRegistration::new(|_: Broken, _: CallContext| async { Ok::<_, String>(json!({})) })
                .authorize(|_, _| async { panic!("authorize bug") }),
        )
        .presentation(move |tool, _| {
            seen.lock()
                .unwrap()
                .push(tool["name"].as_str().unwrap().to_owned());
            async { Presentation::Default }
        })
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    assert_eq!(
        names(&list(&client, None, json!({})).await.unwrap()),
        ["alpha", "bravo", "charlie"]
    );
    assert_eq!(*presented.lock().unwrap(), ["alpha", "bravo", "charlie"]);
    assert_eq!(
        reason(&call(&client, "gated", json!({})).await.unwrap_err()),
        "unknown_tool"
    );
    assert_eq!(
        reason(&call(&client, "broken", json!({})).await.unwrap_err()),
        "unknown_tool"
    );

    allowed.store(true, Ordering::SeqCst);
    assert!(names(&list(&client, None, json!({})).await.unwrap()).contains(&"gated".to_owned()));
    assert_eq!(
        call(&client, "gated", json!({})).await.unwrap()["structuredContent"]["gated"],
        true
    );

    allowed.store(false, Ordering::SeqCst);
    assert!(!names(&list(&client, None, json!({})).await.unwrap()).contains(&"gated".to_owned()));
    assert_eq!(
        reason(&call(&client, "gated", json!({})).await.unwrap_err()),
        "unknown_tool"
    );
}

/// Visible only when `authorize` says so.
#[mcp_tailor::mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Gated {}

/// Its `authorize` panics: hidden, and the server keeps serving.
#[mcp_tailor::mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Broken {}

/// The index surface shows no more than the catalog would: a hidden tool is in no line,
/// no search answer, and `call_tool` naming it is `unknown_tool` with no schema (an
/// attacker probing by name learns nothing the listing hides).
#[tokio::test]
async fn the_index_surface_hides_what_the_catalog_hides() {
    use mcp_tailor::inspect::IndexFinder;
    use mcp_tailor::server::{IndexSurface, Surface};
    let calls = Calls::default();
    let index = IndexSurface::new(IndexFinder::new(Vec::new())).default_surface(Surface::Index);
    let server = abc(&calls)
        .tool(|_: Secret, _: CallContext| async { Ok::<_, String>(json!({"secret": 42})) })
        .index(index)
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    let listed = list(&client, None, json!({})).await.unwrap();
    assert_eq!(names(&listed), ["search_tools", "call_tool"]);
    let index = listed["tools"][0]["description"].as_str().unwrap();
    assert!(
        index.contains("alpha") && !index.contains("secret"),
        "{index}"
    );
    let found = call(
        &client,
        "search_tools",
        json!({"query": "secret", "limit": 50}),
    )
    .await
    .unwrap();
    assert!(!found.to_string().contains("\"secret"), "{found}");
    let probe = json!({"name": "secret", "arguments": {"wrong": true}});
    let error = call(&client, "call_tool", probe).await.unwrap_err();
    assert_eq!(reason(&error), "unknown_tool");
    assert!(error.data.as_ref().unwrap().get("inputSchema").is_none());
    assert_eq!(calls.get(), 0, "no handler ran");
}
