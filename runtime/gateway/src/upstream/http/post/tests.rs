use super::*;
use futures::StreamExt as _;
use mcp_tailor_test_support::raw;
use rmcp::model::{ListToolsRequest, Request, ServerResult};
use tokio::io::{AsyncWriteExt, BufReader};

/// An HTTP/1.1 server on loopback answering each request it reads with the next of
/// `responses` (status line and headers, then the body); what each request carried
/// (its head, then its body) comes back on the channel.
async fn serving(
    responses: Vec<(&'static str, &'static str)>,
) -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (heard, hear) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut responses = responses.into_iter();
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let mut stream = BufReader::new(stream);
            loop {
                let Some(head) = raw::head(&mut stream).await else {
                    break;
                };
                let Some((status, body)) = responses.next() else {
                    break;
                };
                let request = raw::body(&mut stream, &head).await;
                heard.send(head + &request).unwrap();
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                );
                stream
                    .get_mut()
                    .write_all(response.as_bytes())
                    .await
                    .unwrap();
            }
        }
    });
    (uri, hear)
}

fn list(id: i64) -> ClientJsonRpcMessage {
    let list = ClientRequest::ListToolsRequest(ListToolsRequest::default());
    JsonRpcMessage::request(list, RequestId::Number(id))
}

fn to(uri: &str, session: Option<&str>) -> Target {
    let header = HeaderName::from_static("x-team");
    let to = Addressed {
        uri: uri.into(),
        session_id: session.map(Into::into),
        auth_header: Some("secret".to_owned()),
        custom_headers: HashMap::from([(header, HeaderValue::from_static("blue"))]),
    };
    Target::of(&to).unwrap()
}

fn limits() -> StreamableHttpResponseLimits {
    let mut limits = StreamableHttpResponseLimits::default();
    limits.max_json_response_size = 1_000;
    limits.max_sse_event_size = 100;
    limits
}

#[tokio::test]
async fn a_json_answer_is_kept_as_written_and_read_as_what_was_asked() {
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}],"x":1.50}}"#;
    let json = "200 OK\r\ncontent-type: application/json; charset=utf-8\r\nmcp-session-id: s2";
    let (uri, mut heard) = serving(vec![(json, answer)]).await;
    let written = Verbatim::default();
    let client = reqwest::Client::new();
    let answer = post(&client, &written, list(1), &to(&uri, Some("s1")), limits()).await;
    let Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::Response(typed), session)) = answer
    else {
        panic!("not an answer: {answer:?}");
    };
    assert!(matches!(typed.result, ServerResult::ListToolsResult(_)));
    assert_eq!(session.as_deref(), Some("s2"));
    let kept = written
        .take(&RequestId::Number(1))
        .expect("kept as written");
    assert_eq!(kept["tools"][0]["execution"]["taskSupport"], "optional");
    assert_eq!(kept["x"].to_string(), "1.5");
    // The request as rmcp's client sends it.
    let request = heard.recv().await.unwrap().to_ascii_lowercase();
    for header in [
        "accept: text/event-stream, application/json",
        "content-type: application/json",
        "authorization: bearer secret",
        "x-team: blue",
        "mcp-session-id: s1",
    ] {
        assert!(request.contains(header), "{header} missing from {request}");
    }
    let body = serde_json::to_string(&list(1))
        .unwrap()
        .to_ascii_lowercase();
    assert!(request.ends_with(&body), "{request}");
}

#[tokio::test]
async fn a_legacy_server_s_refusal_of_discovery_is_an_error_answer_to_it() {
    let theirs = r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"old"}}"#;
    let (uri, _heard) = serving(vec![
        (
            "400 Bad Request\r\ncontent-type: text/plain",
            "unknown method",
        ),
        ("400 Bad Request\r\ncontent-type: application/json", theirs),
        (
            "400 Bad Request\r\ncontent-type: text/plain",
            "unknown method",
        ),
    ])
    .await;
    let (written, client) = (Verbatim::default(), reqwest::Client::new());
    let discover = || {
        let discover = ClientRequest::DiscoverRequest(Request::new(Default::default()));
        JsonRpcMessage::request(discover, RequestId::Number(3))
    };
    for (session, message) in [
        (
            None,
            "server/discover rejected with HTTP 400 Bad Request: unknown method",
        ),
        (None, "old"),
    ] {
        let answer = post(&client, &written, discover(), &to(&uri, session), limits()).await;
        let Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), _)) = answer else {
            panic!("not an error answer: {answer:?}");
        };
        assert_eq!(
            (error.id, &*error.error.message),
            (Some(RequestId::Number(3)), message)
        );
    }
    // Within a session, a refusal is the failure it is.
    let answer = post(
        &client,
        &written,
        discover(),
        &to(&uri, Some("s")),
        limits(),
    )
    .await;
    assert!(matches!(
        answer,
        Err(StreamableHttpError::UnexpectedServerResponse(_))
    ));
}

#[tokio::test]
async fn every_other_response_is_what_rmcp_s_client_makes_of_it() {
    let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"down"}}"#;
    let (uri, _heard) = serving(vec![
        (
            "200 OK\r\ncontent-type: text/event-stream",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n",
        ),
        ("202 Accepted", ""),
        ("404 Not Found", ""),
        (
            "401 Unauthorized\r\nwww-authenticate: Bearer realm=\"x\"",
            "",
        ),
        (
            "500 Internal Server Error\r\ncontent-type: application/json",
            error,
        ),
        ("503 Service Unavailable\r\nretry-after: 5", "busy"),
        ("400 Bad Request\r\ncontent-type: text/plain", "nope"),
        ("200 OK\r\ncontent-type: text/plain", "hi"),
        (
            "200 OK\r\ncontent-type: application/json",
            Box::leak(format!("\"{}\"", "x".repeat(1_000)).into_boxed_str()),
        ),
        (
            "200 OK\r\ncontent-type: text/event-stream",
            Box::leak(format!("data: {}\n\n", "x".repeat(200)).into_boxed_str()),
        ),
    ])
    .await;
    let (written, client) = (Verbatim::default(), reqwest::Client::new());
    let posted = async |session| {
        let target = to(&uri, session);
        post(&client, &written, list(1), &target, limits()).await
    };
    match posted(None).await {
        Ok(StreamableHttpPostResponse::Sse(mut events, _)) => {
            let event = events.next().await.unwrap().unwrap();
            assert!(event.data.unwrap().contains("\"tools\""));
        }
        other => panic!("not events: {other:?}"),
    }
    assert!(matches!(
        posted(None).await,
        Ok(StreamableHttpPostResponse::Accepted)
    ));
    assert!(matches!(
        posted(Some("s")).await,
        Err(StreamableHttpError::SessionExpired)
    ));
    assert!(
        matches!(posted(None).await, Err(StreamableHttpError::AuthRequired(e)) if e.www_authenticate_header == "Bearer realm=\"x\"")
    );
    assert!(matches!(
        posted(None).await,
        Ok(StreamableHttpPostResponse::Json(
            JsonRpcMessage::Error(_),
            _
        ))
    ));
    assert!(
        matches!(posted(None).await, Err(StreamableHttpError::HttpStatus(e)) if e.status == 503 && e.retry_after.as_deref() == Some("5"))
    );
    let refused = posted(None).await.unwrap_err().to_string();
    assert!(refused.contains("HTTP 400 Bad Request: nope"), "{refused}");
    assert!(
        matches!(posted(None).await, Err(StreamableHttpError::UnexpectedContentType(Some(t))) if t == "text/plain")
    );
    assert!(matches!(
        posted(None).await,
        Err(StreamableHttpError::ResponseBodyTooLarge { max_size: 1_000 })
    ));
    let Ok(StreamableHttpPostResponse::Sse(mut events, _)) = posted(None).await else {
        panic!("not events");
    };
    assert!(
        events.next().await.unwrap().is_err(),
        "an event over the limit"
    );
    assert!(events.next().await.is_none());
    assert!(
        written.take(&RequestId::Number(1)).is_none(),
        "nothing kept but JSON answers"
    );
}

#[tokio::test]
async fn an_error_that_names_no_request_answers_the_one_posted() {
    let nobody_s = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: busy"}}"#;
    let theirs = r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"other"}}"#;
    let json = "400 Bad Request\r\ncontent-type: application/json";
    let (uri, _heard) = serving(vec![(json, nobody_s), (json, theirs)]).await;
    let (written, client) = (Verbatim::default(), reqwest::Client::new());
    for (id, message) in [(7, "Bad Request: busy"), (9, "other")] {
        let answer = post(&client, &written, list(7), &to(&uri, Some("s")), limits()).await;
        let Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), _)) = answer else {
            panic!("not an error answer: {answer:?}");
        };
        assert_eq!(
            (error.id, &*error.error.message),
            (Some(RequestId::Number(id)), message)
        );
    }
}

#[tokio::test]
async fn a_session_refused_with_400_is_an_expired_one() {
    // As server-everything answers a session it does not know (it restarted): rmcp's
    // client then opens a new session and posts the request again, as for a 404.
    let unknown = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;
    let json = "400 Bad Request\r\ncontent-type: application/json";
    let (uri, _heard) = serving(vec![(json, unknown), (json, unknown)]).await;
    let (written, client) = (Verbatim::default(), reqwest::Client::new());
    let answer = post(&client, &written, list(7), &to(&uri, Some("s")), limits()).await;
    assert!(
        matches!(answer, Err(StreamableHttpError::SessionExpired)),
        "{answer:?}"
    );
    // Without a session to lose, it is the answer to the request.
    let answer = post(&client, &written, list(7), &to(&uri, None), limits()).await;
    let Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), _)) = answer else {
        panic!("not an error answer: {answer:?}");
    };
    assert_eq!(error.id, Some(RequestId::Number(7)));
}
