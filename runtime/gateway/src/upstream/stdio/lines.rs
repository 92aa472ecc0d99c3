//! A command upstream's stdio (or a legacy HTTP+SSE upstream's, made lines by
//! `legacy_sse`), one JSON-RPC message per line, parsed once, read into rmcp's
//! types (an answer as the result of the request it answers: `read`) and also kept as
//! written (`verbatim::store`), for the gateway to patch back in what the types could not
//! hold. An answer to a request sent past rmcp's client loop goes to that request instead
//! (`Divert`, which the lane implements: `upstream::lane::stdio`).

use crate::upstream::read::AwaitingAnswers;
use crate::upstream::verbatim::notifications;
use crate::upstream::verbatim::store::Verbatim;
use rmcp::model::JsonRpcMessage;
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// Where a line transport reads the upstream's messages from: a command's stdout, or a
/// legacy HTTP+SSE upstream's events (`legacy_sse`).
pub(crate) type ByteStream = Box<dyn tokio::io::AsyncRead + Send + Unpin>;

/// Where a line transport's messages go: a command's stdin, or a legacy HTTP+SSE
/// upstream's POSTs (`legacy_sse`).
pub(crate) type Writer = Box<dyn tokio::io::AsyncWrite + Send + Unpin>;

/// The writer a line transport writes to, shared with its lane.
pub(crate) type Stdin = Arc<tokio::sync::Mutex<Writer>>;

/// Who takes the answers to requests sent past rmcp's client loop (the lane): each message
/// read is offered to it first.
pub(crate) trait Divert: Send + Sync {
    /// `None` when `message` (as written) answers one of its requests, taken; else
    /// `message` back.
    fn answer(&self, message: Value) -> Option<Value>;
    /// The upstream's output ended: every request it waits on fails.
    fn close(&self);
}

/// The transport: lines in from the upstream's output, lines out to its input.
pub(crate) struct StdioLines {
    lines: tokio::io::Lines<BufReader<ByteStream>>,
    stdin: Stdin,
    written: Verbatim,
    in_flight: AwaitingAnswers,
    /// The requests sent past rmcp, whose answers go straight to them (the lane), if any.
    divert: Option<Box<dyn Divert>>,
}

impl StdioLines {
    pub(crate) fn new(stdout: ByteStream, stdin: Writer, written: Verbatim) -> Self {
        StdioLines {
            lines: BufReader::new(stdout).lines(),
            stdin: Arc::new(tokio::sync::Mutex::new(stdin)),
            written,
            in_flight: AwaitingAnswers::default(),
            divert: None,
        }
    }

    /// The writer it writes to, for a lane to write to as well.
    pub(crate) fn stdin(&self) -> Stdin {
        self.stdin.clone()
    }

    /// Offers every message read to `divert` first.
    pub(crate) fn divert(&mut self, divert: Box<dyn Divert>) {
        self.divert = Some(divert);
    }

    /// The requests sent past rmcp fail now: the upstream's output ended, or rmcp's loop.
    fn close_divert(&self) {
        if let Some(divert) = &self.divert {
            divert.close();
        }
    }
}

/// Requests still waiting on the lane when rmcp's loop ends fail then, not at their deadline.
impl Drop for StdioLines {
    fn drop(&mut self) {
        self.close_divert();
    }
}

impl Transport<RoleClient> for StdioLines {
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
            let Some(line) = self.lines.next_line().await.ok().flatten() else {
                self.close_divert();
                return None;
            };
            if line.trim().is_empty() {
                continue;
            }
            let read = match serde_json::from_str::<Value>(&line) {
                Ok(written) => {
                    // An answer to a request sent on the lane goes to it, read there.
                    let written = match &self.divert {
                        Some(divert) => divert.answer(written),
                        None => Some(written),
                    };
                    let Some(written) = written else {
                        continue;
                    };
                    self.in_flight.read(&written).map(|read| (read, written))
                }
                Err(error) => Err(error),
            };
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
                JsonRpcMessage::Notification(_) if notifications::passed_on(&message) => {
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
