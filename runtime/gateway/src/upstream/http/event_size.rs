//! An upstream's event stream read with a bound on each event's size, as rmcp's client
//! bounds it (`StreamableHttpResponseLimits::max_sse_event_size`): an upstream cannot make
//! the gateway hold an endless event.

use futures::StreamExt as _;
use rmcp::transport::streamable_http_client::SseError;

/// The events of `response`, an event stream, failing once an event holds more than
/// `limit` bytes.
pub(crate) fn bounded(
    response: reqwest::Response,
    limit: usize,
) -> futures::stream::BoxStream<'static, Result<sse_stream::Sse, SseError>> {
    let read = (EventSize::default(), false);
    let checked = response
        .bytes_stream()
        .scan(read, move |(size, failed), chunk| {
            if *failed {
                return std::future::ready(None);
            }
            let chunk = chunk.map_err(std::io::Error::other).and_then(|chunk| {
                if size.add(&chunk, limit) {
                    Ok(chunk)
                } else {
                    Err(std::io::Error::other(TooLarge(limit)))
                }
            });
            *failed = chunk.is_err();
            std::future::ready(Some(chunk))
        });
    sse_stream::SseStream::from_bytes_stream(checked).boxed()
}

/// Why an event stream failed: an event held more than this many bytes.
#[derive(Debug, thiserror::Error)]
#[error("an event exceeded the maximum size of {0} bytes")]
struct TooLarge(usize);

/// Whether `error` ended a [`bounded`] stream for an event over its bound (resuming the
/// stream would only read that event again).
pub(crate) fn too_large(error: &SseError) -> bool {
    let sse_stream::Error::Body(error) = error else {
        return false;
    };
    error
        .downcast_ref::<std::io::Error>()
        .and_then(std::io::Error::get_ref)
        .is_some_and(|inner| inner.is::<TooLarge>())
}

/// The size of the event being read: the fields (comments aside) since the last blank
/// line, and the line being read.
#[derive(Default)]
struct EventSize {
    fields: usize,
    line: usize,
    comment: bool,
    after_cr: bool,
}

impl EventSize {
    /// Reads `chunk`: whether the event is still within `limit`.
    fn add(&mut self, chunk: &[u8], limit: usize) -> bool {
        for &byte in chunk {
            let after_cr = std::mem::take(&mut self.after_cr);
            match byte {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    self.after_cr = byte == b'\r';
                    match (self.line, self.comment) {
                        (0, _) => self.fields = 0,
                        (_, true) => {}
                        (line, false) => self.fields += line + 1,
                    }
                    self.line = 0;
                }
                _ => {
                    if self.line == 0 {
                        self.comment = byte == b':';
                    }
                    self.line += 1;
                }
            }
            if self.fields + self.line > limit {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_event_over_the_bound_fails_the_stream_as_too_large() {
        // Nothing else ends a stream so (`too_large` tells it from a broken connection).
        let broken = sse_stream::Error::Body(Box::new(std::io::Error::other("reset")));
        assert!(!too_large(&broken));
        assert!(!too_large(&sse_stream::Error::InvalidLine));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
            let (mut stream, _) = listener.accept().await.unwrap();
            let _ = stream.read(&mut [0; 1024]).await;
            let body = format!("data: {}\n\n", "x".repeat(200));
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(response.as_bytes()).await.unwrap();
        });
        let response = reqwest::get(format!("http://{addr}/")).await.unwrap();
        let mut events = bounded(response, 100);
        let error = events.next().await.unwrap().unwrap_err();
        assert!(too_large(&error), "{error}");
        assert!(events.next().await.is_none());
    }

    #[test]
    fn an_event_is_measured_from_the_last_blank_line_comments_aside() {
        let mut size = EventSize::default();
        assert!(size.add(b"data: 12345\r", 20));
        assert!(
            size.add(b"\n: c\ndata: x\n", 20),
            "12 and 8 bytes, the comment aside"
        );
        assert!(!size.add(b"d", 20));
        let mut size = EventSize::default();
        assert!(size.add(b"data: 12345\r\n\r\ndata: 12345\n\ndata: 1", 12));
        assert!(size.add(b"2345\n", 12), "split across chunks");
        assert!(!size.add(b"d", 12));
    }
}
