//! A command upstream's forwarded requests, written to its stdin by the task that forwards
//! them and answered straight to that task from where its stdout is read ([`StdioLines`]), past
//! rmcp's client loop: no hop to the loop's task and back to send (a channel, a task spawned
//! per request to write it), and one hop, not two, for a request from another thread than
//! the loop's (`--threads`). Only for a connection that began with `initialize`: a
//! 2026-07-28 request carries the client's metadata rmcp's peer sets, and its sampling or
//! elicitation must be associated with a request rmcp knows in flight.
//!
//! A lane's request ids and progress tokens are numbers from 2^40 up, where rmcp's own
//! (counted from 0 in 32 bits) never reach.

use crate::upstream::read::{self, ResultKind};
use crate::upstream::stdio::lines::{Divert, Stdin, StdioLines};
use mcp_tailor_core::seam::Locked;
use rmcp::model::{
    ClientRequest, GetMeta, JsonRpcMessage, ProgressToken, RequestId, RequestMetaObject,
};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::io::AsyncWriteExt;
use tokio::sync::oneshot;

/// The first id and progress token a lane gives.
const FIRST: i64 = 1 << 40;

/// The request ids and progress tokens a lane gives: numbers from 2^40 up, where rmcp's own
/// (counted from 0 in 32 bits) never reach; no two alike.
pub(crate) struct Numbers(AtomicI64);

impl Default for Numbers {
    fn default() -> Self {
        Numbers(AtomicI64::new(FIRST))
    }
}

impl Numbers {
    /// A request id no other request of this upstream has.
    pub(crate) fn id(&self) -> RequestId {
        RequestId::Number(self.0.fetch_add(1, Ordering::Relaxed))
    }

    /// A progress token no other request of this upstream has.
    pub(crate) fn progress_token(&self) -> ProgressToken {
        ProgressToken(self.id())
    }
}

/// `request` as the JSON-RPC request `id` a lane writes, with `meta` as its `_meta` (the
/// client's, its progress token replaced by `progress`, or removed without one); and what
/// it asks, for its answer to be read as.
pub(crate) fn written(
    mut request: ClientRequest,
    mut meta: RequestMetaObject,
    progress: Option<ProgressToken>,
    id: RequestId,
) -> serde_json::Result<(Vec<u8>, Option<ResultKind>)> {
    meta.0.shift_remove("progressToken");
    if let Some(token) = progress {
        meta.set_progress_token(token);
    }
    *request.get_meta_mut() = meta;
    let asked = ResultKind::of(&request);
    let message: TxJsonRpcMessage<RoleClient> = JsonRpcMessage::request(request, id);
    Ok((serde_json::to_vec(&message)?, asked))
}

/// One command upstream's lane: its stdin, and who waits for which answer.
#[derive(Clone)]
pub(crate) struct Lane(Arc<LaneState>);

struct LaneState {
    stdin: Stdin,
    /// Each request in flight's waiter, by id; `None` once the upstream's stdout ended.
    waiting: Mutex<Option<HashMap<RequestId, oneshot::Sender<Value>>>>,
    numbers: Numbers,
}

/// Why a request sent on a lane has no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LaneError {
    /// The upstream's stdout ended, or writing to its stdin failed.
    #[error("the upstream closed the connection")]
    Closed,
    /// The request could not be written as JSON.
    #[error("the request cannot be written: {0}")]
    Unwritable(#[from] serde_json::Error),
    /// The answer is no MCP answer.
    #[error("the upstream's answer is no MCP answer: {0}")]
    Unreadable(serde_json::Error),
}

/// A request sent on a lane, until its answer comes (dropped before: forgotten).
pub(crate) struct Sent {
    lane: Lane,
    /// Its id upstream.
    pub(crate) id: RequestId,
    asked: Option<ResultKind>,
    answer: oneshot::Receiver<Value>,
}

impl Lane {
    /// The lane of `lines`: requests sent on it are written to its stdin, and their answers
    /// taken from what it reads.
    pub(crate) fn on(lines: &mut StdioLines) -> Lane {
        let lane = Lane(Arc::new(LaneState {
            stdin: lines.stdin(),
            waiting: Mutex::new(Some(HashMap::new())),
            numbers: Numbers::default(),
        }));
        lines.divert(Box::new(lane.clone()));
        lane
    }

    fn waiting(&self) -> MutexGuard<'_, Option<HashMap<RequestId, oneshot::Sender<Value>>>> {
        self.0.waiting.locked()
    }

    /// A progress token no other request of this upstream has.
    pub(crate) fn progress_token(&self) -> ProgressToken {
        self.0.numbers.progress_token()
    }

    /// Sends `request` with `meta` as its `_meta` (the client's, its progress token
    /// replaced by `progress`, or removed without one) and waits for nothing: the answer
    /// is [`Sent::answer`].
    pub(crate) async fn send(
        &self,
        request: ClientRequest,
        meta: RequestMetaObject,
        progress: Option<ProgressToken>,
    ) -> Result<Sent, LaneError> {
        let id = self.0.numbers.id();
        let (mut line, asked) = written(request, meta, progress, id.clone())?;
        line.push(b'\n');
        let (waiter, answer) = oneshot::channel();
        self.waiting()
            .as_mut()
            .ok_or(LaneError::Closed)?
            .insert(id.clone(), waiter);
        let sent = Sent {
            lane: self.clone(),
            id,
            asked,
            answer,
        };
        write_line(self.0.stdin.clone(), line)
            .await
            .map_err(|_| LaneError::Closed)?;
        Ok(sent)
    }
}

impl Divert for Lane {
    /// Hands `message` (as written) to the request it answers when that request was sent
    /// on this lane (`None`; an answer to one no longer waiting is dropped, as rmcp drops an
    /// answer to a request it cancelled); else gives it back.
    fn answer(&self, message: Value) -> Option<Value> {
        let Some(id) = answer_id(&message) else {
            return Some(message);
        };
        let waiter = self
            .waiting()
            .as_mut()
            .and_then(|waiting| waiting.remove(&id));
        if let Some(waiter) = waiter {
            let _ = waiter.send(message);
        }
        None
    }

    /// The upstream's stdout ended: every request waiting fails, and sending fails too.
    fn close(&self) {
        self.waiting().take();
    }
}

/// Writes `line` whole, even when its sender stops waiting (a line cut short would garble
/// every line after it): here while the pipe takes it at once, as it mostly does, else the
/// rest by a task of its own. (A child's stdin is unbuffered: nothing to flush.)
async fn write_line(stdin: Stdin, line: Vec<u8>) -> std::io::Result<()> {
    use std::task::Poll;
    use tokio::io::AsyncWrite;
    let mut stdin = stdin.lock_owned().await;
    let mut at = 0;
    let at_once = std::future::poll_fn(|cx| {
        while at < line.len() {
            match std::pin::Pin::new(&mut *stdin).poll_write(cx, &line[at..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(written)) => at += written,
                Poll::Ready(Err(error)) => return Poll::Ready(Err(error)),
                Poll::Pending => return Poll::Ready(Ok(false)),
            }
        }
        Poll::Ready(Ok(true))
    });
    if at_once.await? {
        return Ok(());
    }
    let rest = tokio::spawn(async move { stdin.write_all(&line[at..]).await });
    rest.await.map_err(std::io::Error::other)?
}

/// The id of `message` when it is a JSON-RPC 2.0 answer (a result or an error) whose id
/// only a lane gives.
fn answer_id(message: &Value) -> Option<RequestId> {
    let id = message.get("id")?.as_i64().filter(|id| *id >= FIRST)?;
    let answer = message.get("result").is_some() || message.get("error").is_some();
    let version = message.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
    (answer && version && message.get("method").is_none()).then_some(RequestId::Number(id))
}

impl Sent {
    /// The answer as rmcp's types read it (a result as this request's own result type)
    /// and as written.
    pub(crate) async fn answer(
        &mut self,
    ) -> Result<(RxJsonRpcMessage<RoleClient>, Value), LaneError> {
        let written = (&mut self.answer).await.map_err(|_| LaneError::Closed)?;
        let asked = self.asked;
        let read = read::read(&written, |_| asked).map_err(LaneError::Unreadable)?;
        Ok((read, written))
    }
}

impl Drop for Sent {
    fn drop(&mut self) {
        if let Some(waiting) = self.lane.waiting().as_mut() {
            waiting.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests;
