//! A legacy HTTP+SSE upstream: the 2024-11-05 transport, which many remote servers still
//! serve. It is found as the specification's backwards compatibility asks: when a POST to
//! the URL fails, a GET of the same URL opens an event stream whose first event,
//! `endpoint`, names where messages are POSTed. The stream's messages become lines and the
//! lines written become POSTs, so a command upstream's line transport (`lines`, its lane)
//! serves it unchanged, and keeps what it says as written just as well.

use crate::upstream::cause::innermost;
use crate::upstream::http::event_size::bounded;
use crate::upstream::stdio::lines::ByteStream;
use crate::upstream::stdio::lines::Writer;
use futures::StreamExt as _;
use http::HeaderMap;
use http::header::{ACCEPT, CONTENT_TYPE};
use rmcp::transport::streamable_http_client::StreamableHttpResponseLimits;
use serde_json::{Value, json};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream, WriteHalf};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// How many bytes of messages may wait between the stream and the transport.
const BUFFER: usize = 256 * 1024;

/// An open legacy HTTP+SSE connection, as lines: what the transport reads and writes, and
/// the two tasks that carry them (ended when this is dropped).
pub(crate) struct SseLines {
    /// The stream's messages, one a line.
    pub(crate) read: ByteStream,
    /// Lines written here are POSTed, one message each.
    pub(crate) write: Writer,
    /// The tasks reading the stream and posting the lines.
    pub(crate) tasks: SseTasks,
}

/// SseTasks that end with their owner: a stream left open would keep its connection.
pub(crate) struct SseTasks(Vec<JoinHandle<()>>);

impl Drop for SseTasks {
    fn drop(&mut self) {
        self.0.iter().for_each(JoinHandle::abort);
    }
}

/// Where the stream's messages are written, shared with the poster (which answers a
/// request that could not be posted there).
type SseWriter = Arc<Mutex<WriteHalf<DuplexStream>>>;

/// Why no legacy HTTP+SSE connection was opened.
#[derive(Debug)]
pub(crate) enum NotOpened {
    /// A GET of the URL opened no event stream: no such server there.
    NoStream(String),
    /// It did, but the connection could not be made (what the user should hear).
    Failed(String),
}

/// Opens the event stream at `url` with `headers`, reads its `endpoint`, and carries
/// messages both ways from then on; why not, in the user's terms.
pub(crate) async fn open(
    client: &reqwest::Client,
    url: &str,
    headers: &HeaderMap,
) -> Result<SseLines, NotOpened> {
    let no_stream = NotOpened::NoStream;
    let base = reqwest::Url::parse(url).map_err(|e| no_stream(format!("not a URL: {e}")))?;
    let response = client
        .get(base.clone())
        .headers(headers.clone())
        .header(ACCEPT, "text/event-stream")
        .send()
        .await
        .map_err(|e| no_stream(innermost(&e)))?;
    let status = response.status();
    let is_stream = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .is_some_and(|t| t.trim_start().starts_with("text/event-stream"));
    if !status.is_success() || !is_stream {
        let answered = format!("a GET answered {status}, not an event stream");
        return Err(no_stream(answered));
    }
    let failed = |why: String| NotOpened::Failed(why);
    let limit = StreamableHttpResponseLimits::default().max_sse_event_size;
    let mut events = bounded(response, limit);
    let endpoint = loop {
        match events.next().await {
            Some(Ok(event)) if event.event.as_deref() == Some("endpoint") => {
                break event.data.unwrap_or_default();
            }
            // Comments, and events before it that say nothing.
            Some(Ok(event)) if event.data.as_deref().is_none_or(str::is_empty) => continue,
            Some(Ok(_)) => return Err(no_stream("no `endpoint` event first".into())),
            Some(Err(e)) => return Err(failed(format!("its event stream failed: {e}"))),
            None => return Err(failed("its event stream ended before `endpoint`".into())),
        }
    };
    let endpoint = base
        .join(endpoint.trim())
        .map_err(|e| failed(format!("its `endpoint` event is no URL: {e}")))?;
    // Messages (and the headers, a credential among them) go nowhere else.
    if endpoint.origin() != base.origin() {
        let elsewhere = format!("its `endpoint` event names another origin ({endpoint}): refused");
        return Err(failed(elsewhere));
    }
    let (ours, theirs) = tokio::io::duplex(BUFFER);
    let (from_transport, to_transport) = tokio::io::split(theirs);
    let to_transport: SseWriter = Arc::new(Mutex::new(to_transport));
    let (read, write) = tokio::io::split(ours);
    let messages = tokio::spawn(messages(events, to_transport.clone()));
    let poster = Poster {
        client: client.clone(),
        endpoint,
        headers: headers.clone(),
        answers: to_transport,
    };
    let posts = tokio::spawn(poster.run(BufReader::new(from_transport)));
    Ok(SseLines {
        read: Box::new(read),
        write: Box::new(write),
        tasks: SseTasks(vec![messages, posts]),
    })
}

/// Writes each message of `events` as a line to `to`, until the stream ends (the
/// transport then reads its end: the connection is closed).
async fn messages(
    mut events: futures::stream::BoxStream<
        'static,
        Result<sse_stream::Sse, rmcp::transport::streamable_http_client::SseError>,
    >,
    to: SseWriter,
) {
    while let Some(event) = events.next().await {
        let event = match event {
            Ok(event) => event,
            Err(e) => {
                tracing::warn!("the upstream's event stream failed: {e}");
                break;
            }
        };
        let is_message = event.event.as_deref().is_none_or(|e| e == "message");
        let Some(data) = event.data.filter(|_| is_message) else {
            continue;
        };
        if to.lock().await.write_all(&line(&data)).await.is_err() {
            return;
        }
    }
    let _ = to.lock().await.shutdown().await;
}

/// `data` (one JSON-RPC message) as one line. A line break in it can only stand between
/// JSON's tokens (JSON strings hold none), so a space keeps its meaning.
fn line(data: &str) -> Vec<u8> {
    let mut line: Vec<u8> = data
        .bytes()
        .map(|b| if b == b'\n' || b == b'\r' { b' ' } else { b })
        .collect();
    line.push(b'\n');
    line
}

/// POSTs each line the transport writes to the connection's endpoint, in order.
struct Poster {
    client: reqwest::Client,
    endpoint: reqwest::Url,
    headers: HeaderMap,
    /// Where a request that could not be posted is answered with an error.
    answers: SseWriter,
}

impl Poster {
    async fn run(self, from: BufReader<tokio::io::ReadHalf<DuplexStream>>) {
        let mut lines = from.lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if let Err(why) = self.post(line.clone()).await {
                // A request posted nowhere would wait for its answer until its deadline.
                let Some(answer) = refused(&line, &why) else {
                    tracing::warn!("a message to the upstream was not delivered: {why}");
                    continue;
                };
                let mut to = self.answers.lock().await;
                if to.write_all(&answer).await.is_err() {
                    return;
                }
            }
        }
    }

    /// Posts one message; why it was not taken.
    async fn post(&self, message: String) -> Result<(), String> {
        let response = self
            .client
            .post(self.endpoint.clone())
            .headers(self.headers.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(message)
            .send()
            .await
            .map_err(|e| innermost(&e))?;
        let status = response.status();
        // The body says nothing the stream will not (mostly `Accepted`): read, for the
        // connection to be reused.
        let body = response.bytes().await.unwrap_or_default();
        if status.is_success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&body);
        let said = said.trim();
        Err(match said.is_empty() {
            true => format!("the upstream answered {status}"),
            false => format!("the upstream answered {status}: {said}"),
        })
    }
}

/// The error answer, as a line, to `message` when it is a request the upstream refused.
fn refused(message: &str, why: &str) -> Option<Vec<u8>> {
    let message: Value = serde_json::from_str(message).ok()?;
    let id = message
        .get("id")
        .filter(|_| message.get("method").is_some())?;
    let answer = json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": -32603, "message": why },
    });
    Some(line(&answer.to_string()))
}

#[cfg(test)]
mod tests;
