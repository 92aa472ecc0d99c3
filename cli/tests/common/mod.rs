//! What the command's process tests share: the command, a notes server of this test's
//! own on streamable HTTP, and `proxy` started at a loopback port it binds itself.
#![allow(dead_code)] // each test file uses some of it

use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, Server};
pub use mcp_tailor_test_support::process::Announced;
use std::net::SocketAddr;
use tokio::process::Command;

pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-tailor");

/// Search the notes.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchNotes {
    /// Words to look for.
    query: String,
}

/// A notes server on streamable HTTP at a loopback port, for the life of the test.
pub async fn upstream() -> String {
    notes_behind(|router| router).await
}

/// The notes server, its router wrapped by `front`, served at a loopback port for the life
/// of the test; its URL.
pub async fn notes_behind(front: impl FnOnce(axum::Router) -> axum::Router) -> String {
    let server = Server::builder()
        .name("notes", "1.0.0")
        .tool(|args: SearchNotes, _: CallContext| async move {
            Ok::<_, String>(serde_json::json!({ "query": args.query }))
        })
        .build()
        .unwrap();
    serve(server, front).await
}

/// `server` on streamable HTTP at a loopback port, its router wrapped by `front`, for the
/// life of the test; its URL.
pub async fn serve(server: Server, front: impl FnOnce(axum::Router) -> axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = front(server.router());
    tokio::spawn(async move {
        server
            .serve_http_on(listener, router, std::future::pending())
            .await
    });
    format!("http://{addr}/mcp")
}

/// What a proxy's line says before its metrics' address.
const METRICS_ON: &str = "mcp-tailor metrics on http://";

/// `proxy --http 127.0.0.1:0 ARGS…` with `env` set, once it listens: its line
/// `mcp-tailor proxy on http://ADDR/mcp` says where (and `mcp-tailor metrics on
/// http://ADDR/metrics` where its metrics are, [`metrics`]).
pub async fn started(args: &[&str], env: &[(&str, &str)]) -> Announced {
    let mut command = Command::new(BIN);
    command
        .args(["proxy", "--http", "127.0.0.1:0"])
        .args(args)
        .envs(env.iter().copied());
    spawned(command).await
}

/// `command`, a `proxy` told `--http 127.0.0.1:0`, once it listens.
pub async fn spawned(command: Command) -> Announced {
    Announced::spawn(command, "mcp-tailor proxy on http://").await
}

/// Where `proxy` serves `/metrics` (it was told `--metrics 127.0.0.1:0`).
pub fn metrics(proxy: &Announced) -> SocketAddr {
    proxy.named(METRICS_ON).expect("the proxy serves metrics")
}

/// A proxy's MCP endpoint.
pub fn url(proxy: &Announced) -> String {
    format!("http://{}/mcp", proxy.addr)
}

/// [`started`]: the process and where it serves MCP.
pub async fn proxy(args: &[&str], env: &[(&str, &str)]) -> (tokio::process::Child, SocketAddr) {
    let proxy = started(args, env).await;
    (proxy.child, proxy.addr)
}

/// A loopback address reserved for the test, at which nothing listens until the test
/// says so ([`tokio::net::TcpSocket::listen`]): a connection to it is refused.
pub fn reserved_addr() -> (tokio::net::TcpSocket, SocketAddr) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = socket.local_addr().unwrap();
    (socket, addr)
}

/// The text of the log file at `log` once it holds each of `texts`, within `within`;
/// `None` when the time ran out.
pub async fn log_holding(
    log: &std::path::Path,
    texts: &[&str],
    within: std::time::Duration,
) -> Option<String> {
    mcp_tailor_test_support::eventually(within, || async {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        texts.iter().all(|t| text.contains(t)).then_some(text)
    })
    .await
}

/// `proxy --http 127.0.0.1:0 -- UPSTREAM…` (a command upstream), for the caller to set up
/// and [`spawned`].
pub fn proxy_of(upstream: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command
        .args(["proxy", "--http", "127.0.0.1:0", "--"])
        .args(upstream);
    command
}

/// POSTs `message` to a streamable HTTP endpoint as a 2025-11-25 client, on `session` when
/// there is one, accepting JSON or an event stream.
pub async fn post(
    client: &reqwest::Client,
    url: &str,
    session: Option<&str>,
    message: &serde_json::Value,
) -> reqwest::Response {
    let mut request = client
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2025-11-25")
        .body(message.to_string());
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().await.unwrap()
}

/// A 2025-11-25 session at a streamable HTTP endpoint, spoken to in raw JSON-RPC.
pub struct RawSession {
    client: reqwest::Client,
    url: String,
    id: String,
}

impl RawSession {
    /// `initialize` and `notifications/initialized` at `url`.
    pub async fn open(url: &str) -> RawSession {
        let client = reqwest::Client::new();
        let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}});
        let opened = post(&client, url, None, &initialize).await;
        let id = opened.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let initialized =
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        post(&client, url, Some(&id), &initialized).await;
        RawSession {
            client,
            url: url.to_owned(),
            id,
        }
    }

    /// Sends `message`; the answer: one JSON body, or the message of an event stream's last
    /// event.
    pub async fn ask(&self, message: serde_json::Value) -> serde_json::Value {
        let answer = post(&self.client, &self.url, Some(&self.id), &message).await;
        let answer = answer.text().await.unwrap();
        let message = match answer.starts_with('{') {
            true => answer.as_str(),
            false => answer
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .rfind(|data| !data.trim().is_empty())
                .unwrap_or_default(),
        };
        serde_json::from_str(message.trim()).expect(&answer)
    }
}

/// A stdio MCP server in `sh` (run as `sh -c SCRIPT`): it answers `initialize` as server
/// `name` with tools, each request whose line matches one of `cases` (a `case` pattern and
/// the `printf` arguments that answer it, `$id` its id), and every other one with an empty
/// result.
pub fn sh_server(name: &str, cases: &[(&str, &str)]) -> String {
    sh_server_of(name, "2025-06-18", cases)
}

/// [`sh_server`] answering `initialize` with protocol revision `version`.
pub fn sh_server_of(name: &str, version: &str, cases: &[(&str, &str)]) -> String {
    let initialize = format!(
        r#"'{{"jsonrpc":"2.0","id":%s,"result":{{"protocolVersion":"{version}","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"{name}","version":"1.0.0"}}}}}}\n' "$id""#
    );
    let arms: String = [(r#"*'"method":"initialize"'*"#, initialize.as_str())]
        .iter()
        .chain(cases)
        .map(|(pattern, answer)| format!("    {pattern}) printf {answer} ;;\n"))
        .collect();
    format!(
        r#"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -nE 's/^\{{"jsonrpc":"2.0","id":([0-9]+),.*/\1/p')
  [ -n "$id" ] || continue
  case "$line" in
{arms}    *) printf '{{"jsonrpc":"2.0","id":%s,"result":{{}}}}\n' "$id" ;;
  esac
done
"#
    )
}
