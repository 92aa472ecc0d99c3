//! A minimal HTTP/1.1 client on loopback, raw on purpose: the latency measured is the
//! server's, not a client library's, and a test says exactly what goes on the wire.
//! [`Conn`]: keep-alive, `Content-Length` or chunked bodies, the JSON-RPC response out of
//! an SSE or JSON body (the robustness runs, the proxies benchmark, the faithful tests);
//! [`exchange`]: one request on a fresh connection, its status, head and body as text.

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// How long one response may take before the client gives up.
const TIMEOUT: Duration = Duration::from_secs(30);

/// One keep-alive connection, its halves apart so that a response is read while the
/// request is still being written (a server may answer an oversized body early and close).
pub struct Conn {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
    addr: SocketAddr,
    /// The endpoint's path (`/mcp` unless [`at`](Self::at) says).
    path: String,
}

/// A response: status, the session id if any, and the JSON-RPC message answering the id.
#[derive(Debug)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The `Mcp-Session-Id` header, if any.
    pub session: Option<String>,
    /// The JSON-RPC message answering the request's id, if any.
    pub message: Option<Value>,
    /// The response body as received (unchunked).
    pub body: Vec<u8>,
}

impl Conn {
    /// A keep-alive connection to `addr`.
    pub async fn connect(addr: SocketAddr) -> std::io::Result<Conn> {
        Self::connect_from(addr, None).await
    }

    /// Connects from the loopback address `source` (any `127.x.y.z` reaches the server), so
    /// that one process can stand for many client addresses.
    pub async fn connect_from(
        addr: SocketAddr,
        source: Option<std::net::IpAddr>,
    ) -> std::io::Result<Conn> {
        let stream = match source {
            None => TcpStream::connect(addr).await?,
            Some(source) => {
                let socket = tokio::net::TcpSocket::new_v4()?;
                socket.bind(SocketAddr::new(source, 0))?;
                socket.connect(addr).await?
            }
        };
        stream.set_nodelay(true)?;
        let (reader, writer) = stream.into_split();
        Ok(Conn {
            reader: BufReader::new(reader),
            writer,
            addr,
            path: "/mcp".to_owned(),
        })
    }

    /// The same connection, posting to `path` (e.g. `/mcp/`).
    pub fn at(mut self, path: &str) -> Conn {
        self.path = path.to_owned();
        self
    }

    /// POSTs `body` to `/mcp` with `headers`; the reply to JSON-RPC request `id`.
    pub async fn post(
        &mut self,
        body: &Value,
        headers: &[(&str, String)],
    ) -> std::io::Result<Reply> {
        let id = body.get("id").cloned();
        self.post_raw_id(&body.to_string(), headers, id, None).await
    }

    /// [`post`](Self::post), telling `heard` as soon as the response's body holds `needle`
    /// (a call's first progress, say), while the rest of it is still to come.
    pub async fn post_hearing(
        &mut self,
        body: &Value,
        headers: &[(&str, String)],
        needle: &str,
        heard: tokio::sync::oneshot::Sender<()>,
    ) -> std::io::Result<Reply> {
        let id = body.get("id").cloned();
        let listener = Listener { needle, heard };
        self.post_raw_id(&body.to_string(), headers, id, Some(listener))
            .await
    }

    /// POSTs a raw body (not necessarily JSON).
    pub async fn post_raw(
        &mut self,
        body: &str,
        headers: &[(&str, String)],
    ) -> std::io::Result<Reply> {
        self.post_raw_id(body, headers, None, None).await
    }

    /// POSTs `body` and reads the whole response without parsing it (the load benchmark:
    /// the client's own JSON parsing would compete with the server for the CPU); its
    /// status and body.
    pub async fn post_unparsed(
        &mut self,
        body: &Value,
        headers: &[(&str, String)],
    ) -> std::io::Result<(u16, Vec<u8>)> {
        let body = body.to_string();
        let exchange = self.exchange(&body, headers, None, false, None);
        let reply = tokio::time::timeout(TIMEOUT, exchange)
            .await
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::TimedOut, "no response in time")
            })??;
        Ok((reply.status, reply.body))
    }

    async fn post_raw_id(
        &mut self,
        body: &str,
        headers: &[(&str, String)],
        id: Option<Value>,
        listener: Option<Listener<'_>>,
    ) -> std::io::Result<Reply> {
        tokio::time::timeout(TIMEOUT, self.exchange(body, headers, id, true, listener))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "no response in time"))?
    }

    /// One request and its response; the JSON-RPC reply to `id` found in it if `parse`;
    /// `listener` told as soon as the body holds its needle.
    async fn exchange(
        &mut self,
        body_text: &str,
        headers: &[(&str, String)],
        id: Option<Value>,
        parse: bool,
        listener: Option<Listener<'_>>,
    ) -> std::io::Result<Reply> {
        let mut request = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.path,
            self.addr,
            body_text.len()
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(body_text);
        // Written and read at once: a response that arrives before the server stops
        // reading (and closes) is the answer, whatever became of the rest of the write.
        let (written, reply) = tokio::join!(
            self.writer.write_all(request.as_bytes()),
            Self::read_reply(&mut self.reader, id, parse, listener)
        );
        match (written, reply) {
            (_, Ok(reply)) => Ok(reply),
            (Err(error), Err(_)) | (Ok(()), Err(error)) => Err(error),
        }
    }

    /// Reads one response and the JSON-RPC message answering `id` in it (if `parse`),
    /// telling `listener` as soon as the body holds its needle.
    async fn read_reply(
        reader: &mut BufReader<OwnedReadHalf>,
        id: Option<Value>,
        parse: bool,
        mut listener: Option<Listener<'_>>,
    ) -> std::io::Result<Reply> {
        let mut line = String::new();
        reader.read_line(&mut line).await?;
        let status: u16 = line
            .get(9..12)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("bad status line {line:?}"),
                )
            })?;
        let (mut length, mut chunked, mut session) = (None, false, None);
        loop {
            line.clear();
            reader.read_line(&mut line).await?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
                match name.as_str() {
                    "content-length" => length = value.parse::<usize>().ok(),
                    "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                    "mcp-session-id" => session = Some(value.to_owned()),
                    _ => {}
                }
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                reader.read_line(&mut line).await?;
                let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
                if size == 0 {
                    line.clear();
                    reader.read_line(&mut line).await?;
                    break;
                }
                let mut chunk = vec![0; size + 2];
                reader.read_exact(&mut chunk).await?;
                body.extend_from_slice(&chunk[..size]);
                let holds = |l: &Listener<'_>| String::from_utf8_lossy(&body).contains(l.needle);
                if let Some(heard) = listener.take_if(|l| holds(l)) {
                    let _ = heard.heard.send(());
                }
            }
        } else if let Some(length) = length {
            body.resize(length, 0);
            reader.read_exact(&mut body).await?;
        }
        let message = parse
            .then(|| find_reply(&String::from_utf8_lossy(&body), id.as_ref()))
            .flatten();
        Ok(Reply {
            status,
            session,
            message,
            body,
        })
    }
}

/// Who is told, once, as soon as a response's body holds `needle`.
struct Listener<'a> {
    needle: &'a str,
    heard: tokio::sync::oneshot::Sender<()>,
}

/// The JSON-RPC response to `id` in a JSON or SSE body.
fn find_reply(text: &str, id: Option<&Value>) -> Option<Value> {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Some(value);
    }
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|m| {
            id.is_none_or(|id| m.get("id") == Some(id))
                && (m.get("result").is_some() || m.get("error").is_some())
        })
}

/// The `_meta` of a 2026-07-28 request, with the reader hints.
pub fn stateless_meta(runner: Option<&str>, level: Option<u8>) -> Value {
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "robustness", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    if let Some(runner) = runner {
        meta["mcp-tailor.dev/runner"] = json!(runner);
    }
    if let Some(level) = level {
        meta["mcp-tailor.dev/verbosity"] = json!(level);
    }
    meta
}

/// The `_meta` of a 2026-07-28 request from a client that declares the tasks extension.
pub fn tasks_meta() -> Value {
    let mut meta = stateless_meta(None, None);
    meta["io.modelcontextprotocol/clientCapabilities"] =
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    meta
}

/// The headers of a 2026-07-28 request for `method` on the tool, prompt or task `name`.
pub fn named_headers(method: &str, name: &str) -> Vec<(&'static str, String)> {
    let mut headers = stateless_headers(method);
    headers.push(("Mcp-Name", name.to_owned()));
    headers
}

/// The headers of a 2026-07-28 request for `method`.
pub fn stateless_headers(method: &str) -> Vec<(&'static str, String)> {
    vec![
        ("MCP-Protocol-Version", "2026-07-28".to_owned()),
        ("Mcp-Method", method.to_owned()),
    ]
}

/// An `initialize` request (2025-11-25).
pub fn initialize(id: u64, client: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": client, "version": "1"}}})
}

/// One HTTP/1.1 request on a fresh connection (`extra`: header lines, each ending in
/// `\r\n`); the status, the head and the body, read until the server closes.
pub async fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("a connection");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .expect("the request written");
    let mut response = String::new();
    tokio::time::timeout(TIMEOUT, stream.read_to_string(&mut response))
        .await
        .expect("a response in time")
        .expect("a response");
    let status = response[9..12].parse().expect("a status");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (status, head.to_owned(), body.to_owned())
}
