//! Serving a server on streamable HTTP at `/mcp` (feature `http`): rmcp's
//! streamable HTTP service does the protocol; in front of it the layer bounds what a
//! client can hold (sessions, connections, slow headers and bodies), makes room in a full
//! session table (`admission`) and answers malformed bodies with JSON-RPC errors; hyper
//! does HTTP/1.1 with `TCP_NODELAY`.

use super::admission::{Admission, InUse, Owner, Streaming, Streams};
use super::origin::Origins;
use super::posted::{Posted, posted};
use super::tagged::TaggedSessions;
use crate::direct::http::HttpRules;
use crate::direct::session::Directory;
use crate::direct::{FAST_PATH, json_answer};
use crate::http_config::HttpConfig;
use crate::request::media;
use crate::request::reader::refused_level_header;
use crate::session::handler::Session;
use crate::verbatim;
use crate::verbatim::splice;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::SessionId;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// The path of the streamable HTTP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// The header that names a request's session.
const SESSION_HEADER: &str = "mcp-session-id";

/// What the front of the endpoint needs: the limits, the session table and its use.
#[derive(Clone)]
struct HttpFront {
    config: HttpConfig,
    sessions: Arc<TaggedSessions>,
    admission: Arc<Admission>,
    /// The event streams each principal holds open.
    streams: Arc<Streams>,
    /// The origins allowed besides the endpoint's own.
    origins: Arc<Origins>,
    /// What goes direct to its session (`direct::http`).
    direct: Arc<HttpRules>,
    /// Whether the server reads a level from `X-MCP-Verbosity` (and so refuses one that is
    /// not a level).
    reads_level_header: bool,
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

/// In front of rmcp: every request on a session is in flight until its response body ends;
/// POST bodies are checked (`post`).
async fn front(State(front): State<HttpFront>, request: Request, next: Next) -> Response {
    let admitted = {
        let headers = request.headers();
        let header_of = |name| headers.get(name).and_then(|v| v.to_str().ok());
        front
            .origins
            .admit(header_of(header::ORIGIN), header_of(header::HOST))
    };
    if !admitted {
        return jsonrpc_error(
            StatusCode::FORBIDDEN,
            Value::Null,
            -32600,
            "forbidden: this Origin may not call the server",
        );
    }
    if front.reads_level_header
        && let Some(why) = refused_level_header(request.headers())
    {
        return jsonrpc_error(StatusCode::BAD_REQUEST, Value::Null, -32602, &why);
    }
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(SessionId::from);
    // Who asks, read only for a request on a session (an `initialize` is read where its
    // session opens).
    let owner = session
        .as_ref()
        .map(|_| Owner::of(request.extensions(), request.headers()));
    if let (Some(id), Some(owner)) = (&session, owner)
        && !front.admission.belongs(id, owner)
    {
        // Answered as rmcp answers a session it does not hold (404): the id alone
        // tells another caller nothing, not even that the session exists.
        tracing::debug!(session = %id, "a request named another caller's session; refused");
        return (StatusCode::NOT_FOUND, "Not Found: Session not found").into_response();
    }
    let method = request.method().clone();
    // A session's event stream counts against its principal's share while it is open.
    let streaming = match (owner, method == axum::http::Method::GET) {
        (Some(owner), true) => match front.streams.begin(owner) {
            Ok(streaming) => streaming,
            Err(_) => {
                crate::transport::refusals::refused(
                    "a principal over its share of event streams was refused",
                );
                let mut response = jsonrpc_error(
                    StatusCode::TOO_MANY_REQUESTS,
                    Value::Null,
                    -32000,
                    "too many open event streams for this caller; close one, or retry later",
                );
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                return response;
            }
        },
        _ => None,
    };
    let in_flight = session.clone().map(|id| front.admission.begin(id));
    let mut response = if method == axum::http::Method::POST {
        post(&front, request, session.as_ref(), next).await
    } else {
        splice::spliced(next.run(request).await)
    };
    // A session ended by DELETE is ended, not accepted for later: 200, which clients check
    // for (the Python SDK warns "Session termination failed: 202" on rmcp's 202).
    if method == axum::http::Method::DELETE && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    match in_flight {
        Some(in_flight) => {
            let (parts, body) = response.into_parts();
            Response::from_parts(
                parts,
                Body::new(Guarded {
                    body,
                    _in_flight: in_flight,
                    _streaming: streaming,
                }),
            )
        }
        None => response,
    }
}

/// A response body that keeps its request in flight (and its event stream counted) until
/// it ends or is dropped.
struct Guarded {
    body: Body,
    _in_flight: InUse,
    _streaming: Option<Streaming>,
}

impl HttpBody for Guarded {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A POST: its body read and checked (`message`); an `initialize` opens its session through
/// the admission (`open_session`). `session` is the one it names, as the front read it.
async fn post(
    front: &HttpFront,
    request: Request,
    session: Option<&SessionId>,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    let (bytes, posted) = match message(front, body).await {
        Ok(read) => read,
        Err((status, code, why)) => return jsonrpc_error(status, Value::Null, code, why),
    };
    // What may go direct (`direct::http`): neither an `initialize` nor carrying `_meta`.
    let plain = posted.initialize.is_none() && !posted.meta;
    let opens_session = posted
        .initialize
        .filter(|_| !parts.headers.contains_key(SESSION_HEADER));
    // A session's request (2025 revisions; rmcp answers stateless ones as JSON itself).
    let as_json = FAST_PATH
        && front.config.json_answers
        && posted.request.is_some()
        && parts.headers.contains_key(SESSION_HEADER)
        && accepts_json(&parts.headers);
    if as_json
        && plain
        && parts.uri.path() == MCP_PATH
        && let Some(session) = session
        && let Some(method) = &posted.request
        && let Some(post) = front.direct.take(
            front.sessions.directory(),
            session,
            &mut parts,
            method,
            &bytes,
        )
    {
        return front.direct.answer(post, parts).await;
    }
    let request = Request::from_parts(parts, Body::from(bytes));
    if let Some(id) = opens_session {
        open_session(front, request, id, next).await
    } else {
        // A session's event stream with its kept listings' texts (`kept`) in.
        let response = restored(splice::spliced(next.run(request).await)).await;
        match as_json {
            true => json_answer::answered(response).await,
            false => response,
        }
    }
}

/// Whether the client accepts a JSON body (`Accept: application/json`, or anything).
fn accepts_json(headers: &axum::http::HeaderMap) -> bool {
    media::accepted(headers).any(|t| t.eq_ignore_ascii_case(media::JSON) || t == "*/*")
}

/// A one-message JSON reply (a stateless request's) with its patches applied
/// (`server::verbatim`; a session's replies are restored as its events are written).
async fn restored(response: Response) -> Response {
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !verbatim::patches_made() || !json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let key = verbatim::KEY.as_bytes();
    let carries = bytes.windows(key.len()).any(|w| w == key);
    let mut message: Value = match carries.then(|| serde_json::from_slice(&bytes)) {
        Some(Ok(message)) => message,
        _ => return Response::from_parts(parts, Body::from(bytes)),
    };
    verbatim::restore(&mut message);
    let body = message.to_string();
    parts
        .headers
        .insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    Response::from_parts(parts, Body::from(body))
}

/// The body, read within the size and time bounds, and what the front reads of the
/// JSON-RPC message it holds ([`posted`]); or why not, as the HTTP status, JSON-RPC code and
/// message of the error response: 408 or 413, `-32700` for a body that is not JSON and
/// `-32600` for JSON that is not JSON-RPC (HTTP 400).
async fn message(
    front: &HttpFront,
    body: Body,
) -> Result<(Bytes, Posted), (StatusCode, i64, &'static str)> {
    let read = axum::body::to_bytes(body, front.config.max_body_bytes);
    let refuse = |status, code, why| Err((status, code, why));
    let bytes = match tokio::time::timeout(front.config.body_timeout, read).await {
        Err(_) => return refuse(StatusCode::REQUEST_TIMEOUT, -32600, "request body too slow"),
        Ok(Err(_)) => {
            return refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                -32600,
                "request body too large",
            );
        }
        Ok(Ok(bytes)) => bytes,
    };
    match posted(&bytes) {
        Ok(posted) => Ok((bytes, posted)),
        Err(-32700) => refuse(
            StatusCode::BAD_REQUEST,
            -32700,
            "parse error: the body is not JSON",
        ),
        Err(code) => refuse(
            StatusCode::BAD_REQUEST,
            code,
            "invalid request: not a JSON-RPC 2.0 message",
        ),
    }
}

/// An `initialize`: room made for its session (or HTTP 503 with a JSON-RPC error when every
/// session that could go is busy), then the session recorded as its client's.
async fn open_session(front: &HttpFront, request: Request, id: Value, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let forwarded = request
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    let client = front.admission.client(peer, forwarded);
    let owner = Owner::of(request.extensions(), request.headers());
    if front
        .admission
        .make_room(client, &front.sessions)
        .await
        .is_err()
    {
        tracing::warn!(
            max = front.config.max_sessions,
            "session table full, every session busy; initialize refused"
        );
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
    let response = next.run(request).await;
    if let Some(id) = response
        .headers()
        .get(SESSION_HEADER)
        .and_then(|v| v.to_str().ok())
    {
        front.admission.opened(SessionId::from(id), client, owner);
    }
    response
}

/// The streamable HTTP service over `sessions`, each client's session made by `session`.
pub(crate) fn service<H: ServerHandler>(
    session: impl Fn() -> Session<H> + Send + Sync + 'static,
    config: StreamableHttpServerConfig,
    sessions: Arc<LocalSessionManager>,
) -> StreamableHttpService<Session<H>, LocalSessionManager> {
    StreamableHttpService::new(move || Ok(session()), sessions, config)
}

/// An `axum` router serving MCP at [`MCP_PATH`] within `config`, each client's session made
/// by `session`: one-message stateless replies as JSON (not an event stream), rmcp's
/// defaults otherwise.
pub(crate) fn router<H: ServerHandler>(
    config: HttpConfig,
    reads_level_header: bool,
    session: impl Fn() -> Session<H> + Send + Sync + 'static,
) -> axum::Router {
    let mut local = LocalSessionManager::default();
    local.session_config.keep_alive = Some(config.session_idle_timeout);
    let worker = &local.session_config;
    let direct = Directory::new(
        FAST_PATH && config.json_answers,
        worker.keep_alive,
        worker.sse_retry,
    );
    let sessions = Arc::new(TaggedSessions::new(
        local,
        config.replica_tag.clone(),
        direct,
    ));
    // A stateless (2026-07-28) reply that is one message goes out as JSON with a length,
    // written whole: a proxy in front either has all of it or none (and may then send
    // a safe request to another replica), never a stream cut after its headers.
    let mut rmcp_config = StreamableHttpServerConfig::default().with_json_response(true);
    rmcp_config.max_request_body_bytes = config.max_body_bytes;
    let direct_rules = Arc::new(HttpRules::new(&rmcp_config));
    let service = StreamableHttpService::new(move || Ok(session()), sessions.clone(), rmcp_config);
    let admission = Arc::new(Admission::new(&config));
    let streams = Arc::new(Streams::new(&config));
    // The builder refused a list that does not parse.
    let origins = Arc::new(Origins::parse(&config.allowed_origins).unwrap_or_default());
    let front_state = HttpFront {
        reads_level_header,
        streams,
        origins,
        direct: direct_rules,
        config,
        sessions,
        admission,
    };
    axum::Router::new()
        .nest_service(MCP_PATH, service)
        .layer(axum::middleware::from_fn_with_state(front_state, front))
}
