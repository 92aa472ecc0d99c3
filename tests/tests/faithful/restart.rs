//! An HTTP upstream that dies or restarts under a session: the client hears of it as soon as
//! the gateway does, never only at the gateway's deadline. server-everything's
//! `streamableHttp`, killed mid-call (its answer's stream breaks: resumed twice, then the
//! call fails), and started again on the same port (it answers the session it lost with a
//! `400` JSON-RPC error naming no request: the gateway opens a new upstream session, as for
//! a `404`, and the call is served).

use super::http::http_proxy_of;
use super::*;
use mcp_tailor_test_support::http::{Conn, initialize};
use mcp_tailor_test_support::process::{Announced, bound_by};

/// server-everything's `streamableHttp` at `port` (0: one it binds itself), once it
/// listens; the process and its port.
async fn everything_at(port: u16) -> (tokio::process::Child, u16) {
    let child = tokio::process::Command::new("node")
        .args([&everything()[1], "streamableHttp"])
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let port = bound_by(child.id().expect("running")).await.port();
    (child, port)
}

/// A 2025-11-25 session through `proxy --deadline 30` in front of the upstream at `port`:
/// the proxy, the connection and the headers its requests carry.
async fn session_through(port: u16) -> (Announced, Conn, Vec<(&'static str, String)>) {
    let bin = target().join("debug").join("mcp-tailor");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let line = [bin.display().to_string(), "proxy".to_owned()]
        .into_iter()
        .chain(["--deadline", "30", "--upstream", &url].map(str::to_owned))
        .collect::<Vec<_>>();
    let proxy = http_proxy_of(&line).await;
    let mut conn = Conn::connect(proxy.addr).await.unwrap();
    let opened = conn.post(&initialize(0, "raw"), &[]).await.unwrap();
    let headers = vec![
        ("Mcp-Session-Id", opened.session.expect("a session")),
        ("MCP-Protocol-Version", "2025-11-25".to_owned()),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    conn.post(&initialized, &headers).await.unwrap();
    (proxy, conn, headers)
}

fn call(id: u64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn a_call_whose_http_upstream_dies_fails_before_the_deadline() {
    let (mut upstream, port) = everything_at(0).await;
    let (proxy, mut conn, headers) = session_through(port).await;
    let mut long = call(
        2,
        "trigger-long-running-operation",
        json!({"duration": 10, "steps": 10}),
    );
    long["params"]["_meta"] = json!({"progressToken": "long"});
    // Killed once the call is under way upstream: its first progress has come through.
    let (heard, progressed) = tokio::sync::oneshot::channel();
    let killing = tokio::spawn(async move {
        progressed.await.expect("the call progressed");
        upstream.kill().await.unwrap();
    });
    let progress = "notifications/progress";
    let reply = conn.post_hearing(&long, &headers, progress, heard);
    let reply = reply.await.unwrap();
    killing.await.unwrap();
    let error = &reply.message.expect("an answer")["error"];
    // Before, rmcp resumed the broken stream for ever: `"cause": "timeout"` at 30 s.
    assert_eq!(
        error["data"],
        json!({"reason": "upstream_failure"}),
        "{error}"
    );
    // The log says why in the user's words, not rmcp's ("Transport closed").
    let logged = proxy.ended().await;
    assert!(
        logged.contains("upstream failure: the upstream closed the connection"),
        "{logged}"
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn a_call_to_a_restarted_http_upstream_is_served_in_a_new_session() {
    let (mut upstream, port) = everything_at(0).await;
    let (_proxy, mut conn, headers) = session_through(port).await;
    let echo = |id| call(id, "echo", json!({"message": "hi"}));
    let reply = conn.post(&echo(2), &headers).await.unwrap();
    assert_eq!(
        reply.message.unwrap()["result"]["content"][0]["text"],
        "Echo: hi"
    );
    upstream.kill().await.unwrap();
    let _restarted = everything_at(port).await;
    // The upstream refuses the session it lost with `400` (an error naming no request);
    // the gateway opens a new one, as the client did, and posts the call again. (Before,
    // first the call waited out the deadline, then every call got that refusal.)
    for id in [3, 4] {
        let reply = conn.post(&echo(id), &headers).await.unwrap();
        let answer = reply.message.unwrap();
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(
            answer["result"]["content"][0]["text"], "Echo: hi",
            "{answer}"
        );
    }
}
