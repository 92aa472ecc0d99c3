//! Direct POSTs (streamable HTTP, 2025 revisions): a session's request taken from the
//! front to its session's handler (`session`), past rmcp's HTTP service — which
//! would check it, read it and hand it to the same handler, only to write its answer as an
//! event stream that the front then reads back into one JSON body (`json_answer`).
//!
//! Only what rmcp would take as it is goes direct, a strict subset of what it accepts;
//! anything else, and every error, goes rmcp's way and is answered as before:
//! * one request without `_meta`, not an `initialize`, POSTed to exactly `/mcp` on a
//!   session (the front looks, reading the body's envelope: `posted`);
//! * `Host` one of rmcp's allowed hosts as written (any, where rmcp allows any), no
//!   `Origin`, `Content-Type: application/json`, an `Accept` naming JSON and event streams;
//! * `MCP-Protocol-Version` a version rmcp knows from before 2026-07-28;
//! * a session whose directory takes it (`session`'s rules). One it declines goes
//!   rmcp's way marked `Declined`, so the directory is not asked again. The body is read
//!   into rmcp's types only after that, once.
//!
//! The answer leaves as rmcp's then would: one JSON body when it comes within
//! [`AT_ONCE`], else the event stream rmcp writes, priming event first, resumable; a kept
//! listing's text spliced in either way (`verbatim::splice`).

use super::json_answer::{AT_ONCE, json_body};
use super::session::{Directory, Taking};
use crate::request::media;
use crate::verbatim::splice;
use crate::verbatim::splice::restored_event;
use axum::body::{Body, Bytes};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use futures::{StreamExt as _, stream};
use rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, GetExtensions, JsonRpcRequest,
    ListToolsRequest, PingRequest, ProtocolVersion,
};
use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use serde::de::DeserializeOwned;
use sse_stream::{KeepAlive, Sse, SseBody};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// Marks a POST the directory declined to take direct: it goes rmcp's way, and the
/// directory is not asked again (asking has effects: `Directory::taking`).
#[derive(Clone, Copy)]
pub(crate) struct Declined;

/// What of rmcp's HTTP service decides what goes direct, and how its answer is written.
pub(crate) struct HttpRules {
    /// rmcp's allowed hosts (empty: any).
    allowed_hosts: Vec<String>,
    /// The interval of an event stream's keep-alive comments.
    keep_alive: Option<Duration>,
}

/// A request taken direct to its session.
pub(crate) struct DirectPost {
    taking: Taking,
    request: JsonRpcRequest<ClientRequest>,
}

impl HttpRules {
    /// The rules of rmcp's HTTP service configured by `config`.
    pub(crate) fn new(config: &StreamableHttpServerConfig) -> Self {
        HttpRules {
            allowed_hosts: config.allowed_hosts.clone(),
            keep_alive: config.sse_keep_alive,
        }
    }

    /// Whether `headers` carry what rmcp's HTTP service accepts as it is.
    fn admits(&self, headers: &HeaderMap) -> bool {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let host_allowed = self.allowed_hosts.is_empty()
            || text(header::HOST.as_str()).is_some_and(|host| self.host_allowed(host));
        let json_body = media::body_is(headers, media::JSON);
        let (mut json, mut events) = (false, false);
        for essence in media::accepted(headers) {
            json |= essence.eq_ignore_ascii_case(media::JSON);
            events |= essence.eq_ignore_ascii_case(media::EVENTS);
        }
        let legacy = text("mcp-protocol-version").is_some_and(|version| {
            version < ProtocolVersion::V_2026_07_28.as_str()
                && ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .any(|known| known.as_str() == version)
        });
        host_allowed
            && json_body
            && json
            && events
            && legacy
            && !headers.contains_key(header::ORIGIN)
    }

    /// Whether `host` (a `Host` header) is an allowed host as written, with or without a
    /// port.
    fn host_allowed(&self, host: &str) -> bool {
        let name = match host.rsplit_once(':') {
            Some((name, port)) if !name.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
                name
            }
            _ => host,
        };
        let name = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        self.allowed_hosts
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(name) || allowed == host)
    }

    /// The POST of `parts` and `body`, one plain request for `method` on `session` (no
    /// `initialize`, no `_meta`: the front read it so), taken direct when it may be (the
    /// module's rules); `None`: it goes rmcp's way (marked `Declined` where the directory
    /// declined it).
    pub(crate) fn take(
        &self,
        directory: &Directory,
        session: &SessionId,
        parts: &mut Parts,
        method: &str,
        body: &[u8],
    ) -> Option<DirectPost> {
        if parts.uri.authority().is_some() || !self.admits(&parts.headers) {
            return None;
        }
        let Some(taking) = directory.taking_plain(session) else {
            parts.extensions.insert(Declined);
            return None;
        };
        let request = read(method, body)?;
        Some(DirectPost { taking, request })
    }

    /// `post`'s answer, `parts` the request's as rmcp would have handed them on.
    pub(crate) async fn answer(&self, post: DirectPost, parts: Parts) -> Response {
        let DirectPost {
            taking,
            mut request,
        } = post;
        request.request.extensions_mut().insert(parts);
        let mut events = taking.answer(request).map(restored_event);
        let until = tokio::time::Instant::now() + AT_ONCE;
        let mut before = Vec::new();
        while let Ok(Some(event)) = tokio::time::timeout_at(until, events.next()).await {
            match &event.message {
                Some(message) => {
                    let body = serde_json::to_vec(message.as_ref()).expect("a JSON-RPC message");
                    let (parts, ()) = Response::new(()).into_parts();
                    return json_body(parts, splice::splice(Bytes::from(body)));
                }
                // The priming event, which a JSON body goes without.
                None => before.push(event),
            }
        }
        self.event_stream(stream::iter(before).chain(events))
    }

    /// `events` as rmcp writes a request's event stream.
    fn event_stream(
        &self,
        events: impl futures::Stream<Item = ServerSseMessage> + Send + 'static,
    ) -> Response {
        let events = events.map(|event| {
            let data = match &event.message {
                Some(message) => serde_json::to_string(message.as_ref()).expect("a message"),
                // A priming event: empty data (SEP-1699).
                None => String::new(),
            };
            let mut sse = Sse::default().data(data);
            sse.id = event.event_id;
            sse.retry = event.retry.map(|retry| retry.as_millis() as u64);
            Ok::<_, Infallible>(sse)
        });
        let body = match self.keep_alive {
            Some(interval) => Body::new(
                SseBody::new(events).with_keep_alive::<Sleep>(KeepAlive::new().interval(interval)),
            ),
            None => Body::new(SseBody::new(events)),
        };
        let mut response = Response::new(body);
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
        splice::spliced(response)
    }
}

/// `body`, a request for `method` (the front read it as one: `posted`), in rmcp's types,
/// read only now. rmcp reads a request by trying each of its types in turn until one fits
/// (each miss costs an error made and dropped); the methods asked most are read as their own
/// type. A method names one type, so the same request comes out. Params that do not fit
/// that type are read by rmcp's reader (into a custom request, as rmcp reads them).
fn read(method: &str, body: &[u8]) -> Option<JsonRpcRequest<ClientRequest>> {
    fn of<R>(body: &[u8]) -> Option<JsonRpcRequest<ClientRequest>>
    where
        R: DeserializeOwned + Into<ClientRequest>,
    {
        let read: JsonRpcRequest<R> = serde_json::from_slice(body).ok()?;
        let JsonRpcRequest {
            jsonrpc,
            id,
            request,
        } = read;
        let request = request.into();
        Some(JsonRpcRequest {
            jsonrpc,
            id,
            request,
        })
    }
    let own = match method {
        "tools/call" => of::<CallToolRequest>(body),
        "tools/list" => of::<ListToolsRequest>(body),
        "ping" => of::<PingRequest>(body),
        _ => None,
    };
    own.or_else(|| match serde_json::from_slice(body).ok()? {
        ClientJsonRpcMessage::Request(request) => Some(request),
        _ => None,
    })
}

/// The keep-alive timer of an event stream.
struct Sleep(Pin<Box<tokio::time::Sleep>>);

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.0.as_mut().poll(cx)
    }
}

impl sse_stream::Timer for Sleep {
    fn reset(mut self: Pin<&mut Self>, instant: std::time::Instant) {
        self.0.as_mut().reset(instant.into());
    }

    fn from_duration(duration: Duration) -> Self {
        Sleep(Box::pin(tokio::time::sleep(duration)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `body` as rmcp's reader reads it.
    fn rmcp_reads(body: &str) -> JsonRpcRequest<ClientRequest> {
        match serde_json::from_str(body).unwrap() {
            ClientJsonRpcMessage::Request(request) => request,
            other => panic!("not a request: {other:?}"),
        }
    }

    #[test]
    fn a_request_read_as_its_own_type_is_the_request_rmcp_reads() {
        for body in [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2.5,"x"],"b":null}}}"#,
            r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"abc"}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#,
            // Params that do not fit the method's type: rmcp reads a custom request.
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"resources/list","params":{}}"#,
        ] {
            let method = serde_json::from_str::<serde_json::Value>(body).unwrap()["method"]
                .as_str()
                .unwrap()
                .to_owned();
            let ours = read(&method, body.as_bytes()).expect("read");
            let rmcp = rmcp_reads(body);
            assert_eq!(ours.id, rmcp.id, "{body}");
            assert_eq!(ours.request.method(), rmcp.request.method(), "{body}");
            assert_eq!(
                std::mem::discriminant(&ours.request),
                std::mem::discriminant(&rmcp.request),
                "{body}"
            );
            assert_eq!(
                serde_json::to_value(&ours).unwrap(),
                serde_json::to_value(&rmcp).unwrap(),
                "{body}"
            );
        }
    }
}
