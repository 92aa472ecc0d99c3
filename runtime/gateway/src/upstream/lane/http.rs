//! A streamable HTTP upstream's forwarded requests, posted by the task that forwards them
//! and answered there — one JSON body, or the request's own event stream, read as it comes
//! and resumed as rmcp's client resumes it — past rmcp's client worker: no hop to the
//! worker's task, none to a task per answer stream, none back through rmcp's service loop,
//! and no event read into rmcp's types by trying one type after another (the answer is read
//! as what was asked, `read`).
//!
//! rmcp keeps the session: its handshake, its GET stream, its end, and a new one where the
//! upstream lost it — a request refused so asks rmcp for one (a `ping`, which rmcp posts in
//! the lost session and opens a new one for) and is posted again, once. The lane posts where
//! rmcp last posted (`LastTarget`). What else comes on a request's stream goes on as rmcp
//! would have read it there: its progress to the request's own queue as it is read (before
//! the answer), the upstream's requests of the client (marked with the request they came
//! during) and its other notifications to rmcp (`Inbound`). Only for a session begun with
//! `initialize`, as the command's lane (`stdio`), whose numbers it shares.

use crate::upstream::http::event_size::too_large;
use crate::upstream::http::post::{Events, LastTarget, Received, Target, send};
use crate::upstream::inbound::ProgressRoutes;
use crate::upstream::lane::stdio::{Numbers, written};
use crate::upstream::read::{ResultKind, read};
use crate::upstream::verbatim::notifications;
use crate::upstream::verbatim::store::Verbatim;
use futures::{FutureExt as _, StreamExt as _};
use http::StatusCode;
use rmcp::model::{
    ClientRequest, GetExtensions, JsonRpcMessage, PingRequest, ProgressToken, RequestId,
    RequestMetaObject,
};
use rmcp::service::{InboundStreamOrigin, Peer, RoleClient, RxJsonRpcMessage};
use rmcp::transport::common::client_side_sse::SseRetryPolicy;
use rmcp::transport::streamable_http_client::{
    StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What the lane reads that is rmcp's to read, in the order it was read (`Inbound`).
pub(crate) type ToRmcp = mpsc::UnboundedSender<RxJsonRpcMessage<RoleClient>>;

/// How long the rest of an answered request's stream is read, so its connection can be
/// used again (rmcp's client waits as long).
const DRAIN: Duration = Duration::from_millis(50);

/// One streamable HTTP upstream session's lane.
#[derive(Clone)]
pub(crate) struct HttpLane(Arc<HttpLaneState>);

struct HttpLaneState {
    client: reqwest::Client,
    last: LastTarget,
    to_rmcp: ToRmcp,
    progress: ProgressRoutes,
    written: Verbatim,
    numbers: Numbers,
    resumption: Arc<dyn SseRetryPolicy>,
    limits: StreamableHttpResponseLimits,
}

/// A request ready to post, its answer to come (`HttpLane::ask`).
pub(crate) struct Asking {
    /// Its id upstream.
    pub(crate) id: RequestId,
    asked: Option<ResultKind>,
    body: bytes::Bytes,
}

/// An answer as rmcp's types read it, and as written where it was read here.
pub(crate) type LaneAnswer = Result<(RxJsonRpcMessage<RoleClient>, Option<Value>), String>;

impl HttpLane {
    /// A lane posting with `client` where rmcp last posted (`last`); the other messages of
    /// a request's stream go to `to_rmcp`, its progress to `progress`, answers to other
    /// requests into `written`; a broken stream is resumed as `resumption` says.
    pub(crate) fn new(
        client: reqwest::Client,
        last: LastTarget,
        to_rmcp: ToRmcp,
        progress: ProgressRoutes,
        written: Verbatim,
        resumption: Arc<dyn SseRetryPolicy>,
    ) -> Self {
        HttpLane(Arc::new(HttpLaneState {
            client,
            last,
            to_rmcp,
            progress,
            written,
            numbers: Numbers::default(),
            resumption,
            limits: StreamableHttpResponseLimits::default(),
        }))
    }

    /// A progress token no other request of this upstream has.
    pub(crate) fn progress_token(&self) -> ProgressToken {
        self.0.numbers.progress_token()
    }

    /// `request` with `meta` as its `_meta` (the client's, its progress token replaced by
    /// `progress`, or removed without one), ready to post.
    pub(crate) fn prepare(
        &self,
        request: ClientRequest,
        meta: RequestMetaObject,
        progress: Option<ProgressToken>,
    ) -> serde_json::Result<Asking> {
        let id = self.0.numbers.id();
        let (body, asked) = written(request, meta, progress, id.clone())?;
        Ok(Asking {
            id,
            asked,
            body: body.into(),
        })
    }

    /// Posts `asking` and reads its answer; where the upstream lost the session, has
    /// `reopen` open one (`by_rmcp`) and posts it there. Why it has none, else.
    pub(crate) async fn ask<F>(&self, asking: Asking, reopen: impl FnOnce() -> F) -> LaneAnswer
    where
        F: Future<Output = Result<(), String>>,
    {
        let mut reopen = Some(reopen);
        let shared = &self.0;
        loop {
            let target = shared
                .last
                .get()
                .ok_or("the upstream session is not open")?;
            let body = asking.body.clone();
            let received = send(
                &shared.client,
                &target,
                body,
                asking.id.clone(),
                false,
                shared.limits,
            );
            match received.await {
                Received::Json(answer, _) => {
                    let read = read(&answer, |_| asking.asked).map_err(not_json_rpc)?;
                    return Ok((read, Some(answer)));
                }
                Received::Events(events, _) => return self.answer(&asking, events, &target).await,
                Received::Other(other) => match *other {
                    // An error answer, made of an HTTP error.
                    Ok(StreamableHttpPostResponse::Json(message, _)) => return Ok((message, None)),
                    Ok(_) => {
                        let accepted = "the upstream accepted the request without answering it";
                        return Err(accepted.into());
                    }
                    Err(StreamableHttpError::SessionExpired) => match reopen.take() {
                        Some(reopen) => reopen().await?,
                        None => return Err("the upstream lost the session again".into()),
                    },
                    Err(error) => return Err(crate::upstream::cause::http_cause(&error)),
                },
            }
        }
    }

    /// The answer to `asking` on its event stream `events` (posted to `target`): each other
    /// message passed on as it is read; a stream that breaks or ends before the answer
    /// resumed from its last event, as the resumption policy allows.
    async fn answer(&self, asking: &Asking, events: Events, target: &Target) -> LaneAnswer {
        let mut stream = LaneStream {
            events,
            last_event: None,
            retry: None,
        };
        loop {
            let event = match stream.events.next().await {
                Some(Ok(event)) => event,
                Some(Err(error)) if too_large(&error) => return Err(error.to_string()),
                broken => {
                    let ended = broken.is_none();
                    stream.events = self.resume(&mut stream, target, ended).await?;
                    continue;
                }
            };
            if let Some(retry) = event.retry {
                stream.retry = Some(Duration::from_millis(retry));
            }
            if event.id.is_some() {
                stream.last_event = event.id;
            }
            // A message is an event without a type, or of type `message`; others (and the
            // priming event, which carries no data) say nothing to the lane.
            if !matches!(event.event.as_deref(), None | Some("" | "message")) {
                continue;
            }
            let Some(data) = event.data.filter(|data| !data.trim().is_empty()) else {
                continue;
            };
            let message = match serde_json::from_str::<Value>(&data) {
                Ok(message) => message,
                Err(error) => {
                    tracing::debug!("the upstream sent an event that is not JSON: {error}");
                    continue;
                }
            };
            if answers(&message, &asking.id) {
                let read = read(&message, |_| asking.asked).map_err(not_json_rpc)?;
                drain(stream.events);
                return Ok((read, Some(message)));
            }
            self.pass_on(message, &asking.id);
        }
    }

    /// The stream reopened from its last event (a GET with `Last-Event-ID`): at once after
    /// an error, after the upstream's `retry` (or the policy's first wait) after an end;
    /// each failed attempt waits the policy's next wait, until it says no more.
    async fn resume(
        &self,
        stream: &mut LaneStream,
        target: &Target,
        ended: bool,
    ) -> Result<Events, String> {
        let last_event = stream
            .last_event
            .clone()
            .ok_or("the upstream ended the answer's stream before answering")?;
        let policy = &self.0.resumption;
        let mut wait = match ended {
            true => stream.retry.take().or_else(|| policy.retry(0)),
            false => Some(Duration::ZERO),
        };
        let (mut attempts, mut failed) = (0, String::new());
        loop {
            let Some(interval) = wait else {
                return Err(format!(
                    "the upstream closed the connection (resuming the answer's stream: {failed})"
                ));
            };
            tokio::time::sleep(interval).await;
            match self.reopen(target, &last_event).await {
                Ok(events) => return Ok(events),
                Err(Reopened::Never(why)) => return Err(why),
                Err(Reopened::NotNow(why)) => failed = why,
            }
            attempts += 1;
            wait = policy
                .retry(attempts)
                .map(|interval| stream.retry.map_or(interval, |retry| retry.max(interval)));
        }
    }

    /// A GET of `target` from `last_event` on.
    async fn reopen(&self, target: &Target, last_event: &str) -> Result<Events, Reopened> {
        let getting = self
            .0
            .client
            .get(target.url().clone())
            .headers(target.stream_headers())
            .header("last-event-id", last_event)
            .send();
        let response = getting
            .await
            .map_err(|error| Reopened::NotNow(crate::upstream::cause::innermost(&error)))?;
        let status = response.status();
        // No stream to GET, or no credential for it: asking again changes nothing.
        if matches!(
            status,
            StatusCode::METHOD_NOT_ALLOWED | StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
        ) {
            return Err(Reopened::Never(format!(
                "the answer's stream could not be resumed: HTTP {status}"
            )));
        }
        if !status.is_success() {
            return Err(Reopened::NotNow(format!("HTTP {status}")));
        }
        Ok(crate::upstream::http::event_size::bounded(
            response,
            self.0.limits.max_sse_event_size,
        ))
    }

    /// `message` (as written), read on the stream of request `during` and not its answer,
    /// passed on as rmcp would have: progress to its request's queue, a request of the
    /// upstream marked as sent during `during`, a notification with its params as written
    /// where it is passed on so, an answer to another request kept as written; all but
    /// progress then read by rmcp.
    fn pass_on(&self, raw: Value, during: &RequestId) {
        let mut message = match read(&raw, |_| None) {
            Ok(message) => message,
            Err(error) => {
                tracing::warn!("the upstream sent a message that is no MCP message: {error}");
                return;
            }
        };
        match &mut message {
            JsonRpcMessage::Request(request) => {
                let origin = InboundStreamOrigin::OutboundRequest(during.clone());
                request.request.extensions_mut().insert(origin);
            }
            JsonRpcMessage::Notification(_) => {
                if let Some((_, params)) = notifications::kept(&raw, &message) {
                    notifications::attach(&mut message, params);
                }
            }
            JsonRpcMessage::Response(_) => {
                if let Value::Object(answer) = raw {
                    self.0.written.keep_answer(answer);
                }
            }
            JsonRpcMessage::Error(_) => {}
        }
        if let Some(message) = self.0.progress.route(message) {
            // Ended with the connection (rmcp reads no more): nobody to tell.
            let _ = self.0.to_rmcp.send(message);
        }
    }
}

/// Has rmcp open a new session where the upstream lost the one it had (`HttpLane::ask`):
/// rmcp's client opens one for a request refused so, then sends it — a `ping` here.
pub(crate) async fn by_rmcp(peer: Peer<RoleClient>) -> Result<(), String> {
    let ping = ClientRequest::PingRequest(PingRequest::default());
    match peer.send_request(ping).await {
        Ok(_) => Ok(()),
        Err(error) => Err(format!("the upstream lost the session: {error}")),
    }
}

/// An answer's event stream being read: its events, the last event's id, the upstream's
/// `retry`.
struct LaneStream {
    events: Events,
    last_event: Option<String>,
    retry: Option<Duration>,
}

/// Why a stream was not reopened: for now, or for good.
enum Reopened {
    NotNow(String),
    Never(String),
}

/// Whether `message` is the JSON-RPC answer (a result or an error) to `id`.
fn answers(message: &Value, id: &RequestId) -> bool {
    let answer = message.get("result").is_some() || message.get("error").is_some();
    let same = match (message.get("id"), id) {
        (Some(Value::Number(theirs)), RequestId::Number(ours)) => theirs.as_i64() == Some(*ours),
        (Some(Value::String(theirs)), RequestId::String(ours)) => **theirs == **ours,
        _ => false,
    };
    answer && same && message.get("method").is_none()
}

/// Reads the rest of an answered request's stream (what comes after the answer is dropped,
/// as rmcp drops it), so its connection can be used again: here what is already there,
/// the rest by a task of its own for at most [`DRAIN`].
fn drain(mut events: Events) {
    while let Some(next) = events.next().now_or_never() {
        if next.is_none() {
            return;
        }
    }
    tokio::spawn(async move {
        let rest = async { while events.next().await.is_some() {} };
        let _ = tokio::time::timeout(DRAIN, rest).await;
    });
}

fn not_json_rpc(error: serde_json::Error) -> String {
    format!("the upstream's answer is no MCP answer: {error}")
}

#[cfg(test)]
mod tests;
