//! `tools/call`: typed arguments, clean `-32602` for bad ones, tool errors for the model,
//! a panicking handler contained; building rejects duplicate names and bad metadata.

use crate::common::*;
use mcp_tailor::server::{CallContext, CatalogError, Server, ToolRegistration};
use serde_json::json;

#[tokio::test]
async fn arguments_are_deserialized_and_bad_ones_are_invalid_params() {
    let calls = Calls::default();
    let server = abc(&calls).build().unwrap();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        let ok = call(&client, "alpha", json!({"word": "hello"}))
            .await
            .unwrap();
        assert_eq!(ok["structuredContent"], json!({"echo": "hello"}));
        for bad in [json!({}), json!({"word": 5}), json!({"word": ["a"]})] {
            let error = call(&client, "alpha", bad.clone()).await.unwrap_err();
            assert_eq!(error.code.0, -32602, "{bad}");
            assert_eq!(reason(&error), "invalid_arguments", "{bad}");
        }
    }
    assert_eq!(calls.get(), 4, "bad arguments never reach the handler");
}

/// A tool whose handler fails or panics.
#[mcp_tailor::mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Fragile {
    mode: String,
}

#[tokio::test]
async fn handler_errors_reach_the_model_and_panics_are_contained() {
    let server = abc(&Calls::default())
        .tool(|args: Fragile, _: CallContext| async move {
            match args.mode.as_str() {
                "panic" => panic!("handler bug"),
                "fail" => Err("the note does not exist".to_owned()),
                _ => Ok(json!({"ok": true})),
            }
        })
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Era::Legacy).await;
    let failed = call(&client, "fragile", json!({"mode": "fail"}))
        .await
        .unwrap();
    assert_eq!(failed["isError"], true);
    assert_eq!(failed["content"][0]["text"], "the note does not exist");
    let error = call(&client, "fragile", json!({"mode": "panic"}))
        .await
        .unwrap_err();
    assert_eq!(
        (error.code.0, reason(&error)),
        (-32603, "tool_handler_failure")
    );
    assert_eq!(
        call(&client, "fragile", json!({"mode": "ok"}))
            .await
            .unwrap()["structuredContent"]["ok"],
        true
    );
}

#[test]
fn duplicate_names_and_bad_metadata_are_rejected_at_build() {
    let twice = abc(&Calls::default())
        .tool(|_: Alpha, _: CallContext| async { Ok::<_, String>(json!({})) })
        .build();
    assert_eq!(
        twice.unwrap_err(),
        CatalogError::DuplicateName("alpha".into())
    );
    let bad_icons = Server::builder()
        .register(
            ToolRegistration::new(|_: Bravo, _| async { Ok::<_, String>(json!({})) })
                .icons(json!([{"src": "/x.png"}])),
        )
        .build();
    assert!(matches!(bad_icons, Err(CatalogError::Icons { .. })));
    let bad_meta = Server::builder()
        .register(
            ToolRegistration::new(|_: Bravo, _| async { Ok::<_, String>(json!({})) })
                .meta(json!({"dev.mcp/x": 1})),
        )
        .build();
    assert!(matches!(bad_meta, Err(CatalogError::Meta { .. })));
}
