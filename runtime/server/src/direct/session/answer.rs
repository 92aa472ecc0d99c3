//! A direct request's answer: its handler run as a task of its own, or — a call — polled by
//! the stream that writes its events (the connection's task; a task of its own once that
//! stream is gone before the answer); the events those rmcp would write — a priming event
//! with an id (when the session's streams have one), then the answer — and the answer kept
//! until a stream delivers it, so a client whose connection broke can resume it from the
//! priming event's id (`GET` with `Last-Event-ID`), as from rmcp's.

use super::Direct;
use crate::call::context::DirectRequest;
use futures::future::{BoxFuture, FutureExt as _, Shared};
use mcp_tailor_core::seam::Locked;
use rmcp::ErrorData;
use rmcp::model::{
    ClientRequest, GetExtensions, GetMeta, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What a direct request's event ids start with (rmcp's read `index/stream`).
const PREFIX: &str = "direct-";

/// Answers kept for a session at most (calls whose client went away and never resumed):
/// past it, the oldest goes.
const KEPT: usize = 64;

/// The answer to come, for every stream that delivers it.
type Coming = Shared<BoxFuture<'static, Arc<ServerJsonRpcMessage>>>;

/// A direct request of a session, until a stream delivered its answer.
pub(super) struct DirectCall {
    /// Its number in the session: its events' ids.
    seq: u64,
    /// Its id, which a cancellation names.
    pub(super) id: RequestId,
    /// Cancels its handler.
    pub(super) token: CancellationToken,
    answer: Coming,
}

/// Starts `request` of `direct`'s session on its handler, as request `id`: the stream of
/// its events, a priming event of `retry` first when there is one.
pub(super) fn start(
    direct: Arc<Direct>,
    retry: Option<Duration>,
    id: RequestId,
    mut request: ClientRequest,
) -> DirectEvents {
    let token = CancellationToken::new();
    let mut context = RequestContext::new(id.clone(), direct.peer.clone());
    context.ct = token.child_token();
    std::mem::swap(&mut context.meta, request.get_meta_mut());
    std::mem::swap(&mut context.extensions, request.extensions_mut());
    context.extensions.insert(DirectRequest);
    // A call is polled by the stream that writes its answer (when it waits on a tool or
    // an upstream, its answer wakes one task, not two); any other request runs as a task of
    // its own, as rmcp runs each: in the proxies benchmark a listing answered from memory
    // cost about a seventh less CPU so, a call about a fifth more (BENCHMARKS.md §9).
    let inline = matches!(request, ClientRequest::CallToolRequest(_));
    let handled = direct.handler.handle(request, context);
    let answering = id.clone();
    let answer = async move {
        let failed = || {
            Err(ErrorData::internal_error(
                "the request's handler failed",
                None,
            ))
        };
        let result = match handled {
            Some(handling) if inline => std::panic::AssertUnwindSafe(handling)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| failed()),
            Some(handling) => tokio::spawn(handling).await.unwrap_or_else(|_| failed()),
            // (Ended since the directory looked.)
            None => Err(ErrorData::invalid_request("the session has ended", None)),
        };
        Arc::new(match result {
            Ok(result) => JsonRpcMessage::response(result, answering),
            Err(error) => JsonRpcMessage::error(error, Some(answering)),
        })
    };
    let answer = answer.boxed().shared();
    let seq = direct.seq.fetch_add(1, Ordering::Relaxed);
    {
        let mut calls = direct.calls.locked();
        if calls.len() >= KEPT {
            calls.remove(0);
        }
        calls.push(DirectCall {
            seq,
            id,
            token,
            answer: answer.clone(),
        });
    }
    let priming = retry.map(|retry| ServerSseMessage::priming(format!("{PREFIX}{seq}"), retry));
    DirectEvents {
        direct,
        seq,
        priming,
        answer: Some(answer),
    }
}

/// The stream resuming after event `last` of one of `direct`'s requests: its answer (if the
/// client had not had it), or nothing; `None` when `last` is no direct request's event, or
/// one whose answer went.
pub(super) fn resume(direct: Arc<Direct>, last: &str) -> Option<DirectEvents> {
    let seq = last.strip_prefix(PREFIX)?;
    let (seq, answered) = match seq.strip_suffix(".answer") {
        Some(seq) => (seq, true),
        None => (seq, false),
    };
    let seq: u64 = seq.parse().ok()?;
    let answer = match answered {
        true => None,
        false => Some(
            direct
                .calls
                .locked()
                .iter()
                .find(|c| c.seq == seq)?
                .answer
                .clone(),
        ),
    };
    Some(DirectEvents {
        direct,
        seq,
        priming: None,
        answer,
    })
}

/// A direct request's events: its priming event, then its answer once its handler gave it.
pub(crate) struct DirectEvents {
    direct: Arc<Direct>,
    seq: u64,
    priming: Option<ServerSseMessage>,
    answer: Option<Coming>,
}

impl Drop for DirectEvents {
    /// A stream gone before the answer: the request runs on by itself, its answer kept
    /// for a client that resumes.
    fn drop(&mut self) {
        if let Some(answer) = self.answer.take()
            && answer.peek().is_none()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(answer.map(drop));
        }
    }
}

impl futures::Stream for DirectEvents {
    type Item = ServerSseMessage;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ServerSseMessage>> {
        let this = self.get_mut();
        if let Some(priming) = this.priming.take() {
            return Poll::Ready(Some(priming));
        }
        let Some(answer) = &mut this.answer else {
            return Poll::Ready(None);
        };
        let message = std::task::ready!(answer.poll_unpin(cx));
        this.answer = None;
        // Delivered: no longer kept.
        this.direct.calls.locked().retain(|c| c.seq != this.seq);
        let mut event = ServerSseMessage::default();
        event.event_id = Some(format!("{PREFIX}{}.answer", this.seq));
        event.message = Some(message);
        Poll::Ready(Some(event))
    }
}
