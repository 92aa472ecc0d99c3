//! The server side, raw: reading HTTP/1.1 requests for test servers on loopback (the
//! gateway's HTTP clients are tested against them), and a server that answers every
//! request with the same bytes.

use std::net::SocketAddr;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

/// The next request's head, through its blank line; `None` when the connection ends first.
pub async fn head<R: AsyncRead + Unpin>(reader: &mut R) -> Option<String> {
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
pub async fn body<R: AsyncRead + Unpin>(reader: &mut R, head: &str) -> String {
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

/// A server on loopback that answers every request with `response` (a whole HTTP/1.1
/// response, head and body) and closes the connection; its address. It serves until the
/// runtime ends.
pub async fn answering(response: &'static [u8]) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let addr = listener.local_addr().expect("its address");
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                if let Some(head) = head(&mut stream).await {
                    let _ = body(&mut stream, &head).await;
                    let _ = stream.write_all(response).await;
                }
            });
        }
    });
    addr
}
