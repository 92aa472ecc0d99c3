//! What a client can make the server keep, echo or choke on is bounded: malformed calls,
//! a second handshake, long reader names and tool names, bodies that are not JSON-RPC,
//! full session tables (which make room from idle sessions, per client address too), slow
//! clients, too many connections, host output nested deep enough to overflow a stack,
//! short cursor secrets.

use crate::common::*;
use mcp_tailor::server::HttpConfig;
use mcp_tailor::server::{BuildError, Presentation};
use mcp_tailor_test_support::{eventually, http};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn malformed_calls_a_second_handshake_and_long_names_are_refused() {
    let server = abc(&Calls::default()).build().unwrap();
    let mut raw = Raw::connect(&server);
    raw.initialize(1, "codex").await;
    let bad_name = raw.request(2, "tools/call", json!({"name": 5})).await;
    assert_eq!(bad_name["error"]["code"], -32602, "{bad_name}");
    let bad_args = raw
        .request(3, "tools/call", json!({"name": "alpha", "arguments": []}))
        .await;
    assert_eq!(bad_args["error"]["code"], -32602, "{bad_args}");

    let again = raw.initialize(4, "grok").await;
    assert_eq!(again["error"]["code"], -32600, "{again}");
    let listed = raw.request(5, "tools/list", json!({})).await;
    assert_eq!(
        listed["result"]["tools"][0]["description"], "alpha (codex wording)",
        "the reader is still codex's"
    );

    let long = "x".repeat(129);
    let refused = raw
        .request(6, "mcp-tailor/setReader", json!({"runner": long}))
        .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["reason"], "invalid_reader");

    let huge = "y".repeat(1 << 20);
    let unknown = raw
        .request(7, "tools/call", json!({"name": huge, "arguments": {}}))
        .await;
    assert_eq!(unknown["error"]["data"]["reason"], "unknown_tool");
    let echoed = unknown["error"]["data"]["name"].as_str().unwrap();
    assert_eq!(echoed.len(), 128);
    assert!(
        unknown.to_string().len() < 1_000,
        "the reply echoes a bounded name"
    );
}

#[test]
fn short_cursor_secrets_fail_the_build() {
    let error = abc(&Calls::default())
        .cursor_secret(b"short".to_vec())
        .build();
    let BuildError::CursorSecret(short) = error.unwrap_err() else {
        panic!("not a short secret")
    };
    assert_eq!(short.0, 5);
}

#[tokio::test]
async fn host_output_nested_a_million_deep_is_a_controlled_failure() {
    let server = abc(&Calls::default())
        .presentation(|_, _| async {
            let mut deep = Value::Null;
            for _ in 0..1_000_000 {
                deep = Value::Array(vec![deep]);
            }
            let mut meta = serde_json::Map::new();
            meta.insert("com.example/deep".into(), deep);
            let mut overrides = serde_json::Map::new();
            overrides.insert("_meta".into(), Value::Object(meta));
            Presentation::Overrides(overrides)
        })
        .build()
        .unwrap();
    let client = connect(&server, "stdio", "codex", Opening::SessionBound).await;
    for _ in 0..3 {
        let error = list(&client, None, json!({})).await.unwrap_err();
        assert_eq!(reason(&error), "tool_presentation_failure");
    }
    assert!(
        call(&client, "bravo", json!({})).await.is_ok(),
        "the server keeps serving"
    );
}

/// One HTTP/1.1 POST on a fresh connection; the status and the body.
async fn post(addr: SocketAddr, body: &str, extra: &str) -> (u16, String) {
    let (status, _, body) = http::exchange(addr, "POST", "/mcp", extra, body).await;
    (status, body)
}

fn initialize(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}})
    .to_string()
}

#[tokio::test]
async fn bodies_that_are_not_json_rpc_are_400_with_a_json_rpc_error() {
    let server = abc(&Calls::default()).build().unwrap();
    let addr = http_server(&server).await;
    // Not JSON: -32700; JSON but not JSON-RPC: -32600.
    for (body, code) in [
        ("{not json", -32700),
        (r#"{"jsonrpc": "2.0", "method": "ping"} trailing"#, -32700),
        ("[]", -32600),
        ("42", -32600),
        (r#"{"method": "tools/list"}"#, -32600),
        (r#"{"jsonrpc": 2, "method": "tools/list"}"#, -32600),
        (
            r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}, 7]"#,
            -32600,
        ),
    ] {
        let (status, answer) = post(addr, body, "").await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            serde_json::from_str::<Value>(&answer).unwrap()["error"]["code"],
            code,
            "{body}"
        );
    }
}

#[tokio::test]
async fn a_full_session_table_closes_its_least_recently_used_idle_session() {
    let mut config = HttpConfig::default();
    config.max_sessions = 3;
    let addr = serve(config).await;
    let (first, second, third) = (open(addr).await, open(addr).await, open(addr).await);
    assert_eq!(ping(addr, &first).await, 200, "a session is served");
    // The table is full; `second` is the least recently used idle session.
    let fourth = open(addr).await;
    assert_eq!(
        ping(addr, &second).await,
        404,
        "the evicted session is gone"
    );
    for kept in [&first, &third, &fourth] {
        assert_eq!(ping(addr, kept).await, 200, "{kept} is kept");
    }
    // 2026-07-28 requests have no session: they are served whatever the table holds.
    let (stateless, _) = http(addr, "codex", Opening::Stateless, &[]).await;
    assert!(list(&stateless, None, json!({})).await.is_ok());
}

#[tokio::test]
async fn a_session_with_a_request_in_flight_is_never_closed_and_a_busy_table_answers_503() {
    let mut config = HttpConfig::default();
    config.max_sessions = 2;
    let addr = serve(config).await;
    let (first, second) = (open(addr).await, open(addr).await);
    // `first` is the older, but its response stream is open: `second` makes room.
    let _first_stream = listen(addr, &first).await;
    let third = open(addr).await;
    assert_eq!(ping(addr, &second).await, 404);
    assert_eq!(ping(addr, &first).await, 200, "a busy session is kept");
    let _third_stream = listen(addr, &third).await;
    let (status, body) = post(addr, &initialize(9), "").await;
    assert_eq!(status, 503, "every session is busy: {body}");
    let refused: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (refused["id"].clone(), refused["error"]["code"].clone()),
        (json!(9), json!(-32000))
    );
    for kept in [&first, &third] {
        assert_eq!(ping(addr, kept).await, 200, "{kept} is kept");
    }
}

#[tokio::test]
async fn one_client_address_holds_at_most_its_share_and_evicts_only_its_own() {
    let mut config = HttpConfig::default();
    config.max_sessions_per_client = 2;
    let addr = serve(config).await;
    let sessions = [open(addr).await, open(addr).await, open(addr).await];
    assert_eq!(
        ping(addr, &sessions[0]).await,
        404,
        "the address's oldest goes"
    );
    assert_eq!(ping(addr, &sessions[1]).await, 200);
    assert_eq!(ping(addr, &sessions[2]).await, 200);
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_share_is_the_forwarded_clients() {
    let mut config = HttpConfig::default();
    config.max_sessions_per_client = 2;
    config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let addr = serve(config).await;
    let from = |client: &str| format!("X-Forwarded-For: {client}\r\n");
    let mut a = Vec::new();
    let mut b = Vec::new();
    for _ in 0..2 {
        a.push(open_with(addr, &from("203.0.113.1")).await);
        b.push(open_with(addr, &from("203.0.113.2")).await);
    }
    // Four sessions from one peer, two clients behind it: each holds its own share.
    for id in a.iter().chain(&b) {
        assert_eq!(ping(addr, id).await, 200, "{id}");
    }
    // A third from one client closes that client's oldest, not the other's.
    let third = open_with(addr, &from("198.51.100.7, 203.0.113.1")).await;
    assert_eq!(ping(addr, &a[0]).await, 404, "the client's oldest goes");
    for id in [&a[1], &b[0], &b[1], &third] {
        assert_eq!(ping(addr, id).await, 200, "{id}");
    }
}

#[tokio::test]
async fn a_replica_tag_prefixes_every_session_id_and_the_sessions_work_as_any() {
    let mut config = HttpConfig::default();
    config.replica_tag = Some("r2".into());
    config.max_sessions = 2;
    let addr = serve(config).await;
    let (first, second) = (open(addr).await, open(addr).await);
    for id in [&first, &second] {
        assert!(id.starts_with("r2.") && id.len() > 3 + 16, "{id}");
    }
    assert_ne!(first, second);
    assert_eq!(ping(addr, &first).await, 200);
    // The table is full: eviction works on tagged ids as on any.
    let third = open(addr).await;
    assert!(third.starts_with("r2."), "{third}");
    assert_eq!(ping(addr, &second).await, 404);
    let (client, _) = http(addr, "codex", Opening::SessionBound, &[]).await;
    assert!(list(&client, None, json!({})).await.is_ok());
}

#[test]
fn a_replica_tag_that_cannot_go_into_a_session_id_fails_the_build() {
    for tag in ["", "r.1", "r 1", "é", &"r".repeat(33)] {
        let mut config = HttpConfig::default();
        config.replica_tag = Some(tag.to_owned());
        let error = abc(&Calls::default())
            .http_config(config)
            .build()
            .unwrap_err();
        assert_eq!(error, BuildError::ReplicaTag(tag.to_owned()), "{tag:?}");
    }
    let mut config = HttpConfig::default();
    config.replica_tag = Some("replica-3_b".to_owned());
    assert!(abc(&Calls::default()).http_config(config).build().is_ok());
}

#[tokio::test]
async fn a_foreign_origin_is_403_and_the_endpoints_own_or_an_allowed_one_passes() {
    let mut config = HttpConfig::default();
    config.allowed_origins = vec!["https://app.example.com".to_owned()];
    let addr = serve(config).await;
    let (status, answer) = post(addr, &initialize(1), "Origin: http://evil.example.com\r\n").await;
    assert_eq!(status, 403, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["error"]["code"], -32600);
    for origin in [
        String::new(),
        format!("Origin: http://{addr}\r\n"),
        "Origin: https://app.example.com\r\n".to_owned(),
    ] {
        assert_eq!(post(addr, &initialize(1), &origin).await.0, 200, "{origin}");
    }
}

#[test]
fn an_allowed_origin_that_is_no_origin_fails_the_build() {
    let mut config = HttpConfig::default();
    config.allowed_origins = vec!["app.example.com".to_owned()];
    let error = abc(&Calls::default())
        .http_config(config)
        .build()
        .unwrap_err();
    assert_eq!(error, BuildError::Origin("app.example.com".to_owned()));
}

/// The `abc` catalog with `config`, on streamable HTTP on a loopback port.
async fn serve(config: HttpConfig) -> SocketAddr {
    let server = abc(&Calls::default()).http_config(config).build().unwrap();
    http_server(&server).await
}

/// The headers of a request on 2025-11-25 session `id`.
fn on_session(id: &str) -> String {
    format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n")
}

/// Opens a 2025-11-25 session with a raw `initialize` (and `notifications/initialized`),
/// never to be closed; its id.
async fn open(addr: SocketAddr) -> String {
    open_with(addr, "").await
}

/// The value of the header `name` among a response's `headers`.
fn header(headers: &str, name: &str) -> Option<String> {
    headers.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name)
            .then(|| value.trim().to_owned())
    })
}

/// [`open`], the `initialize` sent with `extra` headers.
async fn open_with(addr: SocketAddr, extra: &str) -> String {
    let (status, headers, body) = http::exchange(addr, "POST", "/mcp", extra, &initialize(1)).await;
    assert_eq!(status, 200, "{body}");
    let id = header(&headers, "mcp-session-id").expect("a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, _, _) = http::exchange(
        addr,
        "POST",
        "/mcp",
        &format!("{extra}{}", on_session(&id)),
        &initialized.to_string(),
    )
    .await;
    assert_eq!(status, 202);
    id
}

/// A `ping` on session `id`: its HTTP status (404 once the session is gone).
async fn ping(addr: SocketAddr, id: &str) -> u16 {
    let ping = json!({"jsonrpc": "2.0", "id": 7, "method": "ping"});
    http::exchange(addr, "POST", "/mcp", &on_session(id), &ping.to_string())
        .await
        .0
}

/// Opens session `id`'s standalone response stream (`GET /mcp`) and keeps it open: the
/// session has a request in flight while the stream lives.
async fn listen(addr: SocketAddr, id: &str) -> TcpStream {
    let (status, stream) = listen_with(addr, id, "").await;
    assert_eq!(status, "200", "the stream opens");
    stream
}

/// Opens session `id`'s event stream with the `extra` headers; its HTTP status, and the
/// connection that holds it open.
async fn listen_with(addr: SocketAddr, id: &str, extra: &str) -> (String, TcpStream) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{extra}{}\r\n",
        on_session(id)
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(10), stream.read_exact(&mut head))
        .await
        .expect("the stream's head within 10 s")
        .unwrap();
    (String::from_utf8_lossy(&head[9..12]).into_owned(), stream)
}

#[tokio::test]
async fn slow_clients_are_cut_off_and_never_lock_out_a_new_one() {
    let mut config = HttpConfig::default();
    config.max_connections = 4;
    config.header_read_timeout = Duration::from_millis(500);
    let addr = serve(config).await;
    // More trickling connections than the server serves at once.
    let mut slow = Vec::new();
    for _ in 0..8 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        slow.push(stream);
    }
    let started = Instant::now();
    let (status, _) = post(addr, &initialize(1), "").await;
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "served after {:?}",
        started.elapsed()
    );
    // The server closed the slow connections itself.
    let mut closed = 0;
    for stream in &mut slow {
        let mut buffer = [0u8; 256];
        if let Ok(Ok(n)) =
            tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await
        {
            // EOF, or a 408 before EOF: either way, the server ended it.
            let _ = n;
            closed += 1;
        }
    }
    assert_eq!(closed, slow.len());
}

#[tokio::test]
async fn one_address_holding_connections_half_open_never_takes_the_others() {
    /// Whether the server ended `stream` within `within`.
    async fn ended(stream: &mut TcpStream, within: Duration) -> bool {
        let mut buffer = [0u8; 64];
        let read = tokio::time::timeout(within, stream.read(&mut buffer)).await;
        matches!(read, Ok(Ok(0) | Err(_)))
    }
    // Headers never finish: the header timeout (a minute here) would free nothing in
    // time, so only the per-address share lets the other client in.
    let mut config = HttpConfig::default();
    config.max_connections = 16;
    config.max_connections_per_client = 4;
    config.header_read_timeout = Duration::from_secs(60);
    let addr = serve(config).await;
    let mut held = Vec::new();
    for _ in 0..40 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        held.push(stream);
    }
    // Another address is served while all 40 stay open.
    let other: std::net::IpAddr = "127.0.0.2".parse().unwrap();
    let mut good = http::Conn::connect_from(addr, Some(other)).await.unwrap();
    let body: Value = serde_json::from_str(&initialize(1)).unwrap();
    let answered = tokio::time::timeout(Duration::from_secs(30), good.post(&body, &[])).await;
    let reply = answered.expect("served before the header timeout").unwrap();
    assert_eq!(reply.status, 200);
    // Below three quarters of the connections (12 of 16) one address may hold more than
    // its share (4): the first 12, accepted in the order they came, hold their places.
    // Past it, every one over the share is closed as soon as it is accepted.
    for stream in &mut held[12..] {
        assert!(ended(stream, Duration::from_secs(10)).await);
    }
    for stream in &mut held[..12] {
        assert!(!ended(stream, Duration::from_millis(100)).await);
    }
}

#[tokio::test]
async fn a_principal_holding_event_streams_open_never_takes_another_s() {
    /// Opens a session as `principal` and its event stream; the stream's HTTP status, and
    /// the connection that holds it open.
    async fn stream_as(addr: SocketAddr, principal: &str) -> (String, TcpStream) {
        let who = format!("X-Test-Principal: {principal}\r\n");
        let id = open_with(addr, &who).await;
        listen_with(addr, &id, &who).await
    }
    let mut config = HttpConfig::default();
    config.max_streams_per_principal = 3;
    let addr = serve(config).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let (status, stream) = stream_as(addr, "hog").await;
        assert_eq!(status, "200");
        held.push(stream);
    }
    // Past its share: 429, while its three stay open.
    let (status, _) = stream_as(addr, "hog").await;
    assert_eq!(status, "429");
    // Another principal is not held back by it.
    let (status, _other) = stream_as(addr, "other").await;
    assert_eq!(status, "200");
    // A stream that closes gives its place back.
    drop(held.pop());
    let reopened = eventually(Duration::from_secs(10), || async {
        let (status, stream) = stream_as(addr, "hog").await;
        (status == "200").then_some(stream)
    })
    .await;
    assert!(reopened.is_some(), "a closed stream's place is given back");
}

#[tokio::test]
async fn idle_keep_alive_connections_are_closed() {
    let mut config = HttpConfig::default();
    config.header_read_timeout = Duration::from_millis(500);
    let addr = serve(config).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = initialize(1);
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    // Read the response, then stay idle: the server ends the connection by itself.
    let started = Instant::now();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer)).await {
            Ok(Ok(0)) => break,
            Ok(Ok(_)) => continue,
            Ok(Err(_)) => break,
            Err(_) => panic!(
                "the idle connection is still open after {:?}",
                started.elapsed()
            ),
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "closed after {:?}",
        started.elapsed()
    );
}

/// The content type and body of `tools/list` on a fresh session of a server with `config`.
async fn listed(config: HttpConfig) -> (String, String) {
    let addr = serve(config).await;
    let id = open(addr).await;
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let (status, headers, body) =
        http::exchange(addr, "POST", "/mcp", &on_session(&id), &list.to_string()).await;
    assert_eq!(status, 200, "{body}");
    let content_type = header(&headers, "content-type").expect("a content type");
    (content_type, body)
}

#[tokio::test]
async fn a_sessions_answer_given_at_once_is_one_json_body_unless_streams_are_asked_for() {
    let (content_type, body) = listed(HttpConfig::default()).await;
    assert_eq!(content_type, "application/json");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["id"], 3);
    assert!(answer["result"]["tools"].as_array().is_some(), "{body}");
    let mut streamed = HttpConfig::default();
    streamed.json_answers = false;
    let (content_type, body) = listed(streamed).await;
    assert_eq!(content_type, "text/event-stream");
    // A priming event to resume from, then the answer.
    assert!(body.contains("retry:"), "{body}");
    assert!(body.contains("\"id\":3"), "{body}");
}
