//! The gateway passes on what it does not tailor, checked with raw JSON-RPC (no SDK types
//! in between) against pinned servers nobody here wrote, npm
//! `@modelcontextprotocol/server-everything` and `server-filesystem`, directly and behind
//! `mcp-tailor proxy`: `initialize`, the listings and calls, byte for byte but for the
//! documented additions; every progress notification, in order, before its result.
//! Run with `--ignored` and `MCP_TAILOR_SERVERS` (the npm prefix `.ci/run` installs into).

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};

fn target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    )
}

/// server-everything over stdio.
fn everything() -> Vec<String> {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    let script = npm.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    vec!["node".to_owned(), script.display().to_string()]
}

/// server-filesystem over stdio, in a folder of two files.
fn filesystem() -> Vec<String> {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    let script = npm.join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    let dir = target().join("faithful-files");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "notes\n").unwrap();
    vec![
        "node".to_owned(),
        script.display().to_string(),
        dir.display().to_string(),
    ]
}

/// `command` behind `mcp-tailor proxy` on stdio.
fn proxied(command: &[String]) -> Vec<String> {
    let bin = target().join("debug").join("mcp-tailor");
    assert!(bin.exists(), "run `cargo build -p mcp-tailor-cli` first");
    let mut line = vec![
        bin.display().to_string(),
        "proxy".to_owned(),
        "--".to_owned(),
    ];
    line.extend(command.iter().cloned());
    line
}

/// A JSON-RPC peer on a process's stdin and stdout, one message per line.
struct Raw {
    child: Child,
    stdin: ChildStdin,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Raw {
    /// Starts `command` and completes the `initialize` handshake; returns the peer and the
    /// `initialize` result.
    fn start(command: &[String]) -> (Raw, Value) {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut raw = Raw {
            child,
            stdin,
            lines,
        };
        let init = raw.request(
            0,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw-jsonrpc", "version": "1"}
            }),
        );
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (raw, init)
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> Value {
        let line = self
            .lines
            .next()
            .expect("the peer closed its stdout")
            .unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends a request and returns its result, skipping what comes before it.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let answer = self.answer(id, method, params);
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method}: {answer}"))
    }

    /// Sends a request and returns its answer (a result or an error), skipping what comes
    /// before it.
    fn answer(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `calls` calls of the long-running tool (`steps` progress notifications each), `window`
/// in flight at once: for each call, the progress values its client saw before its result.
fn progress_of_calls(command: &[String], calls: u64, steps: u64, window: u64) -> Vec<Vec<Value>> {
    let (mut raw, _) = Raw::start(command);
    let mut seen: HashMap<u64, Vec<Value>> = HashMap::new();
    let mut done: HashMap<u64, Vec<Value>> = HashMap::new();
    let call = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "trigger-long-running-operation",
            "arguments": {"duration": 0, "steps": steps},
            "_meta": {"progressToken": format!("call-{id}")}
        }})
    };
    let mut sent = 0;
    while done.len() < calls as usize {
        while sent < calls && sent - (done.len() as u64) < window {
            sent += 1;
            raw.send(&call(sent));
        }
        let message = raw.next();
        if message["method"] == "notifications/progress" {
            let token = message["params"]["progressToken"]
                .as_str()
                .unwrap_or_default();
            let id: u64 = token.trim_start_matches("call-").parse().unwrap();
            assert!(
                !done.contains_key(&id),
                "progress after its result: {message}"
            );
            seen.entry(id)
                .or_default()
                .push(message["params"]["progress"].clone());
        } else if let Some(id) = message["id"].as_u64() {
            assert!(message.get("result").is_some(), "{message}");
            done.insert(id, seen.remove(&id).unwrap_or_default());
        }
    }
    (1..=calls).map(|id| done.remove(&id).unwrap()).collect()
}

#[test]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
fn every_progress_notification_arrives_in_order_before_its_result() {
    let (calls, steps) = (1_000, 3);
    // As written: server-everything says `"progress":1`, and so does the gateway (rmcp's
    // types alone would say `1.0`).
    let expected: Vec<String> = (1..=steps).map(|i| i.to_string()).collect();
    for (name, command) in [
        ("directly", everything()),
        ("through the gateway", proxied(&everything())),
    ] {
        let progress: Vec<Vec<String>> = progress_of_calls(&command, calls, steps, 8)
            .iter()
            .map(|seen| seen.iter().map(Value::to_string).collect())
            .collect();
        let lost: Vec<usize> = (0..progress.len())
            .filter(|&i| progress[i] != expected)
            .collect();
        assert!(
            lost.is_empty(),
            "{name}: {} of {calls} calls saw other progress than {expected:?}, e.g. call {}: {:?}",
            lost.len(),
            lost[0] + 1,
            progress[lost[0]]
        );
        println!("{name}: {calls} calls, each with its {steps} progress notifications in order");
    }
}

/// An answer's result or error, without the envelope (`jsonrpc`, `id`: the transport's).
fn outcome(mut answer: Value) -> Value {
    match answer.get_mut("result") {
        Some(result) => json!({"result": result.take()}),
        None => json!({"error": answer["error"].take()}),
    }
}

/// What `command` answers to `initialize`, each listing and (with `call`) each of `calls`,
/// as written.
fn answers(command: &[String], call: bool, calls: &[(&str, Value)]) -> Vec<(String, Value)> {
    let (mut raw, init) = Raw::start(command);
    let mut out = vec![("initialize".to_owned(), json!({"result": init}))];
    for (i, method) in [
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    ]
    .into_iter()
    .enumerate()
    {
        out.push((
            method.to_owned(),
            outcome(raw.answer(100 + i as u64, method, json!({}))),
        ));
    }
    for (i, (tool, arguments)) in calls.iter().enumerate().filter(|_| call) {
        let params = json!({"name": tool, "arguments": arguments});
        let answer = outcome(raw.answer(200 + i as u64, "tools/call", params));
        out.push((format!("tools/call {tool}"), answer));
    }
    out
}

/// The gateway's documented additions (`runtime/docs/server.md`, "What the gateway adds")
/// taken out of its `initialize` result: the logging it serves itself, and the
/// `tools.listChanged` it sends when its tailoring file changes.
fn without_additions(mut gateway: Value, direct: &Value) -> Value {
    let capabilities = &mut gateway["result"]["capabilities"];
    if direct["result"]["capabilities"].get("logging").is_none() {
        capabilities
            .as_object_mut()
            .map(|c| c.shift_remove("logging"));
    }
    match direct["result"]["capabilities"]["tools"].get("listChanged") {
        Some(theirs) => capabilities["tools"]["listChanged"] = theirs.clone(),
        None => {
            let tools = capabilities["tools"].as_object_mut();
            tools.map(|t| t.shift_remove("listChanged"));
        }
    }
    gateway
}

#[test]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
fn what_the_gateway_passes_on_is_what_the_upstream_wrote() {
    let calls = [
        ("echo", json!({"message": "hi"})),
        ("get-sum", json!({"a": 1, "b": 2.5})),
        ("get-structured-content", json!({"location": "New York"})),
    ];
    let conformance = target().join("debug/examples/conformance");
    assert!(
        conformance.exists(),
        "run `cargo build -p mcp-tailor --example conformance` first"
    );
    let conformance = vec![conformance.display().to_string()];
    for (name, command) in [
        ("server-everything", everything()),
        ("server-filesystem", filesystem()),
        // The MCP conformance suite's reference server, written with this layer on rmcp.
        ("the conformance example", conformance),
    ] {
        let mut direct = answers(&command, name == "server-everything", &calls);
        let mut through = answers(&proxied(&command), name == "server-everything", &calls);
        through[0].1 = without_additions(through[0].1.take(), &direct[0].1);
        assert_eq!(direct.len(), through.len());
        for ((method, theirs), (_, passed_on)) in direct.iter_mut().zip(&mut through) {
            // Byte for byte: the same fields, in the same order, numbers as written.
            assert_eq!(
                theirs.to_string(),
                passed_on.to_string(),
                "{name}: {method} differs through the gateway"
            );
        }
        println!("{name}: initialize, the listings and the calls passed on as written");
    }
}

/// `proxy --http` in front of `command`; the child and its address, once it listens.
async fn http_proxy(command: &[String]) -> (tokio::process::Child, std::net::SocketAddr) {
    http_proxy_of(&proxied(command)).await
}

/// `mcp-tailor proxy ARGS…` (`line`) with `--http` at a free port; the child and its
/// address, once it listens.
async fn http_proxy_of(line: &[String]) -> (tokio::process::Child, std::net::SocketAddr) {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let child = tokio::process::Command::new(&line[0])
        .args(&line[1..2])
        .args(["--http", &addr.to_string()])
        .args(&line[2..])
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    listening(addr, "the proxy").await;
    (child, addr)
}

/// Waits until `what` listens at `addr` (at most 30 s).
async fn listening(addr: std::net::SocketAddr, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not listen"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn over_streamable_http_too_in_both_eras() {
    use mcp_tailor_tests::client::{Conn, initialize, modern_headers, modern_meta};
    let (_proxy, addr) = http_proxy(&everything()).await;
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    // A 2025 session: the listing rides its event stream.
    let mut conn = Conn::connect(addr).await.unwrap();
    let opened = conn.post(&initialize(0, "raw"), &[]).await.unwrap();
    let session = opened.session.expect("a session");
    let headers = [
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-11-25".to_owned()),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    conn.post(&initialized, &headers).await.unwrap();
    let legacy = conn.post(&list, &headers).await.unwrap();
    // A 2026-07-28 request standing alone: the listing is one JSON body.
    let mut modern_list = list.clone();
    modern_list["params"] = json!({"_meta": modern_meta(None, None)});
    let modern = Conn::connect(addr).await.unwrap();
    let modern = modern
        .at("/mcp")
        .post(&modern_list, &modern_headers("tools/list"))
        .await;
    // A 2026-07-28 call that hears progress first: its event stream, as written.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "trigger-long-running-operation", "arguments": {"duration": 0, "steps": 2},
        "_meta": modern_meta(None, None)}});
    let mut call = call;
    call["params"]["_meta"]["progressToken"] = json!("p");
    let mut headers = modern_headers("tools/call");
    headers.push(("Mcp-Name", "trigger-long-running-operation".to_owned()));
    let conn = Conn::connect(addr).await.unwrap();
    let called = conn.at("/mcp").post(&call, &headers).await.unwrap();
    assert_eq!(
        progress_params(&called.body),
        [
            r#"{"progress":1,"total":2,"progressToken":"p"}"#,
            r#"{"progress":2,"total":2,"progressToken":"p"}"#
        ],
        "{:?}",
        String::from_utf8_lossy(&called.body)
    );
    let called = String::from_utf8_lossy(&called.body);
    assert!(!called.contains("mcp-tailor.dev/"), "{called}");
    for (era, reply) in [("2025-11-25", legacy), ("2026-07-28", modern.unwrap())] {
        let body = String::from_utf8_lossy(&reply.body);
        assert!(
            body.contains("\"execution\":{\"taskSupport\""),
            "{era}: {body}"
        );
        assert!(!body.contains("mcp-tailor.dev/"), "{era}: {body}");
    }
}

/// `initialize`, each listing and `call` over one 2025-11-25 session at `addr`, as raw
/// JSON-RPC over streamable HTTP: each answer's result or error.
async fn http_answers(addr: std::net::SocketAddr, call: Value) -> Vec<(String, Value)> {
    use mcp_tailor_tests::client::{Conn, initialize};
    let mut conn = Conn::connect(addr).await.unwrap();
    let opened = conn.post(&initialize(0, "raw"), &[]).await.unwrap();
    let mut out = vec![("initialize".to_owned(), outcome(opened.message.unwrap()))];
    let headers = [
        ("Mcp-Session-Id", opened.session.expect("a session")),
        ("MCP-Protocol-Version", "2025-11-25".to_owned()),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    conn.post(&initialized, &headers).await.unwrap();
    let requests = [
        ("tools/list", json!({})),
        ("prompts/list", json!({})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("tools/call", call.clone()),
    ];
    for (i, (method, params)) in requests.into_iter().enumerate() {
        let request = json!({"jsonrpc": "2.0", "id": 10 + i, "method": method, "params": params});
        let reply = conn.post(&request, &headers).await.unwrap();
        out.push((method.to_owned(), outcome(reply.message.unwrap())));
    }
    out
}

/// The params of every progress notification among the events of `body`, as written.
fn progress_params(body: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(body)
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .filter(|message| message["method"] == "notifications/progress")
        .map(|message| message["params"].to_string())
        .collect()
}

/// The progress a call of the long-running tool hears over a 2025-11-25 session at `addr`.
async fn http_progress(addr: std::net::SocketAddr) -> Vec<String> {
    use mcp_tailor_tests::client::{Conn, initialize};
    let mut conn = Conn::connect(addr).await.unwrap();
    let opened = conn.post(&initialize(0, "raw"), &[]).await.unwrap();
    let headers = [
        ("Mcp-Session-Id", opened.session.expect("a session")),
        ("MCP-Protocol-Version", "2025-11-25".to_owned()),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    conn.post(&initialized, &headers).await.unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "trigger-long-running-operation", "arguments": {"duration": 0, "steps": 3},
        "_meta": {"progressToken": "p"}}});
    let reply = conn.post(&call, &headers).await.unwrap();
    progress_params(&reply.body)
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn an_http_upstream_is_passed_on_as_written_too() {
    let script = everything()[1].clone();
    let (_upstream, upstream) = http_upstream("server-everything", |port| {
        let mut node = tokio::process::Command::new("node");
        node.args([&script, "streamableHttp"])
            .env("PORT", port.to_string());
        node
    })
    .await;
    let (_proxy, gateway) = in_front_of(upstream).await;
    let progress = http_progress(upstream).await;
    assert_eq!(progress.len(), 3, "{progress:?}");
    assert_eq!(
        progress,
        http_progress(gateway).await,
        "progress as written"
    );
    let call = json!({"name": "get-sum", "arguments": {"a": 1, "b": 2.5}});
    let direct = http_answers(upstream, call.clone()).await;
    let through = http_answers(gateway, call).await;
    passed_on_as_written(&direct, through);
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the Python SDK; run by .ci/run"]
async fn an_upstream_answering_in_json_bodies_is_passed_on_as_written_too() {
    let python = std::env::var("MCP_TAILOR_PYTHON").expect("MCP_TAILOR_PYTHON");
    let server = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/notes_server.py");
    let (_upstream, upstream) = http_upstream("the Python notes server", |port| {
        let mut python = tokio::process::Command::new(&python);
        python.arg(&server).args(["http", &port.to_string()]);
        python
    })
    .await;
    let (_proxy, gateway) = in_front_of(upstream).await;
    let call = json!({"name": "search_notes", "arguments": {"query": "milk"}});
    let direct = http_answers(upstream, call.clone()).await;
    // Each tool's `execution`, which rmcp's types do not hold, is in what the server wrote.
    let listed = direct[1].1.to_string();
    assert!(
        listed.contains(r#""execution":{"taskSupport":"forbidden"}"#),
        "{listed}"
    );
    passed_on_as_written(&direct, http_answers(gateway, call).await);
}

/// A streamable HTTP server (`what`) started by `command`, told a free port; the child and
/// its address, once it listens.
async fn http_upstream(
    what: &str,
    command: impl FnOnce(u16) -> tokio::process::Command,
) -> (tokio::process::Child, std::net::SocketAddr) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = command(port)
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    listening(addr, what).await;
    (child, addr)
}

/// `mcp-tailor proxy --upstream` the server at `upstream`, over streamable HTTP.
async fn in_front_of(
    upstream: std::net::SocketAddr,
) -> (tokio::process::Child, std::net::SocketAddr) {
    let bin = target().join("debug").join("mcp-tailor");
    http_proxy_of(&[
        bin.display().to_string(),
        "proxy".to_owned(),
        "--upstream".to_owned(),
        format!("http://{upstream}/mcp"),
    ])
    .await
}

/// The answers `through` the gateway are the ones read `direct`ly, byte for byte, but for
/// the gateway's additions to `initialize`.
fn passed_on_as_written(direct: &[(String, Value)], mut through: Vec<(String, Value)>) {
    through[0].1 = without_additions(through[0].1.take(), &direct[0].1);
    for ((method, theirs), (_, passed_on)) in direct.iter().zip(&through) {
        assert_eq!(
            theirs.to_string(),
            passed_on.to_string(),
            "{method} differs through the gateway"
        );
    }
}
