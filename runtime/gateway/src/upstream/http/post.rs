//! A request to a streamable HTTP upstream, posted by the gateway itself. rmcp's `reqwest`
//! client reads an answer that comes as one JSON body straight into rmcp's types, which
//! drop what they do not know (a tool's `execution`, a capability, a vendor's field).
//! Posted here, that body is parsed once: its result is kept as written (`verbatim::store`)
//! and read into rmcp's types knowing what was asked (`read`). An answer that comes as an
//! event stream is handed on as rmcp's client hands it (`kept_http` keeps each event as
//! written on its way), and any other response becomes what rmcp's client makes of it —
//! a legacy server's refusal of `server/discover` included, which rmcp's lifecycle reads
//! to fall back to `initialize`. Notifications and answers are posted by rmcp's client:
//! nothing comes back to them. The HTTP lane (`lane::http`) posts its requests the same way
//! ([`send`]), to where rmcp last posted ([`LastTarget`]).

use crate::upstream::http::event_size::bounded;
use crate::upstream::read::{ResultKind, read};
use crate::upstream::verbatim::store::Verbatim;
use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use mcp_tailor_core::seam::Locked;
use rmcp::ErrorData;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpError,
    StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What a POST comes back as, for rmcp's worker.
pub(crate) type PostAnswer =
    Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

/// The session header.
const SESSION: HeaderName = HeaderName::from_static("mcp-session-id");

/// What a request accepts back, as rmcp's client says it.
const ACCEPTED: &str = "text/event-stream, application/json";

/// An event stream's events, as rmcp's client reads them.
pub(crate) type Events = futures::stream::BoxStream<'static, Result<sse_stream::Sse, SseError>>;

/// Where and with what a message is posted: the arguments rmcp's worker posts with.
pub(crate) struct Addressed {
    pub(crate) uri: Arc<str>,
    pub(crate) session_id: Option<Arc<str>>,
    pub(crate) auth_header: Option<String>,
    pub(crate) custom_headers: HashMap<HeaderName, HeaderValue>,
}

/// Posts `message` (a request) to `target` with `client`, as rmcp's client would, and reads
/// what comes back; the result of an answer in one JSON body is kept in `written`.
pub(crate) async fn post(
    client: &reqwest::Client,
    written: &Verbatim,
    message: ClientJsonRpcMessage,
    target: &Target,
    limits: StreamableHttpResponseLimits,
) -> PostAnswer {
    let body = serde_json::to_vec(&message).map_err(|e| unexpected(format!("{e}")))?;
    let JsonRpcMessage::Request(request) = message else {
        return Err(unexpected("only a request is posted here".into()));
    };
    let asked = ResultKind::of(&request.request);
    let discover = matches!(request.request, ClientRequest::DiscoverRequest(_));
    match send(client, target, body, request.id, discover, limits).await {
        Received::Json(answer, session) => {
            let typed = read(&answer, |_| asked)
                .map_err(|e| unexpected(format!("the answer is not a JSON-RPC message: {e}")))?;
            if let Value::Object(answer) = answer {
                written.keep_answer(answer);
            }
            Ok(StreamableHttpPostResponse::Json(typed, session))
        }
        Received::Events(events, session) => Ok(StreamableHttpPostResponse::Sse(events, session)),
        Received::Other(answer) => *answer,
    }
}

/// Where a request is posted, ready to post again and again: its URL parsed, and every
/// header it carries (the session's, the credential, the protocol version…).
pub(crate) struct Target {
    url: reqwest::Url,
    headers: HeaderMap,
    /// Whether it names a session.
    attached: bool,
}

impl Target {
    /// Where `to` says, with the headers rmcp's client sends a request with.
    pub(crate) fn of(to: &Addressed) -> Result<Target, StreamableHttpError<reqwest::Error>> {
        let url = reqwest::Url::parse(&to.uri)
            .map_err(|e| unexpected(format!("the upstream's URL {}: {e}", to.uri)))?;
        let mut headers = HeaderMap::with_capacity(4 + to.custom_headers.len());
        headers.insert(ACCEPT, HeaderValue::from_static(ACCEPTED));
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(token) = &to.auth_header {
            let mut bearer = HeaderValue::try_from(format!("Bearer {token}"))
                .map_err(|e| unexpected(format!("the credential is no header value: {e}")))?;
            bearer.set_sensitive(true);
            headers.insert(AUTHORIZATION, bearer);
        }
        for (name, value) in &to.custom_headers {
            headers.append(name.clone(), value.clone());
        }
        if let Some(session) = &to.session_id {
            let session = HeaderValue::from_str(session)
                .map_err(|e| unexpected(format!("the session id is no header value: {e}")))?;
            headers.insert(SESSION, session);
        }
        Ok(Target {
            url,
            headers,
            attached: to.session_id.is_some(),
        })
    }

    /// Its URL.
    pub(crate) fn url(&self) -> &reqwest::Url {
        &self.url
    }

    /// The headers to GET its event stream with: a request's, but its body's type.
    pub(crate) fn stream_headers(&self) -> HeaderMap {
        let mut headers = self.headers.clone();
        headers.remove(CONTENT_TYPE);
        headers
    }
}

/// Where rmcp's client last posted a message of the session it keeps (its id and headers,
/// a new session's once rmcp opened one again), for the requests the gateway posts itself
/// (`lane::http`); `None` until the session is open.
#[derive(Clone, Default)]
pub(crate) struct LastTarget(Arc<Mutex<Option<Arc<Target>>>>);

impl LastTarget {
    /// rmcp's client posts `message` to `target`: kept unless `message` opens a session
    /// (an `initialize`, which names none yet).
    pub(crate) fn saw(&self, message: &ClientJsonRpcMessage, target: &Arc<Target>) {
        if let JsonRpcMessage::Request(request) = message
            && matches!(request.request, ClientRequest::InitializeRequest(_))
        {
            return;
        }
        *self.0.locked() = Some(target.clone());
    }

    /// Where to post a request of the session now.
    pub(crate) fn get(&self) -> Option<Arc<Target>> {
        self.0.locked().clone()
    }
}

/// What posting a request came back as, before it is read as a JSON-RPC message.
pub(crate) enum Received {
    /// An answer in one JSON body, as written; the session the response named.
    Json(Value, Option<String>),
    /// An event stream, its events bounded in size; the session the response named.
    Events(Events, Option<String>),
    /// Anything else, as rmcp's client makes of it: accepted, an error answer, a failure
    /// (rare, and large: boxed).
    Other(Box<PostAnswer>),
}

/// Posts `body`, request `id` (a `server/discover` when `discover`), to `target`.
pub(crate) async fn send(
    client: &reqwest::Client,
    target: &Target,
    body: impl Into<reqwest::Body>,
    id: RequestId,
    discover: bool,
    limits: StreamableHttpResponseLimits,
) -> Received {
    let posting = client
        .post(target.url.clone())
        .headers(target.headers.clone())
        .body(body)
        .send();
    let response = match posting.await {
        Ok(response) => response,
        Err(e) => return other(Err(StreamableHttpError::Client(e))),
    };
    let status = response.status();
    let headers = response.headers();
    match refused(status, headers) {
        Ok(Some(refusal)) | Err(refusal) => return other(Err(refusal)),
        Ok(None) => {}
    }
    if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
        return other(Ok(StreamableHttpPostResponse::Accepted));
    }
    let attached = target.attached;
    if status == StatusCode::NOT_FOUND && attached {
        return other(Err(StreamableHttpError::SessionExpired));
    }
    let session = headers
        .get(SESSION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let content_type = headers.get(CONTENT_TYPE);
    let is = |essence: &str| {
        content_type
            .and_then(|ct| ct.to_str().ok())
            .is_some_and(|ct| media_type(ct, essence))
    };
    let (json, sse) = (is("application/json"), is("text/event-stream"));
    let content_type =
        || content_type.map(|ct| String::from_utf8_lossy(ct.as_bytes()).into_owned());
    if !status.is_success() {
        // A legacy server's refusal of discovery, before any session: rmcp's fallback.
        let fallback = (discover && !attached).then_some(id.clone());
        let posted = PostedRequest {
            id,
            attached,
            fallback,
        };
        return other(failed(response, json, session, posted, limits).await);
    }
    if sse {
        let events = bounded(response, limits.max_sse_event_size);
        return Received::Events(events, session);
    }
    if !json {
        let unexpected = StreamableHttpError::UnexpectedContentType(content_type());
        return other(Err(unexpected));
    }
    let body = match whole(response, limits.max_json_response_size).await {
        Ok(body) => body,
        Err(e) => return other(Err(e)),
    };
    match serde_json::from_slice::<Value>(&body) {
        Ok(answer) => Received::Json(answer, session),
        Err(e) => {
            let unexpected = unexpected(format!("the answer is not JSON: {e}"));
            other(Err(unexpected))
        }
    }
}

fn other(answer: PostAnswer) -> Received {
    Received::Other(Box::new(answer))
}

/// What a failed POST asked: its request's id, whether it named a session, and for a
/// `server/discover` posted before any session, its id again (`fallback`).
struct PostedRequest {
    id: RequestId,
    attached: bool,
    fallback: Option<RequestId>,
}

/// What a POST that failed comes back as: the JSON-RPC error it carries, as the answer to
/// the request where it names none, else its failure (a rate limit or a server's failure
/// as such, anything else with the start of its body). A session the upstream no longer
/// knows, told with `400` and an error naming no request (the TypeScript SDK's examples,
/// server-everything among them, after a restart: "Bad Request: No valid session ID
/// provided"), is read as `404` is: rmcp's client opens a new session, as the client did,
/// and posts the request again (it was not served). For a `fallback`, a client error (but
/// 401 and 403) is an error answer to it, as rmcp's lifecycle reads a legacy server's
/// refusal.
async fn failed(
    response: reqwest::Response,
    json: bool,
    session: Option<String>,
    posted: PostedRequest,
    limits: StreamableHttpResponseLimits,
) -> PostAnswer {
    let PostedRequest {
        id,
        attached,
        fallback,
    } = posted;
    let status = response.status();
    let authorization = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
    let fallback = fallback.filter(|_| status.is_client_error() && !authorization);
    let failure = failure(status, response.headers());
    match failure {
        Some(failure) if status == StatusCode::TOO_MANY_REQUESTS || !json => {
            return Err(failure.into());
        }
        _ => {}
    }
    let shown = if json && !authorization {
        let body = match whole(response, limits.max_json_response_size).await {
            Ok(body) => body,
            Err(e) => return Err(failure.map_or(e, Into::into)),
        };
        if let Ok(JsonRpcMessage::Error(mut error)) =
            serde_json::from_slice::<ServerJsonRpcMessage>(&body)
        {
            let lost = status == StatusCode::BAD_REQUEST
                && attached
                && error.id.is_none()
                && error.error.message.to_ascii_lowercase().contains("session");
            if lost {
                return Err(StreamableHttpError::SessionExpired);
            }
            return Ok(match fallback {
                Some(id) => answer_to(id, error.error),
                None => {
                    error.id.get_or_insert(id);
                    StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), session)
                }
            });
        }
        let shown = &body[..body.len().min(limits.max_error_response_size)];
        String::from_utf8_lossy(shown).into_owned()
    } else {
        prefix(response, limits.max_error_response_size).await
    };
    if let Some(id) = fallback {
        let refused = format!("server/discover rejected with HTTP {status}: {shown}");
        return Ok(answer_to(id, ErrorData::invalid_request(refused, None)));
    }
    Err(failure.map_or_else(|| unexpected(format!("HTTP {status}: {shown}")), Into::into))
}

/// `error` as the answer to request `id`.
fn answer_to(id: RequestId, error: ErrorData) -> StreamableHttpPostResponse {
    StreamableHttpPostResponse::Json(ServerJsonRpcMessage::error(error, Some(id)), None)
}

/// A 401 or 403 with a challenge: the error that asks for (more) authorization.
fn refused(
    status: StatusCode,
    headers: &HeaderMap,
) -> Result<Option<StreamableHttpError<reqwest::Error>>, StreamableHttpError<reqwest::Error>> {
    let challenge = match (status, headers.get(WWW_AUTHENTICATE)) {
        (StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN, Some(challenge)) => challenge,
        _ => return Ok(None),
    };
    let challenge = challenge
        .to_str()
        .map_err(|_| unexpected("invalid www-authenticate header value".into()))?
        .to_owned();
    Ok(Some(if status == StatusCode::UNAUTHORIZED {
        StreamableHttpError::AuthRequired(AuthRequiredError::new(challenge))
    } else {
        // The gateway asks for no scope: it holds the credential it was given.
        StreamableHttpError::InsufficientScope(InsufficientScopeError::new(challenge, None))
    }))
}

/// A rate limit or a server failure, with its `Retry-After`, as rmcp's client reports it.
fn failure(status: StatusCode, headers: &HeaderMap) -> Option<HttpStatusError> {
    if status != StatusCode::TOO_MANY_REQUESTS && !status.is_server_error() {
        return None;
    }
    let retry_after = headers
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    Some(HttpStatusError::new(status.as_u16(), retry_after))
}

fn unexpected(what: String) -> StreamableHttpError<reqwest::Error> {
    StreamableHttpError::UnexpectedServerResponse(Cow::Owned(what))
}

/// Whether a `Content-Type` is `essence` (parameters and case aside).
fn media_type(content_type: &str, essence: &str) -> bool {
    let found = content_type.split(';').next().unwrap_or_default();
    found.trim().eq_ignore_ascii_case(essence)
}

/// The whole body, when it is at most `limit` bytes.
async fn whole(
    mut response: reqwest::Response,
    limit: usize,
) -> Result<Vec<u8>, StreamableHttpError<reqwest::Error>> {
    let too_large = || StreamableHttpError::ResponseBodyTooLarge { max_size: limit };
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(StreamableHttpError::Client)?
    {
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The first `limit` bytes of the body (or less: what could be read), as text.
async fn prefix(mut response: reqwest::Response, limit: usize) -> String {
    let mut body = Vec::new();
    while body.len() < limit
        && let Ok(Some(chunk)) = response.chunk().await
    {
        body.extend_from_slice(&chunk[..chunk.len().min(limit - body.len())]);
    }
    String::from_utf8_lossy(&body).into_owned()
}

#[cfg(test)]
mod tests;
