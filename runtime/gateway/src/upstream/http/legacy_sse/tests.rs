use super::*;
use mcp_tailor_test_support::raw;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// What the legacy server heard: each request's head and body.
type Heard = UnboundedReceiver<String>;

/// A legacy HTTP+SSE server on loopback, raw: a GET opens the event stream, which begins
/// with `endpoint` as `first` (with `{addr}` in it replaced), and a POST is answered
/// `posted` (a status line); a POSTed request accepted is answered on the stream, its
/// message written over three data lines (`<close>` after the first event ends the
/// stream). Each request comes back on the channel; the client closing the stream is
/// heard as `closed`.
async fn legacy_server(first: &'static str, posted: &'static str) -> (String, Heard) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (heard, hear) = unbounded_channel();
    let stream: Arc<Mutex<Option<TcpStream>>> = Arc::default();
    tokio::spawn(async move {
        loop {
            let (socket, _) = listener.accept().await.unwrap();
            let (heard, stream) = (heard.clone(), stream.clone());
            let first = first.replace("{addr}", &addr.to_string());
            tokio::spawn(serve(socket, heard, stream, first, posted));
        }
    });
    (format!("http://{addr}/sse"), hear)
}

async fn serve(
    mut socket: TcpStream,
    heard: UnboundedSender<String>,
    stream: Arc<Mutex<Option<TcpStream>>>,
    first: String,
    posted: &'static str,
) {
    loop {
        let Some(head) = raw::head(&mut socket).await else {
            return;
        };
        if head.starts_with("GET") {
            heard.send(head).unwrap();
            let open = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n";
            socket.write_all(open.as_bytes()).await.unwrap();
            // `<close>` after the first event: the stream ends there.
            if let Some(first) = first.strip_suffix("<close>") {
                socket.write_all(first.as_bytes()).await.unwrap();
                return;
            }
            socket.write_all(first.as_bytes()).await.unwrap();
            *stream.lock().await = Some(socket);
            // Closed when the client hangs up: it reads nothing more.
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    let mut guard = stream.lock().await;
                    let Some(socket) = guard.as_mut() else { return };
                    let mut byte = [0u8];
                    let read = tokio::time::timeout(
                        std::time::Duration::from_millis(1),
                        socket.read(&mut byte),
                    );
                    if let Ok(Ok(0) | Err(_)) = read.await {
                        heard.send("closed".to_owned()).unwrap();
                        return;
                    }
                }
            });
            return;
        }
        let body = raw::body(&mut socket, &head).await;
        heard.send(format!("{head}{body}")).unwrap();
        let response = format!("HTTP/1.1 {posted}\r\ncontent-length: 5\r\n\r\nnope.");
        socket.write_all(response.as_bytes()).await.unwrap();
        let message: Value = serde_json::from_str(&body).unwrap();
        if posted.starts_with("202")
            && let Some(id) = message.get("id")
        {
            let event = format!(
                "event: message\ndata: {{\"jsonrpc\":\"2.0\",\ndata: \"id\":{id},\ndata: \"result\":{{\"echo\":{body}}}}}\n\n"
            );
            let mut guard = stream.lock().await;
            guard
                .as_mut()
                .unwrap()
                .write_all(event.as_bytes())
                .await
                .unwrap();
        }
    }
}

fn headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert("x-team", http::HeaderValue::from_static("blue"));
    headers
}

async fn read_line(read: &mut ByteStream) -> String {
    let mut line = Vec::new();
    let mut byte = [0u8];
    while read.read(&mut byte).await.unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    String::from_utf8(line).unwrap()
}

#[tokio::test]
async fn messages_go_by_post_to_the_endpoint_and_come_back_as_lines() {
    let (url, mut heard) = legacy_server(
        "event: endpoint\ndata: /messages/?session_id=7\n\n",
        "202 Accepted",
    )
    .await;
    let mut sse = open(&reqwest::Client::new(), &url, &headers())
        .await
        .unwrap();
    let get = heard.recv().await.unwrap();
    assert!(get.starts_with("GET /sse "), "{get}");
    assert!(get.contains("x-team: blue"), "{get}");
    assert!(get.contains("accept: text/event-stream"), "{get}");

    let request = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    sse.write
        .write_all(format!("{request}\n").as_bytes())
        .await
        .unwrap();
    let post = heard.recv().await.unwrap();
    assert!(post.starts_with("POST /messages/?session_id=7 "), "{post}");
    assert!(post.contains("x-team: blue"), "{post}");
    assert!(post.contains("content-type: application/json"), "{post}");
    assert!(post.ends_with(request), "{post}");
    // Three data lines, joined and made one line: the message as written but for them.
    assert_eq!(
        read_line(&mut sse.read).await,
        format!(r#"{{"jsonrpc":"2.0", "id":1, "result":{{"echo":{request}}}}}"#)
    );

    // Ended with its owner: the stream's connection is closed.
    drop(sse);
    let closed = tokio::time::timeout(std::time::Duration::from_secs(10), heard.recv());
    assert_eq!(closed.await.unwrap().unwrap(), "closed");
}

#[tokio::test]
async fn a_request_the_endpoint_refuses_is_answered_with_an_error_and_a_notification_is_not() {
    let (url, mut heard) =
        legacy_server("event: endpoint\ndata: /messages/\n\n", "400 Bad Request").await;
    let mut sse = open(&reqwest::Client::new(), &url, &headers())
        .await
        .unwrap();
    heard.recv().await.unwrap();
    let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let request = r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#;
    for message in [notification, request] {
        sse.write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let answer: Value = serde_json::from_str(&read_line(&mut sse.read).await).unwrap();
    assert_eq!(
        answer,
        json!({"jsonrpc": "2.0", "id": "a", "error": {
            "code": -32603, "message": "the upstream answered 400 Bad Request: nope."}})
    );
}

#[tokio::test]
async fn an_endpoint_on_another_origin_is_refused() {
    let (url, _heard) = legacy_server(
        "event: endpoint\ndata: http://elsewhere.example/messages/\n\n",
        "202 Accepted",
    )
    .await;
    let Err(NotOpened::Failed(why)) = open(&reqwest::Client::new(), &url, &headers()).await else {
        panic!("opened");
    };
    assert!(
        why.contains("another origin (http://elsewhere.example/messages/)"),
        "{why}"
    );
}

#[tokio::test]
async fn a_stream_without_an_endpoint_first_or_no_stream_is_no_legacy_server() {
    let (url, _heard) = legacy_server("data: {}\n\n", "202 Accepted").await;
    let Err(NotOpened::NoStream(why)) = open(&reqwest::Client::new(), &url, &headers()).await
    else {
        panic!("opened");
    };
    assert_eq!(why, "no `endpoint` event first");

    // A streamable HTTP server's GET with no session: 405 (or 400), no stream.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = [0u8; 1024];
        let _ = socket.read(&mut head).await;
        let refused = "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\n\r\n";
        socket.write_all(refused.as_bytes()).await.unwrap();
    });
    let Err(NotOpened::NoStream(why)) = open(&reqwest::Client::new(), &url, &headers()).await
    else {
        panic!("opened");
    };
    assert_eq!(
        why,
        "a GET answered 405 Method Not Allowed, not an event stream"
    );
}

#[tokio::test]
async fn the_stream_ending_ends_what_the_transport_reads() {
    let (url, mut heard) =
        legacy_server("event: endpoint\ndata: /m\n\n<close>", "202 Accepted").await;
    let mut sse = open(&reqwest::Client::new(), &url, &headers())
        .await
        .unwrap();
    heard.recv().await.unwrap();
    let mut rest = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        sse.read.read_to_end(&mut rest),
    );
    assert_eq!(read.await.unwrap().unwrap(), 0);
}
