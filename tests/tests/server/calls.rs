//! `tools/call`: typed arguments, bad ones a tool execution error the model reads
//! (SEP-1303), tool errors for the model, a panicking handler contained; building rejects
//! duplicate names and bad metadata.

use crate::common::*;
use mcp_tailor::server::{BuildError, CallContext, Server, ToolRegistration};
use serde_json::json;

#[tokio::test]
async fn arguments_are_deserialized_and_bad_ones_are_tool_errors_the_model_reads() {
    let calls = Calls::default();
    let server = abc(&calls).build().unwrap();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        let ok = call(&client, "alpha", json!({"word": "hello"}))
            .await
            .unwrap();
        assert_eq!(ok["structuredContent"], json!({"echo": "hello"}));
        for (bad, why) in [
            (json!({}), "missing field `word`"),
            (
                json!({"word": 5}),
                "invalid type: integer `5`, expected a string",
            ),
            (json!({"word": ["a"]}), "invalid type: sequence"),
        ] {
            let result = call(&client, "alpha", bad.clone()).await.unwrap();
            assert_eq!(result["isError"], true, "{bad} on {transport} {era:?}");
            let text = result["content"][0]["text"].as_str().unwrap();
            assert!(
                text.starts_with("invalid arguments for tool `alpha`: "),
                "{text}"
            );
            assert!(text.contains(why), "{text}");
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
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
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
        BuildError::DuplicateName("alpha".into())
    );
    let bad_icons = Server::builder()
        .register(
            ToolRegistration::new(|_: Bravo, _| async { Ok::<_, String>(json!({})) })
                .icons(json!([{"src": "/x.png"}])),
        )
        .build();
    assert!(matches!(bad_icons, Err(BuildError::Icons { .. })));
    let bad_meta = Server::builder()
        .register(
            ToolRegistration::new(|_: Bravo, _| async { Ok::<_, String>(json!({})) })
                .meta(json!({"dev.mcp/x": 1})),
        )
        .build();
    assert!(matches!(bad_meta, Err(BuildError::Meta { .. })));
}
