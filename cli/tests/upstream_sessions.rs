//! How many upstream processes `proxy` keeps, counted as the system sees them: a command
//! upstream (here `mcp-tailor proxy` itself on stdio, in front of this test's notes
//! server) behind `proxy`, read by raw JSON-RPC clients over stdio and streamable HTTP.
//! The first session takes the process started to learn the upstream; per client each
//! session has its own, ended with it; shared, all have one; a warm spare is one ahead;
//! none outlives the proxy. The upstream's listing is read once per connection, until the
//! upstream says it changed.

mod common;
#[path = "upstream_sessions/http_session.rs"]
mod http_session;

use common::{BIN, serve, upstream};
use http_session::{HttpSession, names};
use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, Server};
use mcp_tailor_test_support::{children, eventually};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

/// Waits until `pid` has had `count` children for 300 ms (a process being killed is still
/// listed for a moment), or 10 s pass; how many it has.
async fn settles_at(pid: u32, count: usize) -> usize {
    let mut since: Option<Instant> = None;
    let settled = eventually(Duration::from_secs(10), || {
        let now = children(pid).len();
        since = match (now == count, since) {
            (true, None) => Some(Instant::now()),
            (true, at) => at,
            (false, _) => None,
        };
        let held = since.is_some_and(|at| at.elapsed() > Duration::from_millis(300));
        std::future::ready(held.then_some(now))
    })
    .await;
    settled.unwrap_or_else(|| children(pid).len())
}

/// Whether the process `pid` is gone (or a zombie), within 10 s.
async fn ends(pid: u32) -> bool {
    let gone = eventually(Duration::from_secs(10), || async {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        stat.rsplit_once(')')
            .is_none_or(|(_, rest)| rest.trim_start().starts_with('Z'))
            .then_some(())
    })
    .await;
    gone.is_some()
}

fn initialize(capabilities: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": capabilities,
        "clientInfo": {"name": "raw-jsonrpc", "version": "1"}
    }})
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;

/// `proxy ARGS… -- mcp-tailor proxy --upstream URL`: the upstream is a command.
fn proxy_command(args: &[&str], url: &str) -> Command {
    let mut command = Command::new(BIN);
    command
        .arg("proxy")
        .args(args)
        .args(["--", BIN, "proxy", "--upstream", url])
        .stderr(Stdio::null())
        .kill_on_drop(true);
    command
}

/// `proxy --http` in front of the command upstream; the child and its address.
async fn http_proxy(args: &[&str], url: &str) -> (Child, SocketAddr, u32) {
    let mut command = Command::new(BIN);
    command
        .args(["proxy", "--http", "127.0.0.1:0"])
        .args(args)
        .args(["--", BIN, "proxy", "--upstream", url]);
    let proxy = common::spawned(command).await;
    let pid = proxy.child.id().unwrap();
    (proxy.child, proxy.addr, pid)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stdio_client_is_served_by_one_upstream_process() {
    let url = upstream().await;
    for capabilities in [json!({}), json!({"roots": {"listChanged": true}})] {
        let mut proxy = proxy_command(&[], &url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = proxy.id().unwrap();
        assert_eq!(settles_at(pid, 1).await, 1);
        let first = children(pid)[0];
        let mut stdin = proxy.stdin.take().unwrap();
        let mut lines = BufReader::new(proxy.stdout.take().unwrap()).lines();
        for message in [
            initialize(capabilities.clone()).to_string(),
            INITIALIZED.into(),
            LIST.into(),
        ] {
            stdin
                .write_all(format!("{message}\n").as_bytes())
                .await
                .unwrap();
        }
        let listed = loop {
            let line = lines.next_line().await.unwrap().expect("an answer");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == 1 {
                break names(&message);
            }
        };
        assert_eq!(listed, ["search_notes"]);
        // The process started to learn the upstream is this client's (no capabilities), or
        // is ended once the client has its own (capabilities the first did not declare).
        assert_eq!(settles_at(pid, 1).await, 1, "{capabilities}");
        let upstream_pid = children(pid)[0];
        let fits = capabilities == json!({});
        assert_eq!(upstream_pid == first, fits, "{capabilities}");
        // The client goes: the proxy ends, and its upstream with it.
        drop(stdin);
        assert!(ends(pid).await, "the proxy did not end with its client");
        assert!(ends(upstream_pid).await, "the upstream outlived the proxy");
        let _ = proxy.wait().await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn per_client_each_session_has_its_own_upstream_ended_with_it() {
    let url = upstream().await;
    let (mut proxy, addr, pid) = http_proxy(&[], &url).await;
    assert_eq!(
        settles_at(pid, 1).await,
        1,
        "the process that learns the upstream"
    );
    let first = children(pid);
    let mut sessions = Vec::new();
    for _ in 0..3 {
        let session = HttpSession::open(addr, json!({})).await;
        assert_eq!(session.list().await, ["search_notes"]);
        sessions.push(session);
    }
    // The first session took the first process: three sessions, three processes.
    assert_eq!(settles_at(pid, 3).await, 3);
    assert!(children(pid).contains(&first[0]));
    let closed = sessions.pop().unwrap();
    assert_eq!(closed.close().await, 200);
    assert_eq!(
        settles_at(pid, 2).await,
        2,
        "an ended session ends its upstream"
    );
    let upstreams = children(pid);
    // SIGTERM: the proxy stops, and its upstreams with it.
    let _ = Command::new("kill").arg(pid.to_string()).status().await;
    assert!(ends(pid).await);
    for upstream in upstreams {
        assert!(
            ends(upstream).await,
            "upstream {upstream} outlived the proxy"
        );
    }
    let _ = proxy.wait().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn per_client_one_address_holds_at_most_its_upstream_sessions() {
    let url = upstream().await;
    let (_proxy, addr, pid) = http_proxy(&["--max-upstream-sessions", "2"], &url).await;
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let session = HttpSession::open(addr, json!({})).await;
        assert_eq!(session.list().await, ["search_notes"]);
        sessions.push(session);
    }
    // A third session of the same address: served no upstream, and starts none.
    let third = HttpSession::open(addr, json!({})).await;
    assert!(third.list().await.is_empty());
    assert_eq!(settles_at(pid, 2).await, 2);
    // An ended session gives its place back.
    assert_eq!(sessions.pop().unwrap().close().await, 200);
    let fourth = HttpSession::open(addr, json!({})).await;
    let listed = mcp_tailor_test_support::eventually(Duration::from_secs(10), || async {
        let names = fourth.list().await;
        (!names.is_empty()).then_some(names)
    })
    .await;
    assert_eq!(listed.as_deref(), Some(&["search_notes".to_owned()][..]));
    assert_eq!(settles_at(pid, 2).await, 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn with_threads_a_session_is_served_on_any_connection_and_all_end_with_the_proxy() {
    let url = upstream().await;
    let (mut proxy, addr, pid) = http_proxy(&["--threads", "3"], &url).await;
    let mut sessions = Vec::new();
    for _ in 0..6 {
        let session = HttpSession::open(addr, json!({})).await;
        assert_eq!(session.list().await, ["search_notes"]);
        sessions.push(session);
    }
    for session in &sessions {
        assert_eq!(session.reconnected().list().await, ["search_notes"]);
    }
    // Two more threads, each accepting (`mcp-tailor-http-N`, cut to 15 bytes by Linux).
    let accepting = std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|name| name.trim() == "mcp-tailor-http")
        })
        .count();
    assert_eq!(accepting, 2);
    assert_eq!(settles_at(pid, 6).await, 6, "an upstream per session");
    let upstreams = children(pid);
    let _ = Command::new("kill").arg(pid.to_string()).status().await;
    assert!(ends(pid).await, "the proxy did not end on SIGTERM");
    for upstream in upstreams {
        assert!(
            ends(upstream).await,
            "upstream {upstream} outlived the proxy"
        );
    }
    let _ = proxy.wait().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn shared_all_sessions_have_one_upstream() {
    let url = upstream().await;
    let (_proxy, addr, pid) = http_proxy(&["--upstream-sessions", "shared"], &url).await;
    let mut sessions = Vec::new();
    for _ in 0..3 {
        let session = HttpSession::open(addr, json!({"sampling": {}})).await;
        assert_eq!(session.list().await, ["search_notes"]);
        sessions.push(session);
    }
    assert_eq!(settles_at(pid, 1).await, 1);
    for session in sessions {
        assert_eq!(session.close().await, 200);
    }
    assert_eq!(children(pid).len(), 1, "the shared upstream stays");
}

/// Name the client's roots.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct WhoseRoots {}

/// An upstream whose one tool asks the client for its roots.
#[allow(deprecated)] // rmcp marks roots deprecated (SEP-2577); clients still have them
async fn roots_upstream() -> String {
    let server = Server::builder()
        .tool(|_: WhoseRoots, context: CallContext| async move {
            let listed = context
                .peer()
                .list_roots()
                .await
                .map_err(|e| e.to_string())?;
            let uris: Vec<String> = listed.roots.into_iter().map(|r| r.uri).collect();
            Ok::<_, String>(Value::String(uris.join(" ")))
        })
        .build()
        .unwrap();
    serve(server, |router| router).await
}

#[tokio::test(flavor = "multi_thread")]
async fn shared_the_upstreams_requests_go_to_the_session_whose_call_is_in_flight() {
    let url = roots_upstream().await;
    let (_proxy, addr, pid) = http_proxy(&["--upstream-sessions", "shared"], &url).await;
    let roots = json!({"roots": {"listChanged": true}});
    let (a, b) = (
        HttpSession::open(addr, roots.clone()).await,
        HttpSession::open(addr, roots).await,
    );
    for _ in 0..3 {
        for (session, root) in [(&a, "file:///a"), (&b, "file:///b")] {
            let result = session.call_answering_roots("whose_roots", &[root]).await;
            let text = &result["result"]["content"][0]["text"];
            assert_eq!(*text, json!(root).to_string(), "{result}");
        }
    }
    assert_eq!(children(pid).len(), 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_warm_spare_is_one_ahead() {
    let url = upstream().await;
    let (_proxy, addr, pid) = http_proxy(&["--warm-spare"], &url).await;
    let first = HttpSession::open(addr, json!({"roots": {}})).await;
    assert_eq!(first.list().await, ["search_notes"]);
    // Its own (the first process did not fit it) and a spare opened as it was.
    assert_eq!(settles_at(pid, 2).await, 2);
    let spare = children(pid);
    let second = HttpSession::open(addr, json!({"roots": {}})).await;
    assert_eq!(second.list().await, ["search_notes"]);
    // The second took the spare; a new one is opened ahead.
    assert_eq!(settles_at(pid, 3).await, 3);
    assert!(spare.iter().all(|p| children(pid).contains(p)));
}

/// Change the tools.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct TouchTools {}

/// An upstream that says its tools changed when `touch_tools` is called, and counts the
/// `tools/list` requests it answers.
async fn counting_upstream(lists: Arc<AtomicUsize>) -> String {
    let server = Server::builder()
        .tool(|_: TouchTools, context: CallContext| async move {
            context.notify_tool_list_changed().await;
            Ok::<_, String>(json!("touched"))
        })
        .build()
        .unwrap();
    serve(server, move |router| {
        router.layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let lists = lists.clone();
                async move {
                    let (parts, body) = request.into_parts();
                    let bytes = axum::body::to_bytes(body, usize::MAX)
                        .await
                        .unwrap_or_default();
                    if String::from_utf8_lossy(&bytes).contains("\"tools/list\"") {
                        lists.fetch_add(1, Ordering::SeqCst);
                    }
                    let request = axum::extract::Request::from_parts(parts, bytes.into());
                    next.run(request).await
                }
            },
        ))
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn the_upstreams_listing_is_read_once_until_it_changes() {
    let lists = Arc::new(AtomicUsize::new(0));
    let url = counting_upstream(lists.clone()).await;
    let (_proxy, addr) = common::proxy(&["--upstream", &url], &[]).await;
    // The proxy lists once to learn the upstream (its port is bound before); the first
    // session takes that connection, and its listing with it.
    let listed = eventually(Duration::from_secs(10), || async {
        (lists.load(Ordering::SeqCst) > 0).then_some(())
    })
    .await;
    assert!(listed.is_some(), "the proxy never listed the upstream");
    assert_eq!(lists.load(Ordering::SeqCst), 1);
    let session = HttpSession::open(addr, json!({})).await;
    for _ in 0..3 {
        assert!(session.list().await.contains(&"touch_tools".to_owned()));
    }
    assert_eq!(lists.load(Ordering::SeqCst), 1, "listed from memory");
    session.call_answering_roots("touch_tools", &[]).await;
    // The upstream said its tools changed: the next listing asks it again, then is kept.
    let deadline = Instant::now() + Duration::from_secs(5);
    while lists.load(Ordering::SeqCst) < 2 && Instant::now() < deadline {
        session.list().await;
    }
    assert_eq!(lists.load(Ordering::SeqCst), 2);
    session.list().await;
    assert_eq!(lists.load(Ordering::SeqCst), 2);
}

/// Say who the request came as.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Whoami {}

/// An upstream that takes the gateway's, Alice's and Bob's bearer tokens (HTTP 401
/// otherwise), and whose `whoami` says which one a call came with.
async fn guarded_upstream() -> String {
    let server = Server::builder()
        .tool(|_: Whoami, context: CallContext| async move {
            let said = context.request().headers.get("authorization");
            let said = said.and_then(|v| v.to_str().ok()).unwrap_or("nobody");
            Ok::<_, String>(json!(said))
        })
        .build()
        .unwrap();
    serve(server, |router| {
        router.layer(axum::middleware::from_fn(
            |request: axum::extract::Request, next: axum::middleware::Next| async move {
                let token = request.headers().get("authorization");
                let known = ["Bearer gateway", "Bearer alice", "Bearer bob"];
                match token.and_then(|t| t.to_str().ok()) {
                    Some(token) if known.contains(&token) => next.run(request).await,
                    _ => axum::response::IntoResponse::into_response(
                        axum::http::StatusCode::UNAUTHORIZED,
                    ),
                }
            },
        ))
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
async fn each_client_reaches_the_upstream_with_its_own_authorization() {
    let url = guarded_upstream().await;
    for sessions in ["per-client", "shared"] {
        let (_proxy, addr) = common::proxy(
            &[
                "--forward-authorization",
                "--upstream-sessions",
                sessions,
                "--upstream",
                &url,
                // The gateway's own, to learn the upstream; never a client's.
                "--upstream-header",
                "Authorization: Bearer gateway",
            ],
            &[],
        )
        .await;
        for who in ["alice", "bob", "alice"] {
            let token = format!("Bearer {who}");
            let session = HttpSession::open_as(addr, json!({}), Some(&token)).await;
            let answer = session.call_answering_roots("whoami", &[]).await;
            let text = &answer["result"]["content"][0]["text"];
            assert_eq!(*text, json!(token).to_string(), "{sessions}: {answer}");
        }
        // A client that sends none is not lent the gateway's.
        let anonymous = HttpSession::open_as(addr, json!({}), None).await;
        let answer = anonymous.call_answering_roots("whoami", &[]).await;
        assert!(answer.get("error").is_some(), "{sessions}: {answer}");
    }
}
