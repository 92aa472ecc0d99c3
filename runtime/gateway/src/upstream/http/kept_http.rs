//! A streamable HTTP upstream's client: rmcp's own (`reqwest`), every answer that comes as
//! an event also kept as written, by request id (`verbatim::store`, with the notifications
//! passed on as written), for the gateway to patch what rmcp's types could not hold back in
//! (`server::verbatim`). Requests are posted by the gateway itself (`post`), so that an
//! answer that comes as one JSON body is kept as written too.

use crate::upstream::cause::http_cause;
use crate::upstream::http::post::{Addressed, Events, LastTarget, PostAnswer, Target, post};
use crate::upstream::verbatim::store::Verbatim;
use futures::StreamExt as _;
use http::{HeaderName, HeaderValue};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use serde_json::Value;
use sse_stream::Sse;
use std::collections::HashMap;
use std::sync::Arc;

/// rmcp's `reqwest` client, keeping what its event streams carry, and where it posted last.
#[derive(Clone)]
pub(crate) struct KeptHttp {
    client: reqwest::Client,
    written: Verbatim,
    last: LastTarget,
}

impl KeptHttp {
    pub(crate) fn new(client: reqwest::Client, written: Verbatim, last: LastTarget) -> Self {
        KeptHttp {
            client,
            written,
            last,
        }
    }

    /// A request is posted here (`post`), anything else by rmcp's client; each answer is
    /// kept as written.
    async fn send(
        &self,
        to: Addressed,
        message: ClientJsonRpcMessage,
        limits: StreamableHttpResponseLimits,
    ) -> PostAnswer {
        let answer = if matches!(message, ClientJsonRpcMessage::Request(_)) {
            let target = Arc::new(Target::of(&to)?);
            self.last.saw(&message, &target);
            post(&self.client, &self.written, message, &target, limits).await
        } else {
            // A target that cannot be made is left to rmcp's client, which reports it.
            if let Ok(target) = Target::of(&to) {
                self.last.saw(&message, &Arc::new(target));
            }
            let Addressed {
                uri,
                session_id,
                auth_header,
                custom_headers,
            } = to;
            self.client
                .post_message_with_response_limits(
                    uri,
                    message,
                    session_id,
                    auth_header,
                    custom_headers,
                    limits,
                )
                .await
        };
        self.keep_answer(answer)
    }

    fn keep_answer(&self, answer: PostAnswer) -> PostAnswer {
        match answer {
            Ok(StreamableHttpPostResponse::Sse(events, session)) => Ok(
                StreamableHttpPostResponse::Sse(self.keep_events(events), session),
            ),
            other => other,
        }
    }

    /// `events`, each answer among them kept as written on its way to rmcp.
    fn keep_events(&self, events: Events) -> Events {
        let written = self.written.clone();
        events
            .map(move |event| {
                if let Ok(Sse {
                    data: Some(data), ..
                }) = &event
                {
                    keep(&written, data);
                }
                event
            })
            .boxed()
    }
}

/// Keeps `data` when it is an answer with a result, or a notification passed on as
/// written (read into rmcp's types here too, for the key `Inbound` finds it by).
fn keep(written: &Verbatim, data: &str) {
    if !data.contains("\"result\"") && !data.contains("\"notifications/") {
        return;
    }
    let Ok(Value::Object(message)) = serde_json::from_str::<Value>(data) else {
        return;
    };
    if message.contains_key("method") {
        if !message.contains_key("id") {
            let raw = Value::Object(message);
            if let Ok(typed) = serde::Deserialize::deserialize(&raw) {
                written.keep_notification(&raw, &typed);
            }
        }
        return;
    }
    written.keep_answer(message);
}

/// Says why an event stream could not be opened (or resumed) when the upstream was not
/// reached at all, in the user's terms (rmcp's own lines, off by default, name its types);
/// a refusal in HTTP (a server without a stream to GET) is no failure.
fn unreached(error: &StreamableHttpError<reqwest::Error>) {
    if matches!(error, StreamableHttpError::Client(e) if !e.is_status()) {
        tracing::warn!(
            "the upstream's event stream could not be opened: {}",
            http_cause(error)
        );
    }
}

/// rmcp's worker posts with its limits and opens streams with its event size; the plain
/// methods (the trait's own, and its defaults built on them) keep events too.
impl StreamableHttpClient for KeptHttp {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> PostAnswer {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> PostAnswer {
        let to = Addressed {
            uri,
            session_id,
            auth_header,
            custom_headers,
        };
        self.send(to, message, limits).await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        self.client
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let events = self
            .client
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await
            .inspect_err(unreached)?;
        Ok(self.keep_events(events))
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, StreamableHttpError<Self::Error>> {
        let events = self
            .client
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
            .inspect_err(unreached)?;
        Ok(self.keep_events(events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::RequestId;

    #[test]
    fn answers_and_notifications_are_kept_each_in_its_place() {
        let written = Verbatim::default();
        // An answer that speaks of notifications is an answer still.
        let answer = r#"{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"see \"notifications/progress\""}],"x":1}}"#;
        keep(&written, answer);
        let kept = written
            .take(&RequestId::Number(4))
            .expect("the answer kept");
        assert_eq!(kept["x"], 1);
        let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}"#;
        keep(&written, progress);
        let typed = serde_json::from_str(progress).unwrap();
        let params = written
            .take_notification(&typed)
            .expect("the progress kept");
        assert_eq!(params.to_string(), r#"{"progressToken":"t","progress":1}"#);
        assert_eq!(written.take_notification(&typed), None, "taken once");
        // A request of the upstream is neither.
        keep(
            &written,
            r#"{"jsonrpc":"2.0","id":5,"method":"roots/list"}"#,
        );
        assert_eq!(written.take(&RequestId::Number(5)), None);
    }
}
