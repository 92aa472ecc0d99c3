//! The gateway in front of a streamable HTTP upstream of 2025-11-25, whose calls it posts
//! past rmcp's client worker and answers from the call's own event stream (`http::lane`):
//! what comes on that stream before the answer reaches the client who called — progress,
//! log lines, the upstream's questions (sampling, elicitation) — and a call its client
//! cancels is cancelled upstream. Real rmcp clients, over stdio and streamable HTTP.
#![allow(deprecated)] // rmcp marks sampling and logging deprecated (SEP-2577); servers and clients still use them.

use crate::common::*;
use mcp_tailor::gateway::{Gateway, Upstream};
use mcp_tailor::server::rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, CreateMessageRequestParams,
    LoggingLevel, SamplingMessage, SetLevelRequestParams,
};
use mcp_tailor::server::{CallContext, Server};
use mcp_tailor::{McpTool, mcp_tool};
use mcp_tailor_test_support::eventually;
use serde_json::json;
use std::time::Duration;

/// Reports progress twice and logs a line.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Working {}

/// Waits until cancelled.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Waiting {}

/// Asks the client's model, then its user.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Asking {}

/// The upstream, on streamable HTTP at a loopback port: its URL; its `waiting` calls say on
/// `cancelled` when they are cancelled.
async fn upstream(cancelled: tokio::sync::mpsc::UnboundedSender<Waited>) -> String {
    let server = Server::builder()
        .name("upstream", "1.0.0")
        .tool(|_: Working, call: CallContext| async move {
            call.progress(1.0, Some(2.0), Some("half")).await;
            call.log(LoggingLevel::Info, "working").await;
            call.progress(2.0, Some(2.0), None).await;
            Ok::<_, String>(json!({"done": true}))
        })
        .tool(move |_: Waiting, call: CallContext| until_cancelled(call, cancelled.clone()))
        .tool(|_: Asking, call: CallContext| async move {
            let asked = vec![SamplingMessage::user_text("hi")];
            let sampled = call
                .sample(CreateMessageRequestParams::new(asked, 10))
                .await;
            let sampled = sampled.map_err(|e| e.to_string())?;
            let said = sampled.message.content.first().and_then(|c| c.as_text());
            let said = said.map(|t| t.text.clone());
            Ok::<_, String>(json!({"model": said, "user": ask_name(&call).await?}))
        })
        .build()
        .unwrap();
    format!("http://{}/mcp", http_server(&server).await)
}

/// The gateway in front of the upstream at `url`, each session with an upstream session of
/// its own.
async fn gateway(url: String) -> Server<Gateway> {
    let gateway = Gateway::connect(Upstream::http(url), Duration::from_secs(10)).await;
    Server::builder().handler(gateway.unwrap()).build().unwrap()
}

fn call_of<T: McpTool>() -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(T::NAME);
    params.arguments = Some(Default::default());
    params
}

#[tokio::test]
async fn what_a_call_hears_on_its_upstream_stream_reaches_its_client() {
    let (cancelled, _) = tokio::sync::mpsc::unbounded_channel();
    let gateway = gateway(upstream(cancelled).await).await;
    for transport in ["stdio", "http"] {
        let client = connect(&gateway, transport, "codex", Opening::SessionBound).await;
        let level = SetLevelRequestParams::new(LoggingLevel::Info);
        client.set_level(level).await.unwrap();
        // (rmcp's client asks for progress on every request.)
        let answered = client.call_tool(call_of::<Working>()).await.unwrap();
        let answered = serde_json::to_value(answered).unwrap();
        assert_eq!(answered["structuredContent"], json!({"done": true}));
        // rmcp runs each notification's handler on a task of its own: each in its time.
        let all_heard = || {
            let heard = client.service().heard.lock().unwrap().clone();
            let progress = heard.iter().filter(|h| h["progress"].is_number()).count();
            let logged = heard.iter().any(|h| h.get("level").is_some());
            (progress >= 2 && logged).then_some(heard)
        };
        let heard = eventually(Duration::from_secs(5), || async { all_heard() })
            .await
            .unwrap_or_else(|| client.service().heard.lock().unwrap().clone());
        let progress: Vec<_> = heard
            .iter()
            .filter_map(|h| h["progress"].as_f64())
            .collect();
        assert_eq!(progress, [1.0, 2.0], "{transport}: {heard:?}");
        let logged = heard.iter().find(|h| h.get("level").is_some());
        assert_eq!(
            logged.map(|l| &l["data"]),
            Some(&json!("working")),
            "{transport}"
        );
    }
}

#[tokio::test]
async fn a_call_its_client_cancels_is_cancelled_upstream() {
    let (cancelled, mut told) = tokio::sync::mpsc::unbounded_channel();
    let gateway = gateway(upstream(cancelled).await).await;
    for transport in ["stdio", "http"] {
        let client = connect(&gateway, transport, "codex", Opening::SessionBound).await;
        let handle = client
            .send_cancellable_request(
                ClientRequest::CallToolRequest(CallToolRequest::new(call_of::<Waiting>())),
                Default::default(),
            )
            .await
            .unwrap();
        told_of(&mut told, Waited::Started).await;
        handle.cancel(Some("changed my mind".into())).await.unwrap();
        let seen = tokio::time::timeout(
            Duration::from_secs(5),
            told_of(&mut told, Waited::Cancelled),
        )
        .await;
        assert!(
            seen.is_ok(),
            "{transport}: the upstream's call was not cancelled"
        );
    }
}

#[tokio::test]
async fn what_the_upstream_asks_during_a_call_its_client_answers() {
    let (cancelled, _) = tokio::sync::mpsc::unbounded_channel();
    let gateway = gateway(upstream(cancelled).await).await;
    let addr = http_server(&gateway).await;
    for transport in ["stdio", "http"] {
        let client = answering(&gateway, addr, transport).await;
        let result = client.call_tool(call_of::<Asking>()).await.unwrap();
        let result = serde_json::to_value(result).unwrap();
        assert_eq!(
            result["structuredContent"],
            json!({"model": "answered 1 message", "user": {"name": "Ada"}}),
            "{transport}: {result}"
        );
    }
}

#[test]
fn a_request_opening_an_upstream_session_fits_in_half_a_thread_s_stack() {
    // A debug build's futures are large, and tokio's threads have 2 MiB: a session's first
    // request through the gateway (which opens its upstream session) takes under half.
    let served = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let (cancelled, _) = tokio::sync::mpsc::unbounded_channel();
                let gateway = gateway(upstream(cancelled).await).await;
                let client = connect(&gateway, "stdio", "codex", Opening::SessionBound).await;
                let answered = client.call_tool(call_of::<Working>()).await.unwrap();
                serde_json::to_value(answered).unwrap()["structuredContent"].clone()
            })
        })
        .unwrap();
    assert_eq!(served.join().unwrap(), json!({"done": true}));
}
