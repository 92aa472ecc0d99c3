//! An upstream's event stream read with a bound on each event's size, as rmcp's client
//! bounds it (`StreamableHttpResponseLimits::max_sse_event_size`): an upstream cannot make
//! the gateway hold an endless event.

use futures::StreamExt as _;
use rmcp::transport::streamable_http_client::SseError;

/// The events of `response`, an event stream, failing once an event holds more than
/// `limit` bytes.
pub(super) fn bounded(
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
                    let what = format!("an event exceeded the maximum size of {limit} bytes");
                    Err(std::io::Error::other(what))
                }
            });
            *failed = chunk.is_err();
            std::future::ready(Some(chunk))
        });
    sse_stream::SseStream::from_bytes_stream(checked).boxed()
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
