//! The reader of each request — client name through aliases, headers, `_meta`,
//! a host callback, and a session's own choice (with `tools/list_changed`).

use crate::common::*;
use mcp_tailor::server::Reader;
use mcp_tailor::server::wire::{META_RUNNER, META_VERBOSITY, SET_READER_METHOD};
use serde_json::json;
use std::time::Duration;

fn alpha(result: &serde_json::Value) -> String {
    by_name(result)["alpha"]["description"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

fn structure(mut tool: serde_json::Value) -> serde_json::Value {
    for prop in tool["inputSchema"]["properties"]
        .as_object_mut()
        .unwrap()
        .values_mut()
    {
        prop.as_object_mut().unwrap().remove("description");
    }
    tool["inputSchema"].take()
}

#[tokio::test]
async fn codex_and_grok_read_different_words_and_identical_schemas() {
    let server = abc(&Calls::default()).build().unwrap();
    for (transport, era) in COMBOS {
        let codex = connect(&server, transport, "codex", era).await;
        let grok = connect(&server, transport, "Grok-CLI", era).await;
        let other = connect(&server, transport, "some-client", era).await;
        let (c, g, o) = (
            list(&codex, None, json!({})).await.unwrap(),
            list(&grok, None, json!({})).await.unwrap(),
            list(&other, None, json!({})).await.unwrap(),
        );
        assert_eq!(alpha(&c), "alpha (codex wording)", "{transport} {era:?}");
        assert_eq!(alpha(&g), "alpha (grok wording)", "{transport} {era:?}");
        assert_eq!(
            alpha(&o),
            "Alpha, the first tool, in full.",
            "{transport} {era:?}: level 5 is nearer 9"
        );
        assert_eq!(
            structure(by_name(&c)["alpha"].clone()),
            structure(by_name(&g)["alpha"].clone())
        );
    }
}

#[tokio::test]
async fn server_fallback_verbosity_is_the_fallback() {
    let server = abc(&Calls::default())
        .fallback_verbosity(0)
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "some-client", Opening::SessionBound).await;
    let result = list(&client, None, json!({})).await.unwrap();
    assert_eq!(alpha(&result), "Alpha.");
    assert_eq!(
        by_name(&result)["alpha"]["inputSchema"]["properties"]["word"]["description"],
        "word"
    );
}

#[tokio::test]
async fn meta_keys_and_headers_name_the_reader() {
    let server = abc(&Calls::default()).build().unwrap();
    let client = connect(&server, "stdio", "some-client", Opening::SessionBound).await;
    let result = list(&client, None, json!({ META_RUNNER: "grok" }))
        .await
        .unwrap();
    assert_eq!(alpha(&result), "alpha (grok wording)");
    let result = list(&client, None, json!({ META_VERBOSITY: 0 }))
        .await
        .unwrap();
    assert_eq!(alpha(&result), "Alpha.");

    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let (client, _) = http(addr, "some-client", era, &[("x-mcp-runner", "codex")]).await;
        assert_eq!(
            alpha(&list(&client, None, json!({})).await.unwrap()),
            "alpha (codex wording)"
        );
        let (client, _) = http(
            addr,
            "codex",
            era,
            &[("x-mcp-verbosity", "0"), ("x-mcp-runner", "nobody")],
        )
        .await;
        assert_eq!(
            alpha(&list(&client, None, json!({})).await.unwrap()),
            "Alpha."
        );
    }
}

#[tokio::test]
async fn aliases_are_configurable() {
    let server = abc(&Calls::default())
        .runner_alias("Acme Agent", "codex")
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "acme agent", Opening::SessionBound).await;
    assert_eq!(
        alpha(&list(&client, None, json!({})).await.unwrap()),
        "alpha (codex wording)"
    );
}

#[tokio::test]
async fn hints_can_be_switched_off() {
    let server = abc(&Calls::default())
        .reader_hints(false, false)
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "some-client", Opening::SessionBound).await;
    let result = list(&client, None, json!({ META_RUNNER: "grok" }))
        .await
        .unwrap();
    assert_eq!(alpha(&result), "Alpha, the first tool, in full.");
}

#[tokio::test]
async fn a_host_callback_has_full_control_and_its_failure_is_contained() {
    let server = abc(&Calls::default())
        .request_deadline(Duration::from_millis(300))
        .context(|info| async move {
            match info.client_name.as_deref() {
                Some("panics") => panic!("context bug"),
                Some("hangs") => {
                    // Sleep: simulated work, a callback that hangs.
                    tokio::time::sleep(Duration::from_secs(30)).await;
                    Reader::default()
                }
                _ => Reader {
                    runner: Some("grok".into()),
                    ..info.reader.clone()
                },
            }
        })
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    assert_eq!(
        alpha(&list(&client, None, json!({})).await.unwrap()),
        "alpha (grok wording)"
    );
    // A failing callback falls back to the reader the server resolved; listing still works.
    for name in ["panics", "hangs"] {
        let client = connect(&server, "stdio", name, Opening::SessionBound).await;
        assert_eq!(
            alpha(&list(&client, None, json!({})).await.unwrap()),
            "Alpha, the first tool, in full.",
            "{name}"
        );
    }
}

#[tokio::test]
async fn a_session_changes_its_reader_and_is_told_to_list_again() {
    use mcp_tailor::server::rmcp::model::{ClientRequest, CustomRequest, ServerResult};
    let server = abc(&Calls::default()).build().unwrap();
    let (client, mut changed) = stdio(&server, "some-client", Opening::SessionBound).await;
    assert_eq!(
        alpha(&list(&client, None, json!({})).await.unwrap()),
        "Alpha, the first tool, in full."
    );
    let request = ClientRequest::CustomRequest(CustomRequest::new(
        SET_READER_METHOD,
        Some(json!({"runner": "codex"})),
    ));
    let response = client.send_request(request).await.unwrap();
    let ServerResult::CustomResult(result) = response else {
        panic!("{response:?}")
    };
    assert_eq!(result.0["runner"], "codex");
    tokio::time::timeout(Duration::from_secs(5), changed.recv())
        .await
        .expect("tools/list_changed")
        .unwrap();
    assert_eq!(
        alpha(&list(&client, None, json!({})).await.unwrap()),
        "alpha (codex wording)"
    );
    // Only this session changed.
    let other = connect(&server, "stdio", "some-client", Opening::SessionBound).await;
    assert_eq!(
        alpha(&list(&other, None, json!({})).await.unwrap()),
        "Alpha, the first tool, in full."
    );
}

#[tokio::test]
async fn a_level_that_is_not_one_is_refused_not_read_as_none() {
    let server = abc(&Calls::default()).build().unwrap();
    let client = connect(&server, "stdio", "some-client", Opening::SessionBound).await;
    for bad in [json!(12), json!(-1), json!("abc"), json!(2.5), json!(null)] {
        let refused = list(&client, None, json!({ META_VERBOSITY: bad.clone() }))
            .await
            .unwrap_err();
        assert_eq!(refused.code.0, -32602, "{bad}");
        assert_eq!(refused.data.unwrap()["reason"], "invalid_level", "{bad}");
    }
    // A level as a number or its digits is read.
    for good in [json!(0), json!("0")] {
        let result = list(&client, None, json!({ META_VERBOSITY: good })).await;
        assert_eq!(alpha(&result.unwrap()), "Alpha.");
    }
    let addr = http_server(&server).await;
    for bad in ["12", "-1", "abc", ""] {
        let (status, _, body) = mcp_tailor_test_support::http::exchange(
            addr,
            "POST",
            "/mcp",
            &format!("X-MCP-Verbosity: {bad}\r\n"),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        )
        .await;
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert!(
            body.contains("-32602") && body.contains("0..=9"),
            "{bad:?}: {body}"
        );
    }
}

/// A session picks its surface with `setReader`; a request's header or `_meta` still wins,
/// and a surface that is not one is refused.
#[tokio::test]
async fn a_session_picks_the_index_surface_and_a_request_may_still_name_its_own() {
    use mcp_tailor::inspect::IndexFinder;
    use mcp_tailor::server::rmcp::model::{ClientRequest, CustomRequest, ServerResult};
    use mcp_tailor::server::wire::META_SURFACE;
    use mcp_tailor::server::{IndexSurface, rmcp::ServiceError};
    let index = IndexSurface::new(IndexFinder::new(Vec::new()));
    let server = abc(&Calls::default()).index(index).build().unwrap();
    let (client, mut changed) = stdio(&server, "some-client", Opening::SessionBound).await;
    let names = |listed: serde_json::Value| -> Vec<String> {
        listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names(list(&client, None, json!({})).await.unwrap()),
        ["alpha", "bravo", "charlie"]
    );
    let set = |params: serde_json::Value| {
        ClientRequest::CustomRequest(CustomRequest::new(SET_READER_METHOD, Some(params)))
    };
    let response = client.send_request(set(json!({"surface": "index"}))).await;
    let Ok(ServerResult::CustomResult(result)) = response else {
        panic!("{response:?}")
    };
    assert_eq!(result.0["surface"], "index");
    tokio::time::timeout(Duration::from_secs(5), changed.recv())
        .await
        .expect("tools/list_changed")
        .unwrap();
    assert_eq!(
        names(list(&client, None, json!({})).await.unwrap()),
        ["search_tools", "call_tool"]
    );
    let native = json!({ META_SURFACE: "native" });
    assert_eq!(names(list(&client, None, native).await.unwrap()).len(), 3);
    let refused = client
        .send_request(set(json!({"surface": "catalog"})))
        .await;
    let Err(ServiceError::McpError(error)) = refused else {
        panic!("{refused:?}")
    };
    assert_eq!(reason(&error), "invalid_surface");
}
