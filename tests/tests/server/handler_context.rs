//! What a handler can do through its `CallContext`: progress bound to the request's
//! `progressToken`, logging that honours `logging/setLevel` (and the 2026-07-28 per-request
//! level), cancellation, typed results with `outputSchema`; and the layer's
//! `subscriptions/listen` and `setReader` without a session.
#![allow(deprecated)] // rmcp marks logging deprecated (SEP-2577).

use crate::common::*;
use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::Json;
use mcp_tailor::server::rmcp::model::{
    CallToolRequestParams, ClientRequest, CustomRequest, LoggingLevel, RequestMetaObject,
    ServerNotification, SetLevelRequestParams, SubscriptionFilter,
};
use mcp_tailor::server::rmcp::service::ServiceError;
use mcp_tailor::server::wire::SET_READER_METHOD;
use mcp_tailor::server::{CallContext, Server};
use mcp_tailor_test_support::eventually;
use serde_json::{Value, json};
use std::time::Duration;

/// Reports progress twice and logs at three levels.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Chatty {}

/// Waits until cancelled.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Patient {}

/// Returns a typed result.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Typed {
    /// How many.
    pub count: u32,
}

/// The typed result.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Tally {
    /// The count, doubled.
    pub doubled: u32,
}

fn server(cancelled: tokio::sync::mpsc::UnboundedSender<Waited>) -> Server {
    Server::builder()
        .name("context-server", "1.0.0")
        .tool(|_: Chatty, call: CallContext| async move {
            call.progress(1.0, Some(2.0), Some("half")).await;
            call.progress(2.0, Some(2.0), None).await;
            call.log(LoggingLevel::Debug, "debug detail").await;
            call.log(LoggingLevel::Info, "info note").await;
            call.log(LoggingLevel::Error, json!({"error": "bad"})).await;
            Ok::<_, String>(json!({"done": true}))
        })
        .tool(move |_: Patient, call: CallContext| until_cancelled(call, cancelled.clone()))
        .tool(|args: Typed, _: CallContext| async move {
            Ok::<_, String>(Json(Tally {
                doubled: args.count * 2,
            }))
        })
        .build()
        .unwrap()
}

async fn call_with_meta(client: &Running, name: &str, meta: Value) -> Value {
    let mut params = CallToolRequestParams::new(name.to_owned());
    params.arguments = Some(Default::default());
    if let Value::Object(map) = meta {
        params.meta = Some(RequestMetaObject::from(map));
    }
    serde_json::to_value(client.call_tool(params).await.unwrap()).unwrap()
}

/// What the client heard, once the server's notifications have had time to arrive.
async fn heard(client: &Running, at_least: usize) -> Vec<Value> {
    let enough = || (client.service().heard.lock().unwrap().len() >= at_least).then_some(());
    eventually(Duration::from_secs(2), || async { enough() }).await;
    // What comes after the first `at_least`, if anything, comes at once: a moment for it.
    // Sleep: a window for what must not come.
    tokio::time::sleep(Duration::from_millis(50)).await;
    std::mem::take(&mut *client.service().heard.lock().unwrap())
}

#[tokio::test]
async fn progress_follows_the_token_and_logging_the_level() {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let server = server(tx);
    for (transport, era) in COMBOS {
        let at = format!("{transport} {era:?}");
        let client = connect(&server, transport, "codex", era).await;
        // A session that set no level hears every level; a 2026-07-28 request that names
        // no level hears none.
        call_with_meta(&client, "chatty", json!({})).await;
        let got = heard(&client, if era == Opening::SessionBound { 3 } else { 0 }).await;
        let levels: Vec<&str> = got.iter().filter_map(|n| n["level"].as_str()).collect();
        match era {
            Opening::SessionBound => assert_eq!(levels, ["debug", "info", "error"], "{at}"),
            Opening::Stateless => assert!(levels.is_empty(), "{at}: {got:?}"),
        }

        let meta = match era {
            Opening::SessionBound => {
                client
                    .set_level(SetLevelRequestParams::new(LoggingLevel::Info))
                    .await
                    .unwrap();
                json!({"progressToken": "p-1"})
            }
            Opening::Stateless => {
                json!({"progressToken": "p-1", "io.modelcontextprotocol/logLevel": "info"})
            }
        };
        call_with_meta(&client, "chatty", meta).await;
        let got = heard(&client, 4).await;
        let progress: Vec<&Value> = got
            .iter()
            .filter(|n| n.get("progressToken").is_some())
            .collect();
        assert_eq!(progress.len(), 2, "{at}: {got:?}");
        // rmcp's client puts its own token on every request; both notifications carry it.
        assert!(!progress[0]["progressToken"].is_null(), "{at}");
        assert_eq!(
            progress[0]["progressToken"], progress[1]["progressToken"],
            "{at}"
        );
        assert_eq!(
            (
                progress[0]["progress"].as_f64(),
                progress[0]["total"].as_f64()
            ),
            (Some(1.0), Some(2.0)),
            "{at}"
        );
        assert_eq!(progress[0]["message"], "half", "{at}");
        let logs: Vec<&Value> = got.iter().filter(|n| n.get("level").is_some()).collect();
        let levels: Vec<&str> = logs.iter().filter_map(|n| n["level"].as_str()).collect();
        assert_eq!(
            levels,
            ["info", "error"],
            "{at}: below the level is not sent"
        );
        assert_eq!(logs[0]["logger"], "context-server", "{at}");
        assert_eq!(logs[1]["data"], json!({"error": "bad"}), "{at}");
    }
}

#[tokio::test]
async fn a_cancelled_call_is_seen_by_its_handler() {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let server = server(tx);
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    let mut params = CallToolRequestParams::new("patient");
    params.arguments = Some(Default::default());
    let handle = client
        .send_cancellable_request(
            ClientRequest::CallToolRequest(mcp_tailor::server::rmcp::model::CallToolRequest::new(
                params,
            )),
            Default::default(),
        )
        .await
        .unwrap();
    told_of(&mut rx, Waited::Started).await;
    handle.cancel(Some("changed my mind".into())).await.unwrap();
    told_of(&mut rx, Waited::Cancelled).await;
}

#[tokio::test]
async fn typed_results_publish_their_output_schema() {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let server = server(tx);
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        let tools = by_name(&list(&client, None, json!({})).await.unwrap());
        let schema = &tools["typed"]["outputSchema"];
        assert_eq!(
            schema["properties"]["doubled"]["type"], "integer",
            "{transport} {era:?}"
        );
        assert!(
            tools["chatty"].get("outputSchema").is_none(),
            "{transport} {era:?}"
        );
        let result = call(&client, "typed", json!({"count": 21})).await.unwrap();
        assert_eq!(
            result["structuredContent"],
            json!({"doubled": 42}),
            "{transport} {era:?}"
        );
    }
}

#[tokio::test]
async fn stateless_listeners_hear_that_the_tool_list_changed() {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let server = server(tx);
    for transport in ["stdio", "http"] {
        let client = connect(&server, transport, "codex", Opening::Stateless).await;
        let mut subscription = client
            .listen(SubscriptionFilter::builder().tools_list_changed().build())
            .await
            .unwrap();
        assert_eq!(
            subscription.acknowledged().tools_list_changed,
            Some(true),
            "{transport}"
        );
        // Wait until the layer holds the stream, then change the catalog.
        let held = eventually(Duration::from_secs(2), || async {
            (server.listeners() > 0).then_some(())
        })
        .await;
        assert!(
            held.is_some(),
            "the layer never held the stream ({transport})"
        );
        server.notify_tool_list_changed().await;
        let next = tokio::time::timeout(Duration::from_secs(5), subscription.next())
            .await
            .expect("a notification within 5 s")
            .unwrap();
        assert!(
            matches!(
                next,
                Some(ServerNotification::ToolListChangedNotification(_))
            ),
            "{transport}: {next:?}"
        );
    }
}

#[tokio::test]
async fn set_reader_needs_a_session() {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let server = server(tx);
    for transport in ["stdio", "http"] {
        let client = connect(&server, transport, "codex", Opening::Stateless).await;
        let request = ClientRequest::CustomRequest(CustomRequest::new(
            SET_READER_METHOD,
            Some(json!({"runner": "grok"})),
        ));
        match client.send_request(request).await {
            Err(ServiceError::McpError(error)) => {
                assert_eq!(
                    (error.code.0, reason(&error)),
                    (-32600, "no_session"),
                    "{transport}"
                );
            }
            other => panic!("{transport}: {other:?}"),
        }
    }
}

/// Asks the client's model, then the user.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Ask {}

#[tokio::test]
#[allow(deprecated)]
async fn handlers_ask_the_clients_model_and_user() {
    use mcp_tailor::server::rmcp::model::{CreateMessageRequestParams, SamplingMessage};
    let server = Server::builder()
        .tool(|_: Ask, call: CallContext| async move {
            let sampled = call
                .sample(CreateMessageRequestParams::new(
                    vec![SamplingMessage::user_text("hi")],
                    10,
                ))
                .await
                .map_err(|e| e.to_string())?;
            let user = ask_name(&call).await?;
            let said = sampled
                .message
                .content
                .first()
                .and_then(|c| c.as_text())
                .map(|t| t.text.clone());
            Ok::<_, String>(json!({"model": said, "user": user}))
        })
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    for transport in ["stdio", "http"] {
        let client = answering(&server, addr, transport).await;
        let mut params = CallToolRequestParams::new("ask");
        params.arguments = Some(Default::default());
        let result = serde_json::to_value(client.call_tool(params).await.unwrap()).unwrap();
        assert_eq!(
            result["structuredContent"],
            json!({"model": "answered 1 message", "user": {"name": "Ada"}}),
            "{transport}: {result}"
        );
    }
}
