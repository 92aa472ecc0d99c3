//! Serving a [`Server`] on streamable HTTP at `/mcp` (feature `http`): rmcp's
//! streamable HTTP service does the protocol; in front of it the layer bounds what a
//! client can hold (sessions, connections, slow headers and bodies) and answers malformed
//! bodies with JSON-RPC errors; hyper does HTTP/1.1 with `TCP_NODELAY`.

use crate::server::built::Server;
use crate::server::limits::HttpConfig;
use crate::server::session::handler::Session;
use crate::server::transport::error::ServeError;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

/// The path of the streamable HTTP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// What the front of the endpoint needs: the limits and the session table.
#[derive(Clone)]
struct Front {
    config: HttpConfig,
    sessions: Arc<LocalSessionManager>,
}

/// A JSON-RPC error response with an HTTP status.
fn jsonrpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let mut response = (status, body.to_string()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// Whether a JSON value has the shape of a JSON-RPC message (or a batch of them).
fn is_jsonrpc(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.get("jsonrpc") == Some(&json!("2.0")),
        Value::Array(items) => !items.is_empty() && items.iter().all(is_jsonrpc),
        _ => false,
    }
}

/// In front of rmcp: bounded, timed body reads; `-32700` for a body that is not JSON and
/// `-32600` for JSON that is not JSON-RPC (HTTP 400); HTTP 503 for an `initialize` when
/// the session table is full.
async fn front(State(front): State<Front>, request: Request, next: Next) -> Response {
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let read = axum::body::to_bytes(body, front.config.max_body_bytes);
    let bytes: Bytes = match tokio::time::timeout(front.config.body_timeout, read).await {
        Err(_) => {
            return jsonrpc_error(
                StatusCode::REQUEST_TIMEOUT,
                Value::Null,
                -32600,
                "request body too slow",
            );
        }
        Ok(Err(_)) => {
            return jsonrpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                Value::Null,
                -32600,
                "request body too large",
            );
        }
        Ok(Ok(bytes)) => bytes,
    };
    let message: Value = match serde_json::from_slice(&bytes) {
        Ok(message) => message,
        Err(_) => {
            return jsonrpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                -32700,
                "parse error: the body is not JSON",
            );
        }
    };
    if !is_jsonrpc(&message) {
        return jsonrpc_error(
            StatusCode::BAD_REQUEST,
            Value::Null,
            -32600,
            "invalid request: not a JSON-RPC 2.0 message",
        );
    }
    let opens_session = message.get("method") == Some(&json!("initialize"))
        && !parts.headers.contains_key("mcp-session-id");
    if opens_session && front.sessions.sessions.read().await.len() >= front.config.max_sessions {
        tracing::warn!(
            max = front.config.max_sessions,
            "session table full; initialize refused"
        );
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let mut response = jsonrpc_error(
            StatusCode::SERVICE_UNAVAILABLE,
            id,
            -32000,
            "the server has no room for another session; retry later",
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        return response;
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

impl<H: ServerHandler + Clone> Server<H> {
    /// The streamable HTTP service (a `tower` service), one session per client, over
    /// `sessions`.
    pub fn http_service(
        &self,
        config: StreamableHttpServerConfig,
        sessions: Arc<LocalSessionManager>,
    ) -> StreamableHttpService<Session<H>, LocalSessionManager> {
        let server = self.clone();
        StreamableHttpService::new(move || Ok(server.session()), sessions, config)
    }

    /// An `axum` router serving MCP at [`MCP_PATH`] with this server's [`HttpConfig`] and
    /// rmcp's defaults otherwise (loopback hosts only; build your own router on
    /// [`http_service`](Self::http_service) for more).
    pub fn router(&self) -> axum::Router {
        let config = self.http_config().clone();
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(config.session_idle_timeout);
        let sessions = Arc::new(sessions);
        let mut rmcp_config = StreamableHttpServerConfig::default();
        rmcp_config.max_request_body_bytes = config.max_body_bytes;
        let service = self.http_service(rmcp_config, sessions.clone());
        axum::Router::new().nest_service(MCP_PATH, service).layer(
            axum::middleware::from_fn_with_state(Front { config, sessions }, front),
        )
    }

    /// Serves streamable HTTP at `http://{addr}/mcp` until `shutdown` resolves.
    pub async fn serve_http(
        &self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener, self.router(), shutdown).await
    }

    /// Serves `router` (for example [`router`](Self::router) with the host's middleware) on
    /// a bound listener until `shutdown` resolves: at most `max_connections` at once, each
    /// with `TCP_NODELAY` and the header-read timeout. On shutdown it stops accepting and
    /// gives open connections 10 s to finish.
    pub async fn serve_http_on(
        &self,
        listener: tokio::net::TcpListener,
        router: axum::Router,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        crate::server::transport::accept::serve(
            listener,
            router,
            self.http_config().clone(),
            shutdown,
        )
        .await
    }
}
