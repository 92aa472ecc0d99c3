use super::*;
use crate::upstream::http::post::{Addressed, Target};
use http::{HeaderName, HeaderValue};
use mcp_tailor_test_support::raw;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientNotification, InitializedNotification,
    Request, ServerNotification, ServerRequest, ServerResult,
};
use rmcp::transport::common::client_side_sse::ExponentialBackoff;
use serde_json::json;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::mpsc::UnboundedReceiver;

/// A response of the test server: its status line and headers, its body, and whether the
/// connection breaks after the body (a stream cut off).
struct Reply {
    head: &'static str,
    body: String,
    breaks: bool,
}

fn reply(head: &'static str, body: impl Into<String>) -> Reply {
    Reply {
        head,
        body: body.into(),
        breaks: false,
    }
}

const EVENTS: &str = "200 OK\r\ncontent-type: text/event-stream";
const JSON: &str = "200 OK\r\ncontent-type: application/json";

/// An event of an event stream: its id (`""`: none) and data.
fn event(id: &str, data: &str) -> String {
    match id {
        "" => format!("data: {data}\n\n"),
        id => format!("id: {id}\ndata: {data}\n\n"),
    }
}

/// An HTTP/1.1 server on loopback answering each request, on any connection, with the
/// next of `replies`; what each request carried (its head, then its body) comes back on
/// the channel.
async fn serving(replies: Vec<Reply>) -> (String, UnboundedReceiver<String>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (heard, hear) = tokio::sync::mpsc::unbounded_channel();
    let replies = Arc::new(Mutex::new(VecDeque::from(replies)));
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let (replies, heard) = (replies.clone(), heard.clone());
            tokio::spawn(async move {
                let mut stream = BufReader::new(stream);
                while let Some(head) = raw::head(&mut stream).await {
                    let request = raw::body(&mut stream, &head).await;
                    let _ = heard.send(head + &request);
                    let Some(reply) = replies.lock().unwrap().pop_front() else {
                        return;
                    };
                    let length = match reply.breaks {
                        // More is announced than comes: the stream breaks.
                        true => reply.body.len() + 100,
                        false => reply.body.len(),
                    };
                    let response = format!(
                        "HTTP/1.1 {}\r\ncontent-length: {length}\r\n\r\n{}",
                        reply.head, reply.body
                    );
                    let stream = stream.get_mut();
                    stream.write_all(response.as_bytes()).await.unwrap();
                    if reply.breaks {
                        return;
                    }
                }
            });
        }
    });
    (uri, hear)
}

/// A lane resuming quickly, not yet told where to post (`seen`); what it passes rmcp.
fn lane() -> (HttpLane, UnboundedReceiver<RxJsonRpcMessage<RoleClient>>) {
    let (to_rmcp, from_lane) = mpsc::unbounded_channel();
    let mut resumption = ExponentialBackoff::default();
    resumption.max_times = Some(2);
    resumption.base_duration = Duration::from_millis(10);
    let lane = HttpLane::new(
        reqwest::Client::new(),
        LastTarget::default(),
        to_rmcp,
        ProgressRoutes::default(),
        Verbatim::default(),
        Arc::new(resumption),
    );
    (lane, from_lane)
}

/// rmcp posts `notifications/initialized` in `session` to `uri`.
fn seen(last: &LastTarget, uri: &str, session: &str) {
    let initialized = ClientNotification::InitializedNotification(InitializedNotification {
        method: Default::default(),
        extensions: Default::default(),
    });
    let message = ClientJsonRpcMessage::notification(initialized);
    let version = HeaderName::from_static("mcp-protocol-version");
    let to = Addressed {
        uri: uri.into(),
        session_id: Some(session.into()),
        auth_header: Some("secret".to_owned()),
        custom_headers: HashMap::from([(version, HeaderValue::from_static("2025-11-25"))]),
    };
    last.saw(&message, &Arc::new(Target::of(&to).unwrap()));
}

fn call() -> ClientRequest {
    ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("echo")))
}

/// A call's answer to `id`, as the upstream writes it.
fn answer(id: &RequestId) -> String {
    let text = json!({"type": "text", "text": "hi"});
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [text], "x": 7}}).to_string()
}

/// What `ask` answered, as the call's result.
fn called(answered: LaneAnswer) -> (rmcp::model::CallToolResult, Option<Value>) {
    match answered {
        Ok((JsonRpcMessage::Response(response), written)) => match response.result {
            ServerResult::CallToolResult(result) => (result, written),
            other => panic!("not read as a call's result: {other:?}"),
        },
        other => panic!("not an answer: {other:?}"),
    }
}

async fn not_reopened() -> Result<(), String> {
    panic!("the session was not lost")
}

/// Why a call on `lane` (in a session not lost) has no answer.
async fn failed_call(lane: &HttpLane) -> String {
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    lane.ask(asking, not_reopened).await.unwrap_err()
}

#[tokio::test]
async fn a_request_is_posted_where_rmcp_posted_last_and_read_as_asked() {
    let (lane, _) = lane();
    let mut meta = RequestMetaObject::default();
    meta.0.insert("theirs".to_owned(), json!(1));
    meta.set_progress_token(ProgressToken(RequestId::Number(7)));
    let token = lane.progress_token();
    let asking = lane.prepare(call(), meta, Some(token.clone())).unwrap();
    let id = asking.id.clone();
    assert!(matches!(id, RequestId::Number(n) if n >= 1 << 40));
    let (uri, mut heard) = serving(vec![reply(JSON, answer(&id))]).await;
    seen(&lane.0.last, &uri, "s1");
    let (result, written) = called(lane.ask(asking, not_reopened).await);
    assert_eq!(result.content[0].as_text().unwrap().text, "hi");
    assert_eq!(written.unwrap()["result"]["x"], 7, "as written");
    let request = heard.recv().await.unwrap();
    let lower = request.to_ascii_lowercase();
    for header in [
        "post /mcp http/1.1",
        "accept: text/event-stream, application/json",
        "content-type: application/json",
        "authorization: bearer secret",
        "mcp-protocol-version: 2025-11-25",
        "mcp-session-id: s1",
    ] {
        assert!(lower.contains(header), "{header} missing from {request}");
    }
    let body = &request[request.find("\r\n\r\n").unwrap() + 4..];
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["id"], json!(id));
    assert_eq!(body["method"], "tools/call");
    assert_eq!(body["params"]["_meta"]["theirs"], 1);
    assert_eq!(body["params"]["_meta"]["progressToken"], json!(token.0));
}

#[tokio::test]
#[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); a proxy forwards it still.
async fn what_comes_before_the_answer_on_its_stream_goes_where_rmcp_would_send_it() {
    let (lane, mut to_rmcp) = lane();
    let token = lane.progress_token();
    let asking = lane
        .prepare(call(), Default::default(), Some(token.clone()))
        .unwrap();
    let mut progress = lane.0.progress.track(token.clone());
    let id = asking.id.clone();
    let progressed = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": token.0, "progress": 1, "total": 2}});
    let logged = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "working", "vendor": true}});
    let asks = json!({"jsonrpc": "2.0", "id": "up-1", "method": "roots/list"});
    let other = json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": []}});
    let body = [
        // The priming event: an id, no message.
        event("e1", ""),
        event("e2", &progressed.to_string()),
        "event: endpoint\ndata: {\"not\": \"a message\"}\n\n".to_owned(),
        event("e3", &logged.to_string()),
        event("", "not json"),
        event("e4", &asks.to_string()),
        event("e5", &other.to_string()),
        event("e6", &answer(&id)),
        event("e7", &logged.to_string()),
    ];
    let (uri, _heard) = serving(vec![reply(EVENTS, body.concat())]).await;
    seen(&lane.0.last, &uri, "s1");
    let (result, _) = called(lane.ask(asking, not_reopened).await);
    assert_eq!(result.content.len(), 1);
    // The progress is in its queue by then, as written (`1`, not `1.0`).
    let params = progress.try_recv().expect("the progress before the answer");
    let kept = &params.meta.unwrap().0.0[mcp_tailor_server::seam::verbatim::AS_WRITTEN];
    assert_eq!(kept["progress"].to_string(), "1");
    // The rest went to rmcp in order: the log line as written, the upstream's request
    // marked with the request whose stream it came on; an answer to another request too,
    // kept as written. What came after the answer did not.
    let Some(JsonRpcMessage::Notification(log)) = to_rmcp.recv().await else {
        panic!("no log line");
    };
    let ServerNotification::LoggingMessageNotification(log) = log.notification else {
        panic!("not a log line");
    };
    let kept = &log.params.meta.unwrap().0.0[mcp_tailor_server::seam::verbatim::AS_WRITTEN];
    assert_eq!(kept["vendor"], true);
    let Some(JsonRpcMessage::Request(asked)) = to_rmcp.recv().await else {
        panic!("no request");
    };
    assert!(matches!(asked.request, ServerRequest::ListRootsRequest(_)));
    assert_eq!(
        asked.request.extensions().get::<InboundStreamOrigin>(),
        Some(&InboundStreamOrigin::OutboundRequest(id))
    );
    assert!(matches!(
        to_rmcp.recv().await,
        Some(JsonRpcMessage::Response(_))
    ));
    assert!(lane.0.written.take(&RequestId::Number(3)).is_some());
    assert!(to_rmcp.try_recv().is_err(), "nothing after the answer");
}

#[tokio::test]
async fn a_broken_stream_is_resumed_from_its_last_event() {
    let (lane, _) = lane();
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    let id = asking.id.clone();
    let broken = Reply {
        breaks: true,
        ..reply(EVENTS, event("e1", ""))
    };
    let (uri, mut heard) = serving(vec![
        broken,
        reply("503 Service Unavailable", ""),
        // Resumed: ends gracefully before the answer (retry after the upstream's `retry`).
        reply(EVENTS, "id: e2\nretry: 5\ndata: \n\n"),
        reply(EVENTS, event("e3", &answer(&id))),
    ])
    .await;
    seen(&lane.0.last, &uri, "s1");
    called(lane.ask(asking, not_reopened).await);
    heard.recv().await.unwrap();
    for last in ["e1", "e1", "e2"] {
        let resumed = heard.recv().await.unwrap().to_ascii_lowercase();
        assert!(resumed.starts_with("get /mcp"), "{resumed}");
        assert!(
            resumed.contains(&format!("last-event-id: {last}")),
            "{resumed}"
        );
        assert!(resumed.contains("mcp-session-id: s1"), "{resumed}");
        assert!(!resumed.contains("content-type"), "{resumed}");
    }
}

#[tokio::test]
async fn a_stream_that_cannot_be_resumed_fails_its_request() {
    let (lane, _) = lane();
    let logged = json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": "x"}});
    let priming = || reply(EVENTS, event("e1", ""));
    let unavailable = || reply("503 Service Unavailable", "");
    let (uri, mut heard) = serving(vec![
        // Ended before any event id: nothing to resume from.
        reply(EVENTS, event("", &logged.to_string())),
        // Resumed as often as the policy allows (2), refused each time.
        priming(),
        unavailable(),
        unavailable(),
        // No stream to GET: not asked again.
        priming(),
        reply("405 Method Not Allowed", ""),
        // An event over the bound: not resumed (it would come again).
        reply(
            EVENTS,
            format!("id: e1\ndata: {}\n\n", "x".repeat(17 << 20)),
        ),
    ])
    .await;
    seen(&lane.0.last, &uri, "s1");
    let ask = || failed_call(&lane);
    assert_eq!(
        ask().await,
        "the upstream ended the answer's stream before answering"
    );
    let why = "resuming the answer's stream: HTTP 503 Service Unavailable";
    let unresumed = format!("the upstream closed the connection ({why})");
    assert_eq!(ask().await, unresumed);
    let never = ask().await;
    assert_eq!(
        never,
        "the answer's stream could not be resumed: HTTP 405 Method Not Allowed"
    );
    assert!(ask().await.contains("exceeded the maximum size"));
    let mut requests = Vec::new();
    while let Ok(request) = heard.try_recv() {
        requests.push(request[..3].to_owned());
    }
    let expected = ["POS", "POS", "GET", "GET", "POS", "GET", "POS"];
    assert_eq!(requests, expected);
}

#[tokio::test]
async fn a_lost_session_is_opened_again_by_rmcp_and_the_request_posted_there() {
    let (lane, _) = lane();
    let last = lane.0.last.clone();
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    let id = asking.id.clone();
    let lost = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;
    let (uri, mut heard) = serving(vec![
        reply("404 Not Found", ""),
        reply(JSON, answer(&id)),
        reply("400 Bad Request\r\ncontent-type: application/json", lost),
        reply("404 Not Found", ""),
    ])
    .await;
    seen(&last, &uri, "s1");
    let reopened = async || {
        seen(&last, &uri, "s2");
        Ok(())
    };
    called(lane.ask(asking, reopened).await);
    assert!(heard.recv().await.unwrap().contains("s1"));
    assert!(heard.recv().await.unwrap().contains("s2"));
    // Lost twice: the request fails.
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    let failed = lane.ask(asking, async || Ok(())).await.unwrap_err();
    assert_eq!(failed, "the upstream lost the session again");
    // rmcp could not open one: why.
    let (uri, _) = serving(vec![reply("404 Not Found", "")]).await;
    seen(&last, &uri, "s3");
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    let failed = lane.ask(asking, async || Err("refused".to_owned())).await;
    assert_eq!(failed.unwrap_err(), "refused");
}

#[tokio::test]
async fn an_error_answer_is_the_answer_and_anything_else_a_failure() {
    let (lane, _) = lane();
    let refused = r#"{"jsonrpc":"2.0","error":{"code":-32602,"message":"no such tool"}}"#;
    let (uri, _) = serving(vec![
        reply("400 Bad Request\r\ncontent-type: application/json", refused),
        reply("202 Accepted", ""),
        reply("500 Internal Server Error", "down"),
    ])
    .await;
    seen(&lane.0.last, &uri, "s1");
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    let id = asking.id.clone();
    let Ok((JsonRpcMessage::Error(error), None)) = lane.ask(asking, not_reopened).await else {
        panic!("not an error answer");
    };
    assert_eq!(
        (error.id, &*error.error.message),
        (Some(id), "no such tool")
    );
    let ask = || failed_call(&lane);
    assert_eq!(
        ask().await,
        "the upstream accepted the request without answering it"
    );
    assert!(ask().await.contains("500"));
    // Before rmcp posted in a session, nowhere to post.
    let (lane, _) = self::lane();
    let asking = lane.prepare(call(), Default::default(), None).unwrap();
    let failed = lane.ask(asking, not_reopened).await.unwrap_err();
    assert_eq!(failed, "the upstream session is not open");
}
