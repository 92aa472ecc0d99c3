//! A command upstream's stdio, one JSON-RPC message per line, parsed once, read into rmcp's
//! types (an answer as the result of the request it answers: `read`) and also kept as
//! written ([`Written`], which the HTTP upstream's client fills too): every answer's
//! result, by request id, for the gateway to patch what the types could not hold back in
//! (`server::verbatim`), and the notifications it passes on as written (`as_written`).

use super::as_written;
use super::read::InFlight;
use rmcp::model::{JsonRpcMessage, RequestId};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};

/// How many answers are kept as written until the gateway takes them (an answer nobody
/// takes — the handshake's, a page rmcp read itself — is forgotten past this).
const KEPT: usize = 1_024;

/// The upstream's answers as written, by request id.
#[derive(Clone, Default)]
pub(super) struct Written(Arc<Mutex<Answers>>);

#[derive(Default)]
struct Answers {
    by_id: HashMap<RequestId, Value>,
    order: VecDeque<RequestId>,
    /// The first answer: the handshake's.
    handshake: Option<Value>,
    /// Notifications' params as written, by their typed form's bytes (`as_written`).
    notifications: HashMap<Vec<u8>, VecDeque<Value>>,
    /// How many params `notifications` holds.
    noted: usize,
}

impl Written {
    /// Keeps `result` as the answer to `id`.
    pub(super) fn keep(&self, id: RequestId, result: Value) {
        let mut answers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if answers.handshake.is_none() {
            answers.handshake = Some(result.clone());
        }
        if answers.order.len() == KEPT
            && let Some(oldest) = answers.order.pop_front()
        {
            answers.by_id.remove(&oldest);
        }
        answers.order.push_back(id.clone());
        answers.by_id.insert(id, result);
    }

    /// The handshake's result (`initialize`), as written.
    pub(super) fn handshake(&self) -> Option<Value> {
        let answers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        answers.handshake.clone()
    }

    /// Keeps `raw`'s params as written when it is a notification passed on so whose typed
    /// form, `typed`, would write them otherwise (`as_written`).
    pub(super) fn keep_notification(&self, raw: &Value, typed: &RxJsonRpcMessage<RoleClient>) {
        let Some((key, params)) = as_written::kept(raw, typed) else {
            return;
        };
        let mut answers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // Never taken (a notification rmcp could not read): forgotten past this.
        if answers.noted == KEPT {
            answers.notifications.clear();
            answers.noted = 0;
        }
        answers.noted += 1;
        answers
            .notifications
            .entry(key)
            .or_default()
            .push_back(params);
    }

    /// The params as written of the notification rmcp read as `typed`, when kept (once).
    pub(super) fn take_notification(&self, typed: &RxJsonRpcMessage<RoleClient>) -> Option<Value> {
        let mut answers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if answers.noted == 0 {
            return None;
        }
        let key = as_written::key(typed)?;
        let kept = answers.notifications.get_mut(&key)?;
        let params = kept.pop_front();
        if kept.is_empty() {
            answers.notifications.remove(&key);
        }
        answers.noted -= usize::from(params.is_some());
        params
    }

    /// The result of the answer to `id`, as written (once).
    pub(super) fn take(&self, id: &RequestId) -> Option<Value> {
        let mut answers = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let result = answers.by_id.remove(id)?;
        answers.order.retain(|kept| kept != id);
        Some(result)
    }
}

/// The transport: lines in from the child's stdout, lines out to its stdin.
pub(super) struct Lines {
    lines: tokio::io::Lines<BufReader<ChildStdout>>,
    stdin: Arc<tokio::sync::Mutex<ChildStdin>>,
    written: Written,
    in_flight: InFlight,
}

impl Lines {
    pub(super) fn new(stdout: ChildStdout, stdin: ChildStdin, written: Written) -> Self {
        Lines {
            lines: BufReader::new(stdout).lines(),
            stdin: Arc::new(tokio::sync::Mutex::new(stdin)),
            written,
            in_flight: InFlight::default(),
        }
    }
}

impl Transport<RoleClient> for Lines {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let stdin = self.stdin.clone();
        self.in_flight.sent(&item);
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            let mut stdin = stdin.lock().await;
            stdin.write_all(&line).await?;
            stdin.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let line = self.lines.next_line().await.ok()??;
            if line.trim().is_empty() {
                continue;
            }
            let read = serde_json::from_str::<Value>(&line)
                .and_then(|written| Ok((self.in_flight.read(&written)?, written)));
            let (message, mut written) = match read {
                Ok(read) => read,
                Err(error) => {
                    tracing::warn!("the upstream wrote a line that is no MCP message: {error}");
                    continue;
                }
            };
            match &message {
                JsonRpcMessage::Response(response) => {
                    if let Some(result) = written.get_mut("result") {
                        self.written.keep(response.id.clone(), result.take());
                    }
                }
                JsonRpcMessage::Notification(_) if as_written::passed_on(&message) => {
                    self.written.keep_notification(&written, &message);
                }
                _ => {}
            }
            return Some(message);
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.stdin.lock().await.shutdown().await
    }
}
