//! Reading HTTP/1.1 requests raw, for the test servers on loopback that the gateway's HTTP
//! clients (`post`, `legacy_sse`) are tested against.

use tokio::io::{AsyncRead, AsyncReadExt};

/// The next request's head, through its blank line; `None` when the connection ends first.
pub(crate) async fn head<R: AsyncRead + Unpin>(reader: &mut R) -> Option<String> {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        if reader.read(&mut byte).await.unwrap_or(0) == 0 {
            return None;
        }
        head.push(byte[0]);
    }
    Some(String::from_utf8(head).expect("a request head in UTF-8"))
}

/// The body `head` announces (its `content-length`, none without one).
pub(crate) async fn body<R: AsyncRead + Unpin>(reader: &mut R, head: &str) -> String {
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_owned)
        })
        .map_or(0, |n| n.trim().parse().expect("a content-length"));
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.expect("the whole body");
    String::from_utf8(body).expect("a body in UTF-8")
}
