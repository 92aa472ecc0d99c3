//! Instructions from a static text or a provider, and every failure mode.

use crate::common::*;
use mcp_tailor::server::limits::MAX_INSTRUCTIONS;
use mcp_tailor::server::{Failure, FailureKind, Instructions};
use mcp_tailor::{Description, description};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn instructions_of(running: &Running) -> Option<String> {
    running
        .peer_info()
        .and_then(|info| info.instructions.clone())
}

#[tokio::test]
async fn provider_text_is_served_on_every_transport_and_era() {
    let server = abc(&Calls::default())
        .instructions("static text, never used")
        .instructions_provider(|info| async move {
            Instructions::Text(format!(
                "hello {}",
                info.client_name.clone().unwrap_or_default()
            ))
        })
        .build()
        .unwrap();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        assert_eq!(
            instructions_of(&client).as_deref(),
            Some("hello codex"),
            "{transport} {era:?}"
        );
    }
}

#[tokio::test]
async fn static_text_without_a_provider() {
    let server = abc(&Calls::default())
        .instructions("Use alpha first.")
        .build()
        .unwrap();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "x", era).await;
        assert_eq!(
            instructions_of(&client).as_deref(),
            Some("Use alpha first."),
            "{transport} {era:?}"
        );
    }
}

#[tokio::test]
async fn omit_sends_no_instructions_key() {
    let server = abc(&Calls::default())
        .instructions("static")
        .instructions_provider(|_| async { Instructions::Omit })
        .build()
        .unwrap();
    let mut raw = Raw::connect(&server);
    let response = raw.initialize(1, "codex").await;
    assert!(
        response["result"].get("instructions").is_none(),
        "{response}"
    );
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        assert_eq!(instructions_of(&client), None, "{transport} {era:?}");
    }
}

static GUIDE: Description = description!(
    description = [(verbosity(0), "terse guide"), (verbosity(9), "rich guide")],
    descriptions = [g = "grok guide"],
    runners = [((grok, _), [default = g])],
);

#[tokio::test]
async fn a_description_table_is_a_tailored_provider() {
    // The default verbosity may be set after the provider: it applies at request time.
    let server = abc(&Calls::default())
        .instructions_table(&GUIDE)
        .fallback_verbosity(0)
        .build()
        .unwrap();
    for (transport, era) in COMBOS {
        let codex = connect(&server, transport, "codex", era).await;
        let grok = connect(&server, transport, "grok", era).await;
        assert_eq!(
            instructions_of(&codex).as_deref(),
            Some("terse guide"),
            "{transport} {era:?}"
        );
        assert_eq!(
            instructions_of(&grok).as_deref(),
            Some("grok guide"),
            "{transport} {era:?}"
        );
    }
}

/// Every way a provider can fail, each giving `instructions_provider_failure` (or
/// `timeout`) with the raw cause reported, not sent; the next request still works.
#[tokio::test]
async fn provider_failures_are_controlled() {
    type Answer = Box<dyn Fn(usize) -> Instructions + Send + Sync>;
    let cases: Vec<(&str, Answer)> = vec![
        (
            "error",
            Box::new(|_| Instructions::Error("database down: secret detail".into())),
        ),
        ("empty", Box::new(|_| Instructions::Text(String::new()))),
        (
            "too long",
            Box::new(|_| Instructions::Text("x".repeat(MAX_INSTRUCTIONS + 1))),
        ),
        ("panic", Box::new(|_| panic!("provider bug: secret detail"))),
    ];
    for (label, answer) in cases {
        let failures = Arc::new(Mutex::new(Vec::<Failure>::new()));
        let seen = failures.clone();
        let count = Arc::new(AtomicUsize::new(0));
        let answer = Arc::new(answer);
        let server = abc(&Calls::default())
            .instructions("static, never a fallback")
            .instructions_provider(move |_| {
                let n = count.fetch_add(1, Ordering::SeqCst);
                let answer = answer.clone();
                // The first request fails; later ones get a valid text.
                async move {
                    if n == 0 {
                        answer(n)
                    } else {
                        Instructions::Text("ok".into())
                    }
                }
            })
            .reporter(move |f| seen.lock().unwrap().push(f.clone()))
            .build()
            .unwrap();
        let mut raw = Raw::connect(&server);
        let failed = raw.initialize(1, "codex").await;
        assert_eq!(failed["error"]["code"], -32603, "{label}: {failed}");
        assert_eq!(
            failed["error"]["data"]["reason"], "instructions_provider_failure",
            "{label}"
        );
        let text = failed.to_string();
        assert!(
            !text.contains("secret detail") && !text.contains("static, never"),
            "{label}: {text}"
        );
        let reported = failures.lock().unwrap().clone();
        assert_eq!(reported.len(), 1, "{label}");
        assert_eq!(reported[0].kind, FailureKind::Instructions, "{label}");
        // The connection was not negotiated; a second initialize on it succeeds.
        let ok = raw.initialize(2, "codex").await;
        assert_eq!(ok["result"]["instructions"], "ok", "{label}: {ok}");
        raw.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        let listed = raw.request(3, "tools/list", json!({})).await;
        assert_eq!(
            listed["result"]["tools"].as_array().map(Vec::len),
            Some(3),
            "{label}: {listed}"
        );
    }
}

#[tokio::test]
async fn a_slow_provider_times_out_and_the_next_request_works() {
    let count = Arc::new(AtomicUsize::new(0));
    let server = abc(&Calls::default())
        .request_deadline(Duration::from_millis(200))
        .instructions_provider(move |_| {
            let n = count.fetch_add(1, Ordering::SeqCst);
            async move {
                if n == 0 {
                    // Sleep: simulated work, a provider that hangs.
                    tokio::time::sleep(Duration::from_secs(30)).await;
                }
                Instructions::Text("fast now".into())
            }
        })
        .build()
        .unwrap();
    let mut raw = Raw::connect(&server);
    let failed = raw.initialize(1, "codex").await;
    assert_eq!(failed["error"]["code"], -32603);
    assert_eq!(
        failed["error"]["data"],
        json!({"reason": "instructions_provider_failure", "cause": "timeout"})
    );
    let ok = raw.initialize(2, "codex").await;
    assert_eq!(ok["result"]["instructions"], "fast now");
}

#[tokio::test]
async fn stateless_discover_failures_are_controlled_too() {
    let server = abc(&Calls::default())
        .instructions_provider(|info| async move {
            match info.client_name.as_deref() {
                Some("broken") => Instructions::Error("no".into()),
                _ => Instructions::Text("fine".into()),
            }
        })
        .build()
        .unwrap();
    let mut raw = Raw::connect(&server);
    let discover = |id: u64, name: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "server/discover", "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": name, "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }}})
    };
    raw.send(discover(1, "broken")).await;
    let failed = raw.response(1).await;
    assert_eq!(
        failed["error"]["data"]["reason"], "instructions_provider_failure",
        "{failed}"
    );
    raw.send(discover(2, "codex")).await;
    let ok = raw.response(2).await;
    assert_eq!(ok["result"]["instructions"], "fine", "{ok}");
}

#[tokio::test]
async fn per_principal_text_is_seen_only_by_that_principal() {
    let server = abc(&Calls::default())
        .instructions_provider(|info| async move {
            Instructions::Text(format!("for {}", info.principal.id))
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let (alice, _) = http(addr, "codex", era, &[("x-test-principal", "alice")]).await;
        let (bob, _) = http(addr, "codex", era, &[("x-test-principal", "bob")]).await;
        assert_eq!(instructions_of(&alice).as_deref(), Some("for alice"));
        assert_eq!(instructions_of(&bob).as_deref(), Some("for bob"));
    }
}

#[tokio::test]
async fn over_http_a_failed_initialize_leaves_room_for_the_next() {
    let count = Arc::new(AtomicUsize::new(0));
    let server = abc(&Calls::default())
        .instructions_provider(move |_| {
            let n = count.fetch_add(1, Ordering::SeqCst);
            async move {
                if n == 0 {
                    Instructions::Error("first".into())
                } else {
                    Instructions::Text("second".into())
                }
            }
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    let failed = try_http(addr, "codex", Opening::SessionBound, &[]).await;
    let error = failed.err().expect("the first handshake fails").to_string();
    assert!(error.contains("instructions provider failure"), "{error}");
    let (client, _) = http(addr, "codex", Opening::SessionBound, &[]).await;
    assert_eq!(instructions_of(&client).as_deref(), Some("second"));
    assert_eq!(
        list(&client, None, json!({})).await.unwrap()["tools"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}
