//! Direct requests on streamable HTTP: a session's request that nothing can be said about
//! before its answer is served by the session's handler itself, past rmcp's session worker
//! (`server::direct`). Read by raw HTTP clients, as the wire is what matters:
//! a call cancelled by its client is cancelled in its handler; one whose connection broke
//! is answered when its client resumes; a session only ever called directly still outlives
//! its idle timeout, and an ended one is not kept; what a handler asks its client during a
//! call reaches the client, with or without its GET stream open.

use crate::common::*;
use mcp_tailor::mcp_tool;
use mcp_tailor::server::HttpConfig;
use mcp_tailor::server::rmcp::model::{
    CallToolRequestParams, CallToolResponse, JsonObject, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use mcp_tailor::server::rmcp::service::RequestContext;
use mcp_tailor::server::rmcp::{ErrorData, RoleServer, ServerHandler};
use mcp_tailor::server::{CallContext, Server};
use mcp_tailor_test_support::eventually;
use mcp_tailor_test_support::http::Conn;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// Answers at once.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Quick {}

/// Waits until cancelled.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Patient {}

/// Answers after 300 ms.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Slow {}

/// Asks its client for a name.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Asking {}

/// A wrapped handler that counts its clones dropped: each session has its own, dropped as
/// the session ends.
#[derive(Clone, Default)]
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A request's context, as a wrapped handler gets it.
type Context = RequestContext<RoleServer>;

/// Serves one tool of its own, `boom`; it and `ping` panic (a handler's bug): the client is
/// answered still.
impl ServerHandler for Counted {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListToolsResult, ErrorData> {
        let boom = Tool::new("boom", "Panics.", JsonObject::new());
        Ok(ListToolsResult::with_all_items(vec![boom]))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: Context,
    ) -> Result<CallToolResponse, ErrorData> {
        panic!("a handler's bug")
    }

    async fn ping(&self, _: Context) -> Result<(), ErrorData> {
        panic!("a handler's bug")
    }
}

/// A server of the three tools on loopback, its sessions closed after `idle`; `Patient`'s
/// cancellations are told on the receiver.
async fn serve(idle: Duration) -> (SocketAddr, mpsc::UnboundedReceiver<Waited>) {
    serve_counted(idle, Counted::default()).await
}

/// [`serve`], each session's wrapped handler a clone of `counted`.
async fn serve_counted(
    idle: Duration,
    counted: Counted,
) -> (SocketAddr, mpsc::UnboundedReceiver<Waited>) {
    let (cancelled, told) = mpsc::unbounded_channel();
    let mut config = HttpConfig::default();
    config.session_idle_timeout = idle;
    let server = Server::builder()
        .name("direct", "1.0.0")
        .tool(|_: Quick, _: CallContext| async { Ok::<_, String>(json!({"quick": true})) })
        .tool(move |_: Patient, call: CallContext| until_cancelled(call, cancelled.clone()))
        .tool(|_: Slow, _: CallContext| async {
            // Sleep: simulated work.
            tokio::time::sleep(Duration::from_millis(300)).await;
            Ok::<_, String>(json!({"slow": true}))
        })
        .tool(|_: Asking, call: CallContext| async move {
            Ok::<_, String>(json!({"user": ask_name(&call).await?}))
        })
        .http_config(config)
        .handler(counted)
        .build()
        .unwrap();
    (http_server(&server).await, told)
}

/// The headers of a request on 2025-11-25 session `id`.
fn on(id: &str) -> Vec<(&'static str, String)> {
    vec![
        ("Mcp-Session-Id", id.to_owned()),
        ("Mcp-Protocol-Version", "2025-11-25".to_owned()),
    ]
}

/// A 2025-11-25 session whose client declares `capabilities`, initialized; its id.
async fn open(conn: &mut Conn, capabilities: Value) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": capabilities,
        "clientInfo": {"name": "raw", "version": "1"}}});
    let reply = conn.post(&initialize, &[]).await.unwrap();
    let id = reply.session.expect("a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(conn.post(&initialized, &on(&id)).await.unwrap().status, 202);
    id
}

fn call(id: u64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": {}}})
}

/// A POST of `body` on session `id` over a connection of its own, its response read as
/// it comes (`next_message`).
async fn post_streaming(addr: SocketAddr, id: &str, body: &Value) -> BufReader<TcpStream> {
    let body = body.to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in on(id) {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    BufReader::new(stream)
}

/// Session `id`'s GET stream, open.
async fn get_stream(addr: SocketAddr, id: &str) -> BufReader<TcpStream> {
    get_stream_after(addr, id, None).await
}

/// [`get_stream`], resuming after the event `last` when given.
async fn get_stream_after(addr: SocketAddr, id: &str, last: Option<&str>) -> BufReader<TcpStream> {
    let mut request = format!("GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n");
    for (name, value) in on(id) {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(last) = last {
        request.push_str(&format!("Last-Event-ID: {last}\r\n"));
    }
    request.push_str("\r\n");
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).await.unwrap();
    assert!(status.contains(" 200 "), "{status}");
    reader
}

/// The id of the next event on an event stream read as it comes, within 10 s.
async fn event_id(reader: &mut BufReader<TcpStream>) -> String {
    let read = async {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                reader.read_line(&mut line).await.unwrap() > 0,
                "the response ended"
            );
            if let Some(id) = line.strip_prefix("id:") {
                return id.trim().to_owned();
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("an event within 10 s")
}

/// The next JSON-RPC message on a response read as it comes: a `data:` line of an event
/// stream, or a JSON body of the length its headers (read in the same call) say, within
/// 10 s.
async fn next_message(reader: &mut BufReader<TcpStream>) -> Value {
    let read = async {
        let (mut line, mut length) = (String::new(), None);
        loop {
            line.clear();
            assert!(
                reader.read_line(&mut line).await.unwrap() > 0,
                "the response ended"
            );
            let header = line.to_ascii_lowercase();
            if let Some(value) = header.strip_prefix("content-length:") {
                length = value.trim().parse::<usize>().ok();
            }
            if let (Some(length), "\r\n") = (length, line.as_str()) {
                let mut body = vec![0; length];
                reader.read_exact(&mut body).await.unwrap();
                return serde_json::from_slice(&body).unwrap();
            }
            let text = line.trim().trim_start_matches("data:").trim();
            if let Ok(message @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
                return message;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("a message within 10 s")
}

#[tokio::test]
async fn a_direct_call_cancelled_by_its_client_is_cancelled_in_its_handler() {
    let (addr, mut told) = serve(Duration::from_secs(120)).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    let _waiting = post_streaming(addr, &id, &call(7, "patient")).await;
    told_of(&mut told, Waited::Started).await;
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 7, "reason": "changed my mind"}});
    assert_eq!(conn.post(&cancel, &on(&id)).await.unwrap().status, 202);
    told_of(&mut told, Waited::Cancelled).await;
    // The session serves on.
    let reply = conn.post(&call(8, "quick"), &on(&id)).await.unwrap();
    assert_eq!(
        reply.message.unwrap()["result"]["structuredContent"]["quick"],
        true
    );
}

#[tokio::test]
async fn a_direct_call_whose_connection_broke_is_answered_on_resume() {
    let (addr, _) = serve(Duration::from_secs(120)).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    // Slower than an answer given at once: an event stream, its priming event first.
    let mut calling = post_streaming(addr, &id, &call(9, "slow")).await;
    let last = event_id(&mut calling).await;
    assert!(
        last.starts_with("direct-"),
        "a direct request's event: {last}"
    );
    drop(calling);
    let mut resumed = get_stream_after(addr, &id, Some(&last)).await;
    let answer = next_message(&mut resumed).await;
    assert_eq!(answer["id"], 9, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["slow"], true,
        "{answer}"
    );
}

#[tokio::test]
async fn a_session_called_only_directly_outlives_its_idle_timeout() {
    let (addr, _) = serve(Duration::from_millis(600)).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    // Twice the idle timeout of calls and nothing else: rmcp's worker must still hear of
    // the session, or it closes it (404).
    let until = tokio::time::Instant::now() + Duration::from_millis(1_500);
    let mut n = 1;
    while tokio::time::Instant::now() < until {
        let reply = conn.post(&call(n, "quick"), &on(&id)).await.unwrap();
        assert_eq!(reply.status, 200, "call {n}: {:?}", reply.message);
        assert_eq!(
            reply.message.unwrap()["result"]["structuredContent"]["quick"],
            true
        );
        n += 1;
        // Sleep: a client's pace, one call every 50 ms.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Left alone, it is closed as before.
    // Sleep: time passing is what is tested (past the idle timeout).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let reply = conn.post(&call(n, "quick"), &on(&id)).await.unwrap();
    assert_eq!(reply.status, 404);
}

#[tokio::test]
async fn a_session_ended_by_its_idle_timeout_is_not_kept_by_its_direct_calls() {
    let counted = Counted::default();
    let dropped = counted.0.clone();
    let (addr, _) = serve_counted(Duration::from_millis(300), counted).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    let reply = conn.post(&call(1, "quick"), &on(&id)).await.unwrap();
    assert_eq!(reply.status, 200);
    let before = dropped.load(Ordering::SeqCst);
    // Idle, rmcp ends the session: its handler (a gateway's upstream session) goes with it.
    let ended = || (dropped.load(Ordering::SeqCst) > before).then_some(());
    eventually(Duration::from_secs(5), || async { ended() }).await;
    assert!(
        dropped.load(Ordering::SeqCst) > before,
        "the ended session's handler is kept"
    );
}

#[tokio::test]
async fn a_direct_request_whose_handler_panics_is_answered_with_an_error() {
    let (addr, _) = serve(Duration::from_secs(120)).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    // A call (polled where its answer is written) and any other request (a task of its own).
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    for request in [call(2, "boom"), ping] {
        let reply = conn.post(&request, &on(&id)).await.unwrap();
        assert_eq!(reply.message.unwrap()["error"]["code"], -32603, "{request}");
    }
    // The connection and the session serve on.
    let reply = conn.post(&call(4, "quick"), &on(&id)).await.unwrap();
    assert_eq!(
        reply.message.unwrap()["result"]["structuredContent"]["quick"],
        true
    );
}

/// Calls `asking` on session `id`: the elicitation arrives on `asked` (the call's own
/// response, or the session's GET stream), is answered, and the call's result names the
/// answer.
async fn asked_and_answered(addr: SocketAddr, id: &str, on_get: bool) {
    let mut get = match on_get {
        true => Some(get_stream(addr, id).await),
        false => None,
    };
    let mut calling = post_streaming(addr, id, &call(5, "asking")).await;
    let asked = match &mut get {
        Some(get) => next_message(get).await,
        None => next_message(&mut calling).await,
    };
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"],
        "result": {"action": "accept", "content": {"name": "Ada"}}});
    let mut conn = Conn::connect(addr).await.unwrap();
    assert_eq!(conn.post(&answer, &on(id)).await.unwrap().status, 202);
    let result = next_message(&mut calling).await;
    assert_eq!(
        result["result"]["structuredContent"]["user"]["name"], "Ada",
        "{result}"
    );
}

#[tokio::test]
async fn what_a_handler_asks_during_a_call_reaches_a_client_with_or_without_its_get_stream() {
    let (addr, _) = serve(Duration::from_secs(120)).await;
    let elicits = json!({"elicitation": {"form": {}}});
    // Without a GET stream, the question can only go on the call's own stream: the call
    // goes rmcp's way.
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, elicits.clone()).await;
    asked_and_answered(addr, &id, false).await;
    // With one open, the call may go direct, and the question on the GET stream.
    let id = open(&mut conn, elicits).await;
    asked_and_answered(addr, &id, true).await;
}

#[tokio::test]
async fn a_request_posted_direct_answers_as_one_through_rmcp() {
    let (addr, _) = serve(Duration::from_secs(120)).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    // Direct from the front (`direct::http`), then with `_meta`, which only
    // rmcp's HTTP service reads: the same bytes either way.
    let direct = conn.post(&call(3, "quick"), &on(&id)).await.unwrap();
    let mut with_meta = call(3, "quick");
    with_meta["params"]["_meta"] = json!({"note": "rmcp's way"});
    let through_rmcp = conn.post(&with_meta, &on(&id)).await.unwrap();
    assert_eq!(direct.status, 200);
    assert_eq!(
        String::from_utf8_lossy(&direct.body),
        String::from_utf8_lossy(&through_rmcp.body)
    );
    let answer = direct.message.expect("an answer");
    assert_eq!(answer["result"]["structuredContent"]["quick"], true);
    // Any other request of the session goes direct the same way (a kept listing's text
    // spliced in: the gateway's tests read it byte for byte).
    let list = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list"});
    let mut list_with_meta = list.clone();
    list_with_meta["params"] = json!({"_meta": {"note": "rmcp's way"}});
    let direct = conn.post(&list, &on(&id)).await.unwrap();
    let through_rmcp = conn.post(&list_with_meta, &on(&id)).await.unwrap();
    assert_eq!(
        String::from_utf8_lossy(&direct.body),
        String::from_utf8_lossy(&through_rmcp.body)
    );
    assert!(direct.message.unwrap()["result"]["tools"].is_array());
    // What rmcp refuses it still refuses: a call that goes direct in every other way.
    let unknown = [("Mcp-Protocol-Version", "1999-01-01".to_owned())];
    let refused = conn
        .post(&call(4, "quick"), &[on(&id)[0].clone(), unknown[0].clone()])
        .await
        .unwrap();
    assert_eq!(refused.status, 400);
    let unheard = [
        ("Mcp-Session-Id", "no-such-session".to_owned()),
        on(&id)[1].clone(),
    ];
    assert_eq!(
        conn.post(&call(5, "quick"), &unheard).await.unwrap().status,
        404
    );
}

/// A response read as it comes until its chunked body ends, its date, chunk sizes and
/// direct event numbers left out: what two ways of writing one answer must share.
async fn written(mut reader: BufReader<TcpStream>) -> String {
    let read = async {
        let (mut all, mut line) = (Vec::new(), String::new());
        loop {
            line.clear();
            assert!(
                reader.read_line(&mut line).await.unwrap() > 0,
                "the response ended"
            );
            if line == "0\r\n" {
                return all.join("");
            }
            let chunk_size =
                line.trim().bytes().all(|b| b.is_ascii_hexdigit()) && line.trim() != "";
            if chunk_size || line.to_ascii_lowercase().starts_with("date:") {
                continue;
            }
            let numbered = line.split_once("direct-").map(|(before, after)| {
                let rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
                format!("{before}direct-N{rest}")
            });
            all.push(numbered.unwrap_or_else(|| line.clone()));
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("the whole response within 10 s")
}

#[tokio::test]
async fn a_slow_call_posted_direct_streams_as_one_through_rmcp() {
    let (addr, _) = serve(Duration::from_secs(120)).await;
    let mut conn = Conn::connect(addr).await.unwrap();
    let id = open(&mut conn, json!({})).await;
    // Past 50 ms: an event stream, priming event first, written alike either way.
    let direct = written(post_streaming(addr, &id, &call(6, "slow")).await).await;
    let mut with_meta = call(6, "slow");
    with_meta["params"]["_meta"] = json!({"note": "rmcp's way"});
    let through_rmcp = written(post_streaming(addr, &id, &with_meta).await).await;
    assert!(direct.contains("text/event-stream"), "{direct}");
    assert!(direct.contains("id: direct-N\n"), "{direct}");
    assert_eq!(direct, through_rmcp);
}
