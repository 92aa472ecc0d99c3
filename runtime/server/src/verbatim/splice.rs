//! A listing kept restored (`verbatim::kept`) leaves on streamable HTTP as the text it was
//! written as once, not cloned into rmcp's message and written again. The message rmcp
//! writes carries a stand-in for its result, `{"mcp-tailor.dev/kept-NONCE": n}` (the
//! nonce drawn by this process, so nothing a handler or an upstream returns passes for
//! one), and [`spliced`] puts the text in its place as the event stream's bytes leave.
//! Meanwhile the text waits in a table by `n`: a stand-in is made while the response body
//! is polled for its next event, and that same poll writes the event and splices it.

use crate::verbatim::kept::KeptListing;
use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::Response;
use futures::StreamExt as _;
use mcp_tailor_core::seam::Locked;
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

/// The stand-in's key: `mcp-tailor.dev/kept-` and 64 random bits in hex.
static KEY: LazyLock<String> = LazyLock::new(|| {
    let mut nonce = [0u8; 8];
    getrandom::fill(&mut nonce).expect("the operating system's random source");
    format!("mcp-tailor.dev/kept-{:016x}", u64::from_be_bytes(nonce))
});

/// How a stand-in starts, written out: `{"KEY":`.
static OPENING: LazyLock<Vec<u8>> = LazyLock::new(|| format!("{{\"{}\":", *KEY).into_bytes());

/// Whether a stand-in was ever made: until then, no event is looked at.
static MADE: AtomicBool = AtomicBool::new(false);

/// The most texts waiting (only a body dropped mid-poll leaves one behind).
const WAITING_MAX: usize = 1_024;

/// The texts waiting, by their stand-in's number (numbers only grow: the first is the
/// oldest, forgotten first).
#[derive(Default)]
struct Waiting {
    by_number: BTreeMap<u64, Arc<str>>,
    next: u64,
}

static WAITING: LazyLock<Mutex<Waiting>> = LazyLock::new(Default::default);

fn waiting() -> std::sync::MutexGuard<'static, Waiting> {
    WAITING.locked()
}

/// The stand-in for `kept`'s result, its text waiting for [`spliced`].
pub(crate) fn stand_in(kept: &KeptListing) -> Value {
    MADE.store(true, Ordering::Relaxed);
    let mut waiting = waiting();
    let number = waiting.next;
    waiting.next += 1;
    if waiting.by_number.len() == WAITING_MAX {
        waiting.by_number.pop_first();
    }
    waiting.by_number.insert(number, kept.written.clone());
    json!({ KEY.as_str(): number })
}

/// `response` with every stand-in in its event stream replaced by its text.
pub(crate) fn spliced(response: Response) -> Response {
    let stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    if !stream {
        return response;
    }
    let (parts, body) = response.into_parts();
    let events = body.into_data_stream().map(|chunk| chunk.map(splice));
    Response::from_parts(parts, Body::from_stream(events))
}

/// `chunk` with the stand-ins in it replaced by their texts (each taken from the table).
pub(crate) fn splice(chunk: Bytes) -> Bytes {
    // (A stream's stand-ins are made as it is read: looked for from the first one on.)
    if !MADE.load(Ordering::Relaxed) {
        return chunk;
    }
    let Some(first) = memchr::memmem::find(&chunk, &OPENING) else {
        return chunk;
    };
    let mut out = Vec::with_capacity(chunk.len());
    let mut rest = &chunk[..];
    let mut at = Some(first);
    while let Some(start) = at {
        let after = &rest[start + OPENING.len()..];
        let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
        let number = std::str::from_utf8(&after[..digits])
            .ok()
            .and_then(|d| d.parse::<u64>().ok());
        let closed = after.get(digits) == Some(&b'}');
        let text = match (number, closed) {
            (Some(number), true) => waiting().by_number.remove(&number),
            _ => None,
        };
        let end = start + OPENING.len() + digits + 1;
        match text {
            Some(text) => {
                out.extend_from_slice(&rest[..start]);
                out.extend_from_slice(text.as_bytes());
            }
            None => {
                tracing::error!("a kept listing's stand-in has no text waiting");
                out.extend_from_slice(&rest[..end.min(rest.len())]);
            }
        }
        rest = &rest[end.min(rest.len())..];
        at = memchr::memmem::find(rest, &OPENING);
    }
    out.extend_from_slice(rest);
    Bytes::from(out)
}

/// An event as written: its message's patches applied (`patch`), a listing kept restored
/// as a stand-in for the text it was written as ([`stand_in`]).
pub(crate) fn restored_event(mut event: ServerSseMessage) -> ServerSseMessage {
    let message = event.message.as_deref();
    if let Some(message) = message.and_then(|m| super::restored_as(m, stand_in)) {
        event.message = Some(Arc::new(message));
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verbatim::kept::{Restoration, restoration};
    use rmcp::model::{ListPromptsResult, Prompt, ServerResult};

    /// A listing kept restored, its result `{"prompts": [{"name": NAME}], "restored": true}`.
    fn kept(name: &str) -> Arc<KeptListing> {
        let prompt = Prompt::new(name, None::<String>, None);
        let result =
            ServerResult::ListPromptsResult(ListPromptsResult::with_all_items(vec![prompt]));
        let restore = |result: &ServerResult| {
            let mut value = serde_json::to_value(result).unwrap();
            value["restored"] = json!(true);
            Some(value)
        };
        match restoration(&result, restore) {
            Some(Restoration::Kept(kept)) => kept,
            _ => panic!("a listing is kept"),
        }
    }

    /// An event as rmcp writes one, for an answer to request 7 with `result`.
    fn event(result: &Value) -> String {
        let message = json!({"jsonrpc": "2.0", "id": 7, "result": result});
        format!("data: {message}\nid: 3/0\n\n")
    }

    #[test]
    fn a_stand_in_is_replaced_by_its_text_once() {
        let listing = kept("splice_once");
        let stand_in = stand_in(&listing);
        let chunk = Bytes::from(event(&stand_in));
        let spliced = splice(chunk.clone());
        let expected = event(&listing.value);
        assert_eq!(std::str::from_utf8(&spliced).unwrap(), expected);
        // Taken: the same stand-in again finds no text and is left as it was.
        assert_eq!(splice(chunk.clone()), chunk);
    }

    #[test]
    fn every_stand_in_of_a_chunk_is_replaced_and_nothing_else() {
        let (a, b) = (kept("splice_a"), kept("splice_b"));
        let chunk = format!("{}{}", event(&stand_in(&a)), event(&stand_in(&b)));
        let spliced = splice(Bytes::from(chunk));
        let expected = format!("{}{}", event(&a.value), event(&b.value));
        assert_eq!(std::str::from_utf8(&spliced).unwrap(), expected);
        // Another process's stand-in, or a handler's look-alike, is only text.
        let forged = event(&json!({"mcp-tailor.dev/kept-0000000000000000": 0}));
        assert_eq!(splice(Bytes::from(forged.clone())), forged.as_bytes());
        let plain = Bytes::from(event(&json!({"tools": []})));
        assert_eq!(splice(plain.clone()), plain);
    }

    #[tokio::test]
    async fn an_event_stream_leaves_with_its_texts_in_and_other_bodies_as_they_are() {
        let listing = kept("splice_stream");
        let events = [
            "data: \nid: 0/0\nretry: 3000\n\n".to_owned(),
            event(&stand_in(&listing)),
        ];
        let chunks = events.map(|e| Ok::<_, std::io::Error>(Bytes::from(e)));
        let response = Response::builder()
            .header(header::CONTENT_TYPE, "text/event-stream")
            .body(Body::from_stream(futures::stream::iter(chunks)))
            .unwrap();
        let body = spliced(response).into_body();
        let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        let expected = format!("data: \nid: 0/0\nretry: 3000\n\n{}", event(&listing.value));
        assert_eq!(std::str::from_utf8(&body).unwrap(), expected);
        // A JSON body is not an event stream: never looked at.
        let other = kept("splice_json");
        let json = event(&stand_in(&other));
        let response = Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(json.clone()))
            .unwrap();
        let body = axum::body::to_bytes(spliced(response).into_body(), usize::MAX);
        assert_eq!(body.await.unwrap(), json.as_bytes());
    }
}
