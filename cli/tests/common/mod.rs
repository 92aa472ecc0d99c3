//! What the command's process tests share: the command, a notes server of this test's
//! own on streamable HTTP, and `proxy` started at a loopback port it binds itself.
#![allow(dead_code)] // each test file uses some of it

use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, Server};
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

/// A `proxy` serving streamable HTTP at a loopback port it bound itself: the address is
/// read from the line it prints once it listens (`mcp-tailor proxy on http://ADDR/mcp`),
/// and its metrics' from `mcp-tailor metrics on http://ADDR/metrics`. Its stderr is read
/// here, line by line, for the test to look through.
pub struct Proxy {
    /// The process (killed when dropped).
    pub child: tokio::process::Child,
    /// Where it serves MCP.
    pub addr: SocketAddr,
    /// Where it serves `/metrics`, when asked to.
    pub metrics: Option<SocketAddr>,
    lines: tokio::sync::mpsc::UnboundedReceiver<String>,
}

/// The address a proxy's line names after `opening` (`http://ADDR/…`).
fn named(line: &str, opening: &str) -> Option<SocketAddr> {
    let (_, rest) = line.split_once(opening)?;
    rest.split('/').next()?.parse().ok()
}

impl Proxy {
    /// `proxy --http 127.0.0.1:0 ARGS…` with `env` set, once it listens.
    pub async fn start(args: &[&str], env: &[(&str, &str)]) -> Proxy {
        let mut command = Command::new(BIN);
        command
            .args(["proxy", "--http", "127.0.0.1:0"])
            .args(args)
            .envs(env.iter().copied());
        Proxy::spawn(command).await
    }

    /// `command`, a `proxy` told `--http 127.0.0.1:0` (its stderr piped here), once it
    /// listens; a proxy that ends first fails the test with what it said.
    pub async fn spawn(mut command: Command) -> Proxy {
        use tokio::io::AsyncBufReadExt as _;
        let mut child = command
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let mut stderr = tokio::io::BufReader::new(child.stderr.take().unwrap());
        let (tx, lines) = tokio::sync::mpsc::unbounded_channel();
        let (bound, listens) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            let (mut bound, mut metrics, mut said) = (Some(bound), None, String::new());
            let mut line = String::new();
            while stderr.read_line(&mut line).await.is_ok_and(|n| n > 0) {
                metrics = metrics.or(named(&line, "mcp-tailor metrics on http://"));
                said.push_str(&line);
                if let Some(addr) = named(&line, "mcp-tailor proxy on http://")
                    && let Some(bound) = bound.take()
                {
                    let _ = bound.send(Ok((addr, metrics)));
                }
                let _ = tx.send(std::mem::take(&mut line));
            }
            if let Some(bound) = bound {
                let _ = bound.send(Err(said));
            }
        });
        let (addr, metrics) =
            match tokio::time::timeout(std::time::Duration::from_secs(30), listens).await {
                Ok(Ok(Ok(bound))) => bound,
                Ok(Ok(Err(said))) => panic!("the proxy ended before it listened:\n{said}"),
                Ok(Err(_)) => unreachable!("the reader answers before it ends"),
                Err(_) => panic!("the proxy did not listen within 30 s"),
            };
        Proxy {
            child,
            addr,
            metrics,
            lines,
        }
    }

    /// Its MCP endpoint's URL.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// Its metrics' address (the test asked for `--metrics 127.0.0.1:0`).
    pub fn metrics(&self) -> SocketAddr {
        self.metrics.expect("the proxy serves metrics")
    }

    /// The next line of its stderr holding `needle`, within 20 s.
    pub async fn said(&mut self, needle: &str) -> String {
        let wait = async {
            while let Some(line) = self.lines.recv().await {
                if line.contains(needle) {
                    return line;
                }
            }
            panic!("the proxy ended without saying {needle:?}")
        };
        tokio::time::timeout(std::time::Duration::from_secs(20), wait)
            .await
            .unwrap_or_else(|_| panic!("the proxy did not say {needle:?}"))
    }

    /// Ends the proxy; everything it wrote on stderr not yet read by [`said`](Self::said).
    pub async fn ended(mut self) -> String {
        self.child.start_kill().unwrap();
        self.child.wait().await.unwrap();
        let mut log = String::new();
        while let Some(line) = self.lines.recv().await {
            log.push_str(&line);
        }
        log
    }
}

/// [`Proxy::start`]: the process and where it serves MCP.
pub async fn proxy(args: &[&str], env: &[(&str, &str)]) -> (tokio::process::Child, SocketAddr) {
    let proxy = Proxy::start(args, env).await;
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
/// and [`Proxy::spawn`].
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
