//! Test tools, servers and clients.
#![allow(dead_code)]

use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::model::{
    ClientCapabilities, ClientConfig as ClientInfo, ErrorData, Implementation,
    PaginatedRequestParams, ProtocolVersion, RequestMetaObject,
};
use mcp_tailor::server::rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, RunningService, ServiceError,
};
use mcp_tailor::server::rmcp::transport::StreamableHttpClientTransport;
use mcp_tailor::server::rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use mcp_tailor::server::rmcp::{ClientHandler, RoleClient, ServerHandler};
use mcp_tailor::server::{CallContext, Principal, Server, ServerBuilder};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The first tool, alphabetically and in registration order.
#[mcp_tool(
    description = [(verbosity(0), "Alpha."), (verbosity(9), "Alpha, the first tool, in full.")],
    descriptions = [codex_alpha = "alpha (codex wording)", grok_alpha = "alpha (grok wording)"],
    runners = [((codex, _), [default = codex_alpha]), ((grok, _), [default = grok_alpha])],
)]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Alpha {
    /// A word.
    #[mcp(description = [(verbosity(0), "word"), (verbosity(9), "A word to echo back.")])]
    pub word: String,
}

/// Bravo.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Bravo {}

/// Charlie.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Charlie {}

/// Needs the `secret.read` scope.
#[mcp_tool(scopes = ["secret.read" | "admin"])]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Secret {}

/// Counts the calls of every handler, to prove a handler did not run.
#[derive(Clone, Default)]
pub struct Calls(pub Arc<AtomicUsize>);

impl Calls {
    pub fn get(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// A builder with alpha, bravo and charlie registered (handlers echo and count).
pub fn abc(calls: &Calls) -> ServerBuilder {
    let (a, b, c) = (calls.clone(), calls.clone(), calls.clone());
    mcp_tailor::server::Server::builder()
        .name("test-server", "1.0.0")
        .tool(move |args: Alpha, _: CallContext| {
            a.0.fetch_add(1, Ordering::SeqCst);
            async move { Ok::<_, String>(json!({ "echo": args.word })) }
        })
        .tool(move |_: Bravo, _: CallContext| {
            b.0.fetch_add(1, Ordering::SeqCst);
            async { Ok::<_, String>(json!({ "tool": "bravo" })) }
        })
        .tool(move |_: Charlie, _: CallContext| {
            c.0.fetch_add(1, Ordering::SeqCst);
            async { Ok::<_, String>(json!({ "tool": "charlie" })) }
        })
}

/// How a client opens: a session (`initialize`, 2025-11-25), or stateless
/// (`server/discover`, 2026-07-28, per-request `_meta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// `initialize`, 2025-11-25: the session-bound era.
    SessionBound,
    /// `server/discover`, 2026-07-28, per-request `_meta`.
    Stateless,
}

/// A client that records `notifications/tools/list_changed`, and every log message,
/// progress and task status notification (as JSON, in `heard`).
#[derive(Clone)]
pub struct Client {
    pub info: ClientInfo,
    pub list_changed: mpsc::UnboundedSender<()>,
    pub heard: Arc<std::sync::Mutex<Vec<Value>>>,
}

#[allow(deprecated)]
impl ClientHandler for Client {
    fn get_info(&self) -> ClientInfo {
        self.info.clone()
    }

    async fn on_tool_list_changed(
        &self,
        _: mcp_tailor::server::rmcp::service::NotificationContext<RoleClient>,
    ) {
        let _ = self.list_changed.send(());
    }

    async fn on_logging_message(
        &self,
        params: mcp_tailor::server::rmcp::model::LoggingMessageNotificationParam,
        _: mcp_tailor::server::rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.hear(params);
    }

    async fn on_progress(
        &self,
        params: mcp_tailor::server::rmcp::model::ProgressNotificationParam,
        _: mcp_tailor::server::rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.hear(params);
    }

    async fn on_task_status(
        &self,
        params: mcp_tailor::server::rmcp::model::TaskStatusNotificationParams,
        _: mcp_tailor::server::rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.hear(params);
    }
}

impl Client {
    /// Records a notification's params, as JSON.
    fn hear(&self, params: impl serde::Serialize) {
        self.heard
            .lock()
            .unwrap()
            .push(serde_json::to_value(params).unwrap());
    }
}

pub type Running = RunningService<RoleClient, Client>;

/// A recording client named `name` for `era`, its `list_changed` receiver and lifecycle.
pub fn client_for(
    name: &str,
    era: Opening,
) -> (Client, mpsc::UnboundedReceiver<()>, ClientLifecycleMode) {
    client_with(name, era, ClientCapabilities::default())
}

/// [`client_for`], declaring `capabilities`.
pub fn client_with(
    name: &str,
    era: Opening,
    capabilities: ClientCapabilities,
) -> (Client, mpsc::UnboundedReceiver<()>, ClientLifecycleMode) {
    let (tx, rx) = mpsc::unbounded_channel();
    let mut info = ClientInfo::new(capabilities, Implementation::new(name, "1.0"));
    let lifecycle = match era {
        Opening::SessionBound => {
            info = info.with_protocol_version(ProtocolVersion::V_2025_11_25);
            ClientLifecycleMode::Initialize
        }
        Opening::Stateless => ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        },
    };
    (
        Client {
            info,
            list_changed: tx,
            heard: Arc::default(),
        },
        rx,
        lifecycle,
    )
}

/// Connects an `rmcp` client named `name` over an in-process stdio pipe.
pub async fn stdio<H: ServerHandler + Clone>(
    server: &Server<H>,
    name: &str,
    era: Opening,
) -> (Running, mpsc::UnboundedReceiver<()>) {
    stdio_with(server, name, era, ClientCapabilities::default()).await
}

/// [`stdio`], the client declaring `capabilities`.
pub async fn stdio_with<H: ServerHandler + Clone>(
    server: &Server<H>,
    name: &str,
    era: Opening,
    capabilities: ClientCapabilities,
) -> (Running, mpsc::UnboundedReceiver<()>) {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let server = server.clone();
    tokio::spawn(async move {
        let (read, write) = tokio::io::split(server_io);
        let _ = server.serve_transport((read, write)).await;
    });
    let (handler, rx, lifecycle) = client_with(name, era, capabilities);
    let (read, write) = tokio::io::split(client_io);
    let running = handler
        .serve_with_lifecycle((read, write), lifecycle)
        .await
        .expect("stdio handshake");
    (running, rx)
}

/// The test HTTP principal: `x-test-principal` names it, `x-test-scopes` grants scopes.
async fn test_principal(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let principal = header(&request, "x-test-principal").map(|id| {
        let scopes: Vec<String> = header(&request, "x-test-scopes")
            .map(|s| s.split(',').map(str::to_owned).collect())
            .unwrap_or_default();
        Principal::new(id).with_scopes(scopes)
    });
    if let Some(principal) = principal {
        request.extensions_mut().insert(principal);
    }
    next.run(request).await
}

fn header(request: &axum::extract::Request, name: &str) -> Option<String> {
    request
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// Serves `server` on streamable HTTP on a loopback port.
pub async fn http_server<H: ServerHandler + Clone>(server: &Server<H>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = server
        .router()
        .layer(axum::middleware::from_fn(test_principal));
    let server = server.clone();
    tokio::spawn(async move {
        let _ = server
            .serve_http_on(listener, router, std::future::pending())
            .await;
    });
    addr
}

/// Connects an `rmcp` client named `name` over streamable HTTP, with extra headers.
pub async fn http(
    addr: SocketAddr,
    name: &str,
    era: Opening,
    headers: &[(&str, &str)],
) -> (Running, mpsc::UnboundedReceiver<()>) {
    try_http(addr, name, era, headers)
        .await
        .expect("http handshake")
}

/// Like [`http`], but the handshake may fail.
pub async fn try_http(
    addr: SocketAddr,
    name: &str,
    era: Opening,
    headers: &[(&str, &str)],
) -> Result<(Running, mpsc::UnboundedReceiver<()>), ClientInitializeError> {
    try_http_with(addr, name, era, headers, ClientCapabilities::default()).await
}

/// Like [`try_http`], the client declaring `capabilities`.
pub async fn try_http_with(
    addr: SocketAddr,
    name: &str,
    era: Opening,
    headers: &[(&str, &str)],
    capabilities: ClientCapabilities,
) -> Result<(Running, mpsc::UnboundedReceiver<()>), ClientInitializeError> {
    let custom: HashMap<_, _> = headers
        .iter()
        .map(|(k, v)| (k.parse().unwrap(), v.parse().unwrap()))
        .collect();
    let config = StreamableHttpClientTransportConfig::with_uri(format!("http://{addr}/mcp"))
        .custom_headers(custom);
    let transport = StreamableHttpClientTransport::from_config(config);
    let (handler, rx, lifecycle) = client_with(name, era, capabilities);
    let running = handler.serve_with_lifecycle(transport, lifecycle).await?;
    Ok((running, rx))
}

/// Every transport × era combination, for tests that must hold on all of them.
pub const COMBOS: [(&str, Opening); 4] = [
    ("stdio", Opening::SessionBound),
    ("stdio", Opening::Stateless),
    ("http", Opening::SessionBound),
    ("http", Opening::Stateless),
];

/// Connects over the named transport (starting an HTTP server when needed).
pub async fn connect<H: ServerHandler + Clone>(
    server: &Server<H>,
    transport: &str,
    name: &str,
    era: Opening,
) -> Running {
    match transport {
        "stdio" => stdio(server, name, era).await.0,
        _ => http(http_server(server).await, name, era, &[]).await.0,
    }
}

/// `tools/list` with a cursor and extra `_meta`.
pub async fn list(client: &Running, cursor: Option<&str>, meta: Value) -> Result<Value, ErrorData> {
    let mut params = PaginatedRequestParams::default();
    params.cursor = cursor.map(str::to_owned);
    if let Value::Object(map) = meta
        && !map.is_empty()
    {
        params.meta = Some(RequestMetaObject::from(map));
    }
    match client.list_tools(Some(params)).await {
        Ok(result) => Ok(serde_json::to_value(result).unwrap()),
        Err(ServiceError::McpError(error)) => Err(error),
        Err(other) => panic!("transport failure: {other}"),
    }
}

/// The tools of one listing, by name → tool JSON.
pub fn by_name(result: &Value) -> HashMap<String, Value> {
    result["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["name"].as_str().unwrap().to_owned(), t.clone()))
        .collect()
}

/// `tools/call`.
pub async fn call(client: &Running, name: &str, arguments: Value) -> Result<Value, ErrorData> {
    let mut params = mcp_tailor::server::rmcp::model::CallToolRequestParams::new(name.to_owned());
    params.arguments = arguments.as_object().cloned();
    match client.call_tool(params).await {
        Ok(result) => Ok(serde_json::to_value(result).unwrap()),
        Err(ServiceError::McpError(error)) => Err(error),
        Err(other) => panic!("transport failure: {other}"),
    }
}

/// The `data.reason` of an error.
pub fn reason(error: &ErrorData) -> &str {
    error
        .data
        .as_ref()
        .and_then(|d| d["reason"].as_str())
        .unwrap_or("")
}

/// A raw JSON-RPC-lines connection to a server over an in-process stdio pipe.
pub struct Raw {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
}

impl Raw {
    pub fn connect<H: ServerHandler + Clone>(server: &Server<H>) -> Raw {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        let server = server.clone();
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            let _ = server.serve_transport((read, write)).await;
        });
        let (read, write) = tokio::io::split(client_io);
        Raw {
            write,
            lines: BufReader::new(read).lines(),
        }
    }

    pub async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.write.write_all(line.as_bytes()).await.unwrap();
    }

    /// The response to request `id` (skipping notifications).
    pub async fn response(&mut self, id: u64) -> Value {
        loop {
            let line =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.lines.next_line())
                    .await
                    .expect("a response within 10 s")
                    .unwrap()
                    .expect("the connection stays open");
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    pub async fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.response(id).await
    }

    pub async fn initialize(&mut self, id: u64, client: &str) -> Value {
        self.request(
            id,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": client, "version": "1"}}),
        )
        .await
    }
}

/// What a call of [`until_cancelled`] says as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waited {
    /// Its handler runs: a cancellation now reaches it.
    Started,
    /// Its handler saw the cancellation.
    Cancelled,
}

/// Says [`Waited::Started`] on `told`, waits until `call` is cancelled (30 s at most), then
/// says [`Waited::Cancelled`].
pub async fn until_cancelled(
    call: CallContext,
    told: mpsc::UnboundedSender<Waited>,
) -> Result<Value, String> {
    let _ = told.send(Waited::Started);
    tokio::select! {
        () = call.cancelled() => { let _ = told.send(Waited::Cancelled); }
        // Sleep: simulated work, until the call is cancelled.
        () = tokio::time::sleep(std::time::Duration::from_secs(30)) => {}
    }
    Ok(json!({}))
}

/// Waits until `told` says `what` (10 s at most).
pub async fn told_of(told: &mut mpsc::UnboundedReceiver<Waited>, what: Waited) {
    let heard = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while let Some(said) = told.recv().await {
            if said == what {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(heard, Ok(true), "the handler said {what:?}");
}

/// Asks `call`'s client for a name (a form elicitation): what its user answered.
pub async fn ask_name(call: &CallContext) -> Result<Value, String> {
    let schema = serde_json::from_value(
        json!({"type": "object", "properties": {"name": {"type": "string"}}}),
    )
    .map_err(|e| e.to_string())?;
    let elicited = call
        .elicit(
            mcp_tailor::server::rmcp::model::ElicitRequestParams::FormElicitationParams {
                meta: None,
                message: "Your name?".into(),
                requested_schema: schema,
            },
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(json!(elicited.content))
}

/// A client whose model and user answer.
#[derive(Clone)]
pub struct Answering;

/// An [`Answering`] client of `server` over `transport`: an in-process stdio pipe, or
/// streamable HTTP at `addr` (where `server` is served).
pub async fn answering<H: ServerHandler + Clone>(
    server: &Server<H>,
    addr: SocketAddr,
    transport: &str,
) -> RunningService<RoleClient, Answering> {
    use mcp_tailor::server::rmcp::ServiceExt as _;
    match transport {
        "stdio" => {
            let (client_io, server_io) = tokio::io::duplex(1 << 20);
            let served = server.clone();
            tokio::spawn(async move {
                let _ = served.serve_transport(tokio::io::split(server_io)).await;
            });
            Answering.serve(tokio::io::split(client_io)).await.unwrap()
        }
        _ => {
            let url = format!("http://{addr}/mcp");
            let transport = StreamableHttpClientTransport::from_uri(url);
            Answering.serve(transport).await.unwrap()
        }
    }
}

#[allow(deprecated)] // rmcp marks sampling deprecated (SEP-2577); clients still answer it.
impl mcp_tailor::server::rmcp::ClientHandler for Answering {
    fn get_info(&self) -> mcp_tailor::server::rmcp::model::ClientConfig {
        use mcp_tailor::server::rmcp::model::{
            ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
        };
        ClientConfig::new(
            ClientCapabilities::builder()
                .enable_sampling()
                .enable_elicitation()
                .build(),
            Implementation::new("answering", "1.0"),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_message(
        &self,
        params: mcp_tailor::server::rmcp::model::CreateMessageRequestParams,
        _: mcp_tailor::server::rmcp::service::RequestContext<mcp_tailor::server::rmcp::RoleClient>,
    ) -> Result<
        mcp_tailor::server::rmcp::model::CreateMessageResult,
        mcp_tailor::server::rmcp::ErrorData,
    > {
        use mcp_tailor::server::rmcp::model::{CreateMessageResult, SamplingMessage};
        let asked = params.messages.len();
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text(format!("answered {asked} message")),
            "test-model".into(),
        ))
    }

    async fn create_elicitation(
        &self,
        _: mcp_tailor::server::rmcp::model::ElicitRequestParams,
        _: mcp_tailor::server::rmcp::service::RequestContext<mcp_tailor::server::rmcp::RoleClient>,
    ) -> Result<mcp_tailor::server::rmcp::model::ElicitResult, mcp_tailor::server::rmcp::ErrorData>
    {
        let mut result: mcp_tailor::server::rmcp::model::ElicitResult =
            serde_json::from_value(json!({"action": "accept", "content": {"name": "Ada"}}))
                .unwrap();
        result.meta = None;
        Ok(result)
    }
}
