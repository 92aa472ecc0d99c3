//! The same over streamable HTTP: the gateway in front of a stdio upstream and served over
//! HTTP, and in front of HTTP upstreams — server-everything's `streamableHttp`, the Python
//! SDK answering in JSON bodies, and the Python SDK's legacy HTTP+SSE transport.

use super::*;
use mcp_tailor_test_support::process::{Announced, bound_by};

/// `proxy --http` in front of `command`; the child and its address, once it listens.
async fn http_proxy(command: &[String]) -> (tokio::process::Child, std::net::SocketAddr) {
    let proxy = http_proxy_of(&proxied(command)).await;
    (proxy.child, proxy.addr)
}

/// `mcp-tailor proxy ARGS…` (`line`) with `--http` at a port it binds itself, once it
/// listens (its address read from the line it says so in).
pub(super) async fn http_proxy_of(line: &[String]) -> Announced {
    let mut command = tokio::process::Command::new(&line[0]);
    command
        .args(&line[1..2])
        .args(["--http", "127.0.0.1:0"])
        .args(&line[2..]);
    Announced::spawn(command, "mcp-tailor proxy on http://").await
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn over_streamable_http_too_in_both_eras() {
    use mcp_tailor_test_support::http::{Conn, initialize, stateless_headers, stateless_meta};
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
    let session_bound = conn.post(&list, &headers).await.unwrap();
    // A 2026-07-28 request standing alone: the listing is one JSON body.
    let mut stateless_list = list.clone();
    stateless_list["params"] = json!({"_meta": stateless_meta(None, None)});
    let stateless = Conn::connect(addr).await.unwrap();
    let stateless = stateless
        .at("/mcp")
        .post(&stateless_list, &stateless_headers("tools/list"))
        .await;
    // A 2026-07-28 call that hears progress first: its event stream, as written.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "trigger-long-running-operation", "arguments": {"duration": 0, "steps": 2},
        "_meta": stateless_meta(None, None)}});
    let mut call = call;
    call["params"]["_meta"]["progressToken"] = json!("p");
    let mut headers = stateless_headers("tools/call");
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
    for (era, reply) in [
        ("2025-11-25", session_bound),
        ("2026-07-28", stateless.unwrap()),
    ] {
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
    use mcp_tailor_test_support::http::{Conn, initialize};
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
    use mcp_tailor_test_support::http::{Conn, initialize};
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
    let mut node = tokio::process::Command::new("node");
    node.args([&script, "streamableHttp"]).env("PORT", "0");
    let (_upstream, upstream) = http_upstream(node).await;
    let (_proxy, gateway) = in_front_of(&format!("http://{upstream}/mcp")).await;
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
    let (_upstream, upstream) = notes_server("http").await;
    let (_proxy, gateway) = in_front_of(&format!("http://{upstream}/mcp")).await;
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

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the Python SDK; run by .ci/run"]
async fn a_legacy_http_sse_upstream_is_passed_on_as_written_too() {
    let (_upstream, upstream) = notes_server("sse").await;
    let stream = format!("http://{upstream}/sse");
    let (_proxy, gateway) = in_front_of(&stream).await;
    let call = json!({"name": "search_notes", "arguments": {"query": "milk"}});
    let direct = sse_answers(&stream, call.clone()).await;
    let listed = direct[1].1.to_string();
    assert!(
        listed.contains(r#""execution":{"taskSupport":"forbidden"}"#),
        "{listed}"
    );
    assert!(
        direct[5].1.to_string().contains("milk and eggs"),
        "{direct:?}"
    );
    // The first session takes the connection the gateway opened to learn the server; the
    // second opens its own, straight to the stream.
    passed_on_as_written(&direct, http_answers(gateway, call.clone()).await);
    passed_on_as_written(&direct, http_answers(gateway, call).await);
}

/// The Python SDK's notes server (`tests/python/notes_server.py`) over HTTP in `mode`
/// (`http`: streamable, answers in JSON bodies; `sse`: the legacy transport).
async fn notes_server(mode: &str) -> (tokio::process::Child, std::net::SocketAddr) {
    let python = std::env::var("MCP_TAILOR_PYTHON").expect("MCP_TAILOR_PYTHON");
    let server = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/notes_server.py");
    let mut python = tokio::process::Command::new(&python);
    python.arg(&server).args([mode, "0"]);
    http_upstream(python).await
}

/// A raw legacy HTTP+SSE connection: its event stream, and where messages are posted.
struct Sse {
    client: reqwest::Client,
    stream: reqwest::Response,
    read: String,
    endpoint: String,
}

impl Sse {
    /// Opens the stream at `url` and reads its `endpoint`.
    async fn open(url: &str) -> Sse {
        let client = reqwest::Client::new();
        let stream = client
            .get(url)
            .header("Accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        let mut sse = Sse {
            client,
            stream,
            read: String::new(),
            endpoint: String::new(),
        };
        let (event, path) = sse.event().await;
        assert_eq!(event, "endpoint");
        let origin = url.trim_end_matches("/sse");
        sse.endpoint = format!("{origin}{path}");
        sse
    }

    /// The next event's type and data.
    async fn event(&mut self) -> (String, String) {
        loop {
            if let Some(end) = self.read.find("\n\n") {
                let event: String = self.read.drain(..end + 2).collect();
                let field = |name: &str| {
                    let values: Vec<&str> = event
                        .lines()
                        .filter_map(|line| line.strip_prefix(name))
                        .map(|value| value.strip_prefix(' ').unwrap_or(value))
                        .collect();
                    values.join("\n")
                };
                let kind = field("event:");
                return (
                    if kind.is_empty() {
                        "message".into()
                    } else {
                        kind
                    },
                    field("data:"),
                );
            }
            let chunk = self
                .stream
                .chunk()
                .await
                .unwrap()
                .expect("the stream ended");
            self.read
                .push_str(&String::from_utf8_lossy(&chunk).replace("\r\n", "\n"));
        }
    }

    /// Posts `message`; for a request, its answer (notifications on the way skipped).
    async fn send(&mut self, message: &Value) -> Option<Value> {
        let posted = self
            .client
            .post(&self.endpoint)
            .header("Content-Type", "application/json")
            .body(message.to_string())
            .send()
            .await
            .unwrap();
        assert!(posted.status().is_success(), "{posted:?}");
        let id = message.get("id")?;
        loop {
            let (_, data) = self.event().await;
            let said: Value = serde_json::from_str(&data).unwrap();
            if said.get("id") == Some(id) && said.get("method").is_none() {
                return Some(said);
            }
        }
    }
}

/// What `http_answers` reads, read from a legacy HTTP+SSE server at `url` directly.
async fn sse_answers(url: &str, call: Value) -> Vec<(String, Value)> {
    use mcp_tailor_test_support::http::initialize;
    let mut sse = Sse::open(url).await;
    let opened = sse.send(&initialize(0, "raw")).await.unwrap();
    let mut out = vec![("initialize".to_owned(), outcome(opened))];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    sse.send(&initialized).await;
    let requests = [
        ("tools/list", json!({})),
        ("prompts/list", json!({})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("tools/call", call),
    ];
    for (i, (method, params)) in requests.into_iter().enumerate() {
        let request = json!({"jsonrpc": "2.0", "id": 10 + i, "method": method, "params": params});
        out.push((
            method.to_owned(),
            outcome(sse.send(&request).await.unwrap()),
        ));
    }
    out
}

/// An HTTP server started by `command` (told port 0); the child and the address it bound,
/// once it listens (read from `/proc`: it does not say).
async fn http_upstream(
    mut command: tokio::process::Command,
) -> (tokio::process::Child, std::net::SocketAddr) {
    let child = command
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let addr = bound_by(child.id().expect("running")).await;
    (child, addr)
}

/// `mcp-tailor proxy --upstream URL`, served over streamable HTTP.
async fn in_front_of(url: &str) -> (tokio::process::Child, std::net::SocketAddr) {
    let bin = target().join("debug").join("mcp-tailor");
    let proxy = http_proxy_of(&[
        bin.display().to_string(),
        "proxy".to_owned(),
        "--upstream".to_owned(),
        url.to_owned(),
    ])
    .await;
    (proxy.child, proxy.addr)
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
