//! A command upstream's stdio (or a legacy HTTP+SSE upstream's, made lines by
//! `legacy_sse`), one JSON-RPC message per line, parsed once, read into rmcp's
//! types (an answer as the result of the request it answers: `read`) and also kept as
//! written (`verbatim::store`), for the gateway to patch back in what the types could not
//! hold.

use crate::upstream::read::AwaitingAnswers;
use crate::upstream::stdio::lane::{Lane, Stdin, Writer};
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

/// The transport: lines in from the upstream's output, lines out to its input.
pub(crate) struct StdioLines {
    lines: tokio::io::Lines<BufReader<ByteStream>>,
    stdin: Stdin,
    written: Verbatim,
    in_flight: AwaitingAnswers,
    /// The requests sent past rmcp, whose answers go straight to them (`lane`).
    lane: Lane,
}

impl StdioLines {
    pub(crate) fn new(stdout: ByteStream, stdin: Writer, written: Verbatim) -> Self {
        let stdin = Arc::new(tokio::sync::Mutex::new(stdin));
        StdioLines {
            lines: BufReader::new(stdout).lines(),
            lane: Lane::new(stdin.clone()),
            stdin,
            written,
            in_flight: AwaitingAnswers::default(),
        }
    }

    /// Its lane: requests sent on it are answered past rmcp.
    pub(crate) fn lane(&self) -> Lane {
        self.lane.clone()
    }
}

/// Requests still waiting on the lane when rmcp's loop ends fail then, not at their deadline.
impl Drop for StdioLines {
    fn drop(&mut self) {
        self.lane.close();
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
                self.lane.close();
                return None;
            };
            if line.trim().is_empty() {
                continue;
            }
            let read = match serde_json::from_str::<Value>(&line) {
                // An answer to a request sent on the lane goes to it, read there.
                Ok(written) => match self.lane.answer(written) {
                    None => continue,
                    Some(written) => self.in_flight.read(&written).map(|read| (read, written)),
                },
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upstream::stdio::child::Child;
    use crate::upstream::stdio::lane::{Lane, LaneError};
    use rmcp::model::{
        CallToolRequestParams, ClientRequest, ProgressToken, Request, RequestId, RequestMetaObject,
        ServerResult,
    };
    use serde_json::json;

    /// An upstream that logs a line before each answer, answers a call with the request as
    /// it read it, a call of `late` (or `sleep`) after a while, and never a call of `hang`.
    const UPSTREAM: &str = r#"
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                      "params": {"level": "info", "data": "before"}}), flush=True)
    if request["params"]["name"] in ("late", "sleep"):
        time.sleep(0.2)
    if request["params"]["name"] != "hang":
        text = json.dumps(request)
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"],
                          "result": {"content": [{"type": "text", "text": text}]}}), flush=True)
"#;

    fn call(name: &str) -> ClientRequest {
        ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new(name.to_owned())))
    }

    /// The request as the upstream read it, from its answer.
    async fn as_read(lane: &Lane, meta: RequestMetaObject, token: Option<ProgressToken>) -> Value {
        let mut sent = lane.send(call("echo"), meta, token).await.unwrap();
        let answered = tokio::time::timeout(std::time::Duration::from_secs(10), sent.answer());
        let (answer, written) = answered.await.expect("an answer").unwrap();
        let JsonRpcMessage::Response(response) = answer else {
            panic!("not a result: {answer:?}");
        };
        let ServerResult::CallToolResult(result) = response.result else {
            panic!("not read as a call's result: {:?}", response.result);
        };
        assert_eq!(response.id, sent.id);
        assert_eq!(written["id"], json!(sent.id));
        let text = result.content[0].as_text().unwrap().text.clone();
        serde_json::from_str(&text).unwrap()
    }

    #[tokio::test]
    async fn requests_go_past_rmcp_and_their_answers_straight_back() {
        let args = ["-c".to_owned(), UPSTREAM.to_owned()];
        let (child, stdout, stdin) = Child::spawn(&crate::upstream::stdio::child::Spawn::plain(
            "python3", &args,
        ))
        .unwrap();
        let mut lines = StdioLines::new(Box::new(stdout), Box::new(stdin), Verbatim::default());
        let lane = lines.lane();
        // What the transport gives rmcp: everything but the lane's answers.
        let (given, mut to_rmcp) = tokio::sync::mpsc::unbounded_channel();
        let reader = tokio::spawn(async move {
            while let Some(message) = lines.receive().await {
                let _ = given.send(message);
            }
        });

        // The client's `_meta` as it came, its progress token the lane's own.
        let mut meta = RequestMetaObject::default();
        meta.0.insert("theirs".to_owned(), json!(1));
        meta.set_progress_token(ProgressToken(RequestId::Number(7)));
        let token = lane.progress_token();
        let read = as_read(&lane, meta, Some(token.clone())).await;
        assert!(read["id"].as_i64().unwrap() >= 1 << 40);
        assert_eq!(read["params"]["_meta"]["theirs"], json!(1));
        assert_eq!(read["params"]["_meta"]["progressToken"], json!(token.0));
        // A client that asked for no progress: no token upstream.
        let mut meta = RequestMetaObject::default();
        meta.set_progress_token(ProgressToken(RequestId::Number(8)));
        let read = as_read(&lane, meta, None).await;
        assert!(
            read["params"]
                .get("_meta")
                .is_none_or(|m| m.get("progressToken").is_none())
        );
        // A request given up on (its deadline, a cancelled client): its answer, when it
        // comes (before the next one's), goes nowhere.
        drop(
            lane.send(call("late"), Default::default(), None)
                .await
                .unwrap(),
        );
        as_read(&lane, RequestMetaObject::default(), None).await;
        // A line longer than the pipe holds, while the upstream reads nothing, given up
        // on mid-write: written whole all the same, the next one read as it should be.
        drop(
            lane.send(call("sleep"), Default::default(), None)
                .await
                .unwrap(),
        );
        let mut big = CallToolRequestParams::new("big");
        big.arguments = Some(serde_json::Map::from_iter([(
            "text".to_owned(),
            json!("x".repeat(1 << 20)),
        )]));
        let big = ClientRequest::CallToolRequest(Request::new(big));
        let cut = tokio::time::timeout(
            std::time::Duration::from_millis(20),
            lane.send(big, Default::default(), None),
        );
        assert!(
            cut.await.is_err(),
            "the pipe took a line longer than it holds"
        );
        let read = as_read(&lane, RequestMetaObject::default(), None).await;
        assert_eq!(read["params"]["name"], json!("echo"));
        // The notifications before each answer reached rmcp; no answer did.
        for _ in 0..7 {
            let message = to_rmcp.recv().await.unwrap();
            assert!(
                matches!(message, JsonRpcMessage::Notification(_)),
                "{message:?}"
            );
        }
        assert!(to_rmcp.try_recv().is_err());

        // The upstream ends with a request unanswered: it fails, and so does a new one.
        let mut hanging = lane
            .send(call("hang"), Default::default(), None)
            .await
            .unwrap();
        to_rmcp.recv().await.unwrap();
        drop(child);
        assert!(matches!(hanging.answer().await, Err(LaneError::Closed)));
        reader.await.unwrap();
        assert!(
            lane.send(call("echo"), Default::default(), None)
                .await
                .is_err()
        );
    }
}
