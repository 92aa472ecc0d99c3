//! A request answered before anything else is said about it gets its answer as one
//! `application/json` body, not as an event stream (streamable HTTP lets a server choose
//! either for each POST). rmcp streams every answer of a session; a client reads a JSON body
//! with one parse, and the server writes it in one go, headers and body together.
//!
//! The stream is read until its first message, for at most [`AT_ONCE`]: the answer itself
//! makes the JSON body; a notification or a request first (progress, a log line, an
//! elicitation), or no message yet, keeps the event stream, every event in order, the ones
//! already read included — so a slow request keeps its priming event, and a client that
//! loses the connection can resume it. Events without a message (the priming event,
//! keep-alive comments) say nothing about the request: for an answer given at once there
//! is nothing to resume.

use axum::body::{Body, Bytes};
use axum::http::response::Parts;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use futures::StreamExt as _;
use std::time::Duration;

/// How long a request's first message is waited for before its event stream goes out as
/// one: an answer within it is an answer given at once.
pub(crate) const AT_ONCE: Duration = Duration::from_millis(50);

/// What an event stream's first message is.
enum First {
    /// The answer: its JSON text.
    Answer(Bytes),
    /// A notification or a request: the stream stays one.
    Other,
}

/// The message of the event at `event` in `read` (its `data:` lines), or `None` for an
/// event without one. One data line (as rmcp writes every message) is a slice of `read`,
/// not a copy.
fn data(read: &Bytes, event: std::ops::Range<usize>) -> Option<Bytes> {
    let mut lines = Vec::new();
    let mut start = event.start;
    while start <= event.end {
        // Line ends found with SIMD: a message's one line may be a whole listing.
        let end = memchr::memchr(b'\n', &read[start..event.end]).map_or(event.end, |n| start + n);
        let line = &read[start..end];
        if let Some(value) = line.strip_prefix(b"data:") {
            let skip = 5 + usize::from(value.first() == Some(&b' '));
            lines.push(start + skip..end);
        }
        start = end + 1;
    }
    let data = match lines.as_slice() {
        [] => return None,
        [one] => read.slice(one.clone()),
        several => {
            let joined: Vec<&[u8]> = several.iter().map(|r| &read[r.clone()]).collect();
            Bytes::from(joined.join(&b'\n'))
        }
    };
    (!data.iter().all(u8::is_ascii_whitespace)).then_some(data)
}

/// Whether a message is an answer: of `method`, `result` and `error`, its first key is not
/// `method`. Only the keys before it are read (never the result itself, which may be a
/// whole listing); a message that cannot be read so is not taken for one.
fn is_answer(message: &[u8]) -> bool {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    use std::cell::Cell;

    struct Keys<'a>(&'a Cell<Option<bool>>);

    impl<'de> Visitor<'de> for Keys<'_> {
        type Value = ();

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<&'de str>()? {
                let answer = match key {
                    "method" => false,
                    "result" | "error" => true,
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                        continue;
                    }
                };
                self.0.set(Some(answer));
                return Ok(());
            }
            Ok(())
        }
    }

    let seen = Cell::new(None);
    // The read stops at that key: the error it then ends with says nothing.
    let _ = serde_json::Deserializer::from_slice(message).deserialize_map(Keys(&seen));
    seen.get() == Some(true)
}

/// The first message among the complete events in `read` (events end with a blank line).
fn first(read: &Bytes) -> Option<First> {
    let mut start = 0;
    while let Some(end) = memchr::memmem::find(&read[start..], b"\n\n") {
        let event = start..start + end;
        start += end + 2;
        if let Some(message) = data(read, event) {
            return Some(if is_answer(&message) {
                First::Answer(message)
            } else {
                First::Other
            });
        }
    }
    None
}

/// `response` (an event stream for one POSTed request) answered as one JSON body when its
/// first message is the answer; otherwise the same event stream, nothing lost.
pub(crate) async fn answered(response: Response) -> Response {
    let stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    if !stream || !response.status().is_success() {
        return response;
    }
    let (parts, body) = response.into_parts();
    let mut chunks = body.into_data_stream();
    let mut kept: Vec<Bytes> = Vec::new();
    let until = tokio::time::Instant::now() + AT_ONCE;
    let first = loop {
        match tokio::time::timeout_at(until, chunks.next()).await {
            Ok(Some(Ok(chunk))) => {
                kept.push(chunk);
                // Mostly one chunk, read as it is; an event split across chunks, whole.
                let read = match kept.as_slice() {
                    [one] => one.clone(),
                    all => Bytes::from(all.concat()),
                };
                if let Some(first) = first(&read) {
                    break Some(first);
                }
            }
            // No message yet (a slow request), or the stream ended (or failed) before any:
            // passed on as it came.
            _ => break None,
        }
    };
    if let Some(First::Answer(message)) = first {
        return json_body(parts, message);
    }
    let replayed = futures::stream::iter(kept.into_iter().map(Ok::<_, axum::Error>));
    Response::from_parts(parts, Body::from_stream(replayed.chain(chunks)))
}

/// `message` as one JSON body, with `parts` (an event stream's lose their stream headers).
pub(crate) fn json_body(mut parts: Parts, message: Bytes) -> Response {
    let headers = &mut parts.headers;
    headers.remove(header::CACHE_CONTROL);
    headers.remove("x-accel-buffering");
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(message.len()));
    Response::from_parts(parts, Body::from(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stream(events: &[&str]) -> Response {
        let chunks: Vec<Result<Bytes, std::io::Error>> = events
            .iter()
            .map(|e| Ok(Bytes::from(e.to_string())))
            .collect();
        Response::builder()
            .header(header::CONTENT_TYPE, "text/event-stream")
            .header("mcp-session-id", "s")
            .body(Body::from_stream(futures::stream::iter(chunks)))
            .unwrap()
    }

    async fn body(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn an_answer_is_told_by_its_keys_without_reading_its_result() {
        for (message, answer) in [
            (r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#, true),
            (r#"{"result":{},"jsonrpc":"2.0","id":"a"}"#, true),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}"#,
                true,
            ),
            (r#"{"jsonrpc":"2.0","id":9,"method":"roots/list"}"#, false),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
                false,
            ),
            // Cut short after its key: the result is never read.
            (r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"na"#, true),
            ("not json", false),
        ] {
            assert_eq!(is_answer(message.as_bytes()), answer, "{message}");
        }
    }

    #[tokio::test]
    async fn an_answer_first_is_one_json_body() {
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let response = stream(&[
            "data: \nid: 0/1\nretry: 3000\n\n",
            ":\n\n",
            &format!("data: {answer}\nid: 1/1\n\n"),
        ]);
        let response = answered(response).await;
        let headers = response.headers();
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(headers["mcp-session-id"], "s");
        assert_eq!(headers[header::CONTENT_LENGTH], answer.len().to_string());
        assert_eq!(body(response).await, answer);
    }

    #[tokio::test]
    async fn a_notification_first_keeps_the_stream_and_every_event() {
        let events = [
            "data: \nid: 0/1\nretry: 3000\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
        ];
        let response = answered(stream(&events)).await;
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream"
        );
        assert_eq!(body(response).await, events.concat());
    }

    #[tokio::test]
    async fn an_event_split_across_chunks_is_read_whole() {
        let response = stream(&[
            "data: {\"jsonrpc\":\"2.0\",",
            "\"id\":7,\"error\":{}}\n",
            "\n",
        ]);
        let response = answered(response).await;
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(
            body(response).await,
            r#"{"jsonrpc":"2.0","id":7,"error":{}}"#
        );
    }

    #[tokio::test]
    async fn a_message_on_several_data_lines_is_joined() {
        let response =
            stream(&["data: {\"jsonrpc\":\"2.0\",\ndata:\"id\":8,\ndata: \"result\":{}}\n\n"]);
        let response = answered(response).await;
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(
            body(response).await,
            "{\"jsonrpc\":\"2.0\",\n\"id\":8,\n\"result\":{}}"
        );
    }

    #[tokio::test]
    async fn a_slow_answer_keeps_its_stream_and_its_priming_event() {
        let priming = "data: \nid: 0/1\nretry: 3000\n\n";
        let answer = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
        let later = futures::stream::once(async move {
            tokio::time::sleep(AT_ONCE * 2).await;
            Ok::<_, std::io::Error>(Bytes::from(answer))
        });
        let chunks = futures::stream::once(async move { Ok(Bytes::from(priming)) }).chain(later);
        let response = Response::builder()
            .header(header::CONTENT_TYPE, "text/event-stream")
            .body(Body::from_stream(chunks))
            .unwrap();
        let response = answered(response).await;
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream"
        );
        assert_eq!(body(response).await, format!("{priming}{answer}"));
    }

    #[tokio::test]
    async fn a_stream_that_ends_without_a_message_is_passed_on() {
        let response = answered(stream(&["data: \nid: 0/1\n\n"])).await;
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream"
        );
        assert_eq!(body(response).await, "data: \nid: 0/1\n\n");
    }
}
