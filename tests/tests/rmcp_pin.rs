//! rmcp is pinned exactly, because the layer and the gateway depend on how it behaves.
//! Each test here names one such behaviour and what in this workspace relies on it.
//! When a new rmcp fails one, the message says what to revisit before moving the pin.

use rmcp::model::{ProgressNotificationParam, Tool};
use serde_json::{Value, json};

/// The workspace's rmcp requirement, as `Cargo.toml` writes it.
fn required() -> String {
    let manifest: toml::Table = toml::from_str(include_str!("../../Cargo.toml")).unwrap();
    manifest["workspace"]["dependencies"]["rmcp"]["version"]
        .as_str()
        .expect("rmcp has a version")
        .to_owned()
}

/// The rmcp version `Cargo.lock` resolved.
fn locked() -> String {
    let lock: toml::Table = toml::from_str(include_str!("../../Cargo.lock")).unwrap();
    let packages = lock["package"].as_array().expect("the lock's packages");
    let rmcp = packages
        .iter()
        .find(|p| p["name"].as_str() == Some("rmcp"))
        .expect("Cargo.lock holds rmcp");
    rmcp["version"].as_str().unwrap().to_owned()
}

#[test]
fn rmcp_is_pinned_exactly_and_the_lock_agrees() {
    let required = required();
    assert!(
        required.starts_with('='),
        "rmcp is required as `{required}`: pin it exactly (`=X.Y.Z`); the layer relies on \
         how its internals behave (the tests below)"
    );
    assert_eq!(
        &required[1..],
        locked(),
        "Cargo.lock resolved another rmcp than the pin"
    );
}

/// `server::verbatim` exists because rmcp's `Tool` drops fields it does not know: the
/// gateway carries them as a patch and puts them back where the answer is written.
#[test]
fn rmcp_tool_drops_fields_it_does_not_know() {
    let written = json!({
        "name": "t",
        "inputSchema": {"type": "object"},
        "x-vendor": {"kept": true}
    });
    let typed: Tool = serde_json::from_value(written).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert!(
        back.get("x-vendor").is_none(),
        "rmcp's Tool now keeps unknown fields: `server::verbatim`'s patches for tools (and \
         the gateway's `keep_tools`) may no longer be needed"
    );
}

/// The gateway passes progress on as the upstream wrote it (`verbatim::notifications`) because rmcp's
/// types hold `progress` as `f64`, and write `1` as `1.0`.
#[test]
fn rmcp_progress_writes_an_integer_as_a_float() {
    let written = json!({"progressToken": "p", "progress": 1, "total": 2});
    let typed: ProgressNotificationParam = serde_json::from_value(written).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(
        back["progress"],
        Value::from(1.0),
        "rmcp now writes progress as the upstream did: the gateway's \
         `verbatim::notifications` progress may no longer be needed"
    );
    assert_ne!(
        back.to_string(),
        r#"{"progressToken":"p","progress":1,"total":2}"#
    );
}

/// The gateway bounds the events of streams it reads itself as rmcp's client bounds its
/// own (`upstream::http::event_size`); it reads the limit from rmcp's settings.
#[test]
fn rmcp_client_bounds_an_event_by_its_settings() {
    let limits = rmcp::transport::streamable_http_client::StreamableHttpResponseLimits::default();
    assert!(
        limits.max_sse_event_size > 0,
        "rmcp's client no longer bounds an event: revisit `upstream::http::event_size`"
    );
}

/// A client's message, as rmcp's HTTP service hands it to the session manager.
fn message(value: Value) -> rmcp::model::ClientJsonRpcMessage {
    serde_json::from_value(value).expect("a client message")
}

/// A ping from the client.
fn ping(id: i64) -> rmcp::model::ClientJsonRpcMessage {
    message(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
}

/// A server of nothing, for a session to run.
#[derive(Clone)]
struct Pinned;

impl rmcp::ServerHandler for Pinned {}

type Sessions = rmcp::transport::streamable_http_server::session::local::LocalSessionManager;

/// A local session manager whose sessions close after `idle` without a message, and one
/// of its sessions, served and initialized as rmcp's HTTP service does it.
async fn initialized(
    idle: std::time::Duration,
) -> (
    Sessions,
    rmcp::transport::streamable_http_server::session::SessionId,
) {
    use rmcp::ServiceExt as _;
    use rmcp::transport::streamable_http_server::session::SessionManager as _;
    let mut local = Sessions::default();
    local.session_config.keep_alive = Some(idle);
    let (id, transport) = local.create_session().await.unwrap();
    tokio::spawn(async move {
        if let Ok(running) = Pinned.serve(transport).await {
            let _ = running.waiting().await;
        }
    });
    let initialize = message(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "pin", "version": "1"}}}));
    local.initialize_session(&id, initialize).await.unwrap();
    let initialized = message(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    local.accept_message(&id, initialized).await.unwrap();
    (local, id)
}

/// `server::direct::session` serves a session's requests past rmcp's session worker, and
/// sends one request in each half idle timeout rmcp's way (`Directory::refresh`), because
/// rmcp's worker ends a session it hears nothing of for its `keep_alive`.
#[tokio::test]
async fn rmcp_ends_a_session_its_worker_hears_nothing_of_for_its_keep_alive() {
    use rmcp::transport::streamable_http_server::session::SessionManager as _;
    let idle = std::time::Duration::from_millis(200);
    let (local, id) = initialized(idle).await;
    assert!(
        local.create_stream(&id, ping(1)).await.is_ok(),
        "a live session"
    );
    // Sleep: time passing is what is tested (three idle timeouts, nothing heard; a poll
    // would be heard, and keep the session alive).
    tokio::time::sleep(idle * 3).await;
    assert!(
        local.create_stream(&id, ping(2)).await.is_err(),
        "rmcp's worker no longer ends an idle session: `direct::session`'s refresh (one \
         request rmcp's way per half idle timeout) may no longer be needed"
    );
}

/// `server::direct::session` and `direct::http` write a direct request's event
/// stream as rmcp writes one, and `direct::json_answer` reads rmcp's: a priming event
/// first (no message, the `retry` rmcp's session is configured with).
#[tokio::test]
async fn rmcp_primes_a_request_s_event_stream_with_its_retry() {
    use futures::StreamExt as _;
    use rmcp::transport::streamable_http_server::session::SessionManager as _;
    let (local, id) = initialized(std::time::Duration::from_secs(60)).await;
    let retry = local.session_config.sse_retry;
    let stream = local.create_stream(&id, ping(1)).await.unwrap();
    let mut stream = Box::pin(stream);
    let first = stream.next().await.expect("a first event");
    assert!(
        first.message.is_none() && first.retry.is_some() && first.retry == retry,
        "rmcp no longer primes a request's stream with its retry ({:?}, {:?}): revisit how \
         `direct::session` writes an answer's events and how `json_answer` reads rmcp's",
        first.message,
        first.retry
    );
}

/// The gateway's lanes number their requests from 2^40 up (`upstream::lane::stdio`'s
/// `Numbers`), where rmcp's client, counting from 0, never reaches.
#[tokio::test]
async fn rmcp_client_numbers_its_requests_from_zero() {
    use rmcp::ServiceExt as _;
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};
    let (client_side, server_side) = tokio::io::duplex(64 * 1024);
    let (server_read, mut server_write) = tokio::io::split(server_side);
    // A server of two answers, in raw JSON-RPC: it keeps the ids it was asked with.
    let server = tokio::spawn(async move {
        let mut lines = tokio::io::BufReader::new(server_read).lines();
        let mut ids = Vec::new();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            let Some(id) = message.get("id").cloned() else {
                continue;
            };
            let result = match message["method"].as_str() {
                Some("initialize") => json!({"protocolVersion": "2025-06-18", "capabilities": {},
                    "serverInfo": {"name": "pin", "version": "1"}}),
                _ => json!({"tools": []}),
            };
            let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
            server_write
                .write_all(format!("{answer}\n").as_bytes())
                .await
                .unwrap();
            ids.push(id);
            if ids.len() == 2 {
                return ids;
            }
        }
        ids
    });
    let (read, write) = tokio::io::split(client_side);
    let client = ().serve((read, write)).await.expect("the handshake");
    client.list_tools(None).await.expect("a listing");
    let ids = server.await.unwrap();
    assert_eq!(
        ids,
        [json!(0), json!(1)],
        "rmcp's client no longer numbers its requests from 0: check that the lanes' numbers \
         (from 2^40, `upstream::lane::stdio`) cannot meet rmcp's"
    );
    let _ = client.cancel().await;
}
