//! Session ids that say which replica holds the session (streamable HTTP, 2025 revisions).
//!
//! Behind a load balancer, a session-bound request must reach the process that created
//! its session. With `HttpConfig::replica_tag` set, every session id this process creates
//! is `{tag}.{random}`, so the balancer can route on the `Mcp-Session-Id` header alone (an
//! nginx `map` on a regular expression, for instance) while requests without a session go
//! to any replica. Everything else is rmcp's [`LocalSessionManager`], which this wraps.

use crate::direct::http::Declined;
use crate::direct::session::Directory;
use crate::verbatim;
use crate::verbatim::splice::restored_event;
use futures::future::Either;
use futures::{Stream, StreamExt as _};
use rmcp::model::{ClientJsonRpcMessage, GetExtensions, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker, create_local_session,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use rmcp::transport::worker::WorkerTransport;
use std::sync::Arc;

/// rmcp's local session table, its ids prefixed with a replica tag when there is one; the
/// requests that may go direct to their session's handler go so (`direct`).
pub(crate) struct TaggedSessions {
    /// The table; its keys are the ids clients see.
    pub(crate) local: LocalSessionManager,
    tag: Option<String>,
    direct: Directory,
}

impl TaggedSessions {
    pub(crate) fn new(local: LocalSessionManager, tag: Option<String>, direct: Directory) -> Self {
        TaggedSessions { local, tag, direct }
    }

    /// The directory of sessions whose requests may go direct (`direct::session`).
    pub(crate) fn directory(&self) -> &Directory {
        &self.direct
    }
}

/// Whether `message` comes from a POST the directory already declined.
fn declined(message: &ClientJsonRpcMessage) -> bool {
    let JsonRpcMessage::Request(request) = message else {
        return false;
    };
    let parts = request.request.extensions().get::<http::request::Parts>();
    parts.is_some_and(|parts| parts.extensions.get::<Declined>().is_some())
}

/// 128 random bits, in hex.
fn random_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl SessionManager for TaggedSessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let Some(tag) = &self.tag else {
            return self.local.create_session().await;
        };
        // As rmcp's own `create_session` does, with an id of ours.
        let id: SessionId = format!("{tag}.{}", random_id()).into();
        let (handle, worker) = create_local_session(id.clone(), self.local.session_config.clone());
        self.local.sessions.write().await.insert(id.clone(), handle);
        Ok((id, WorkerTransport::spawn(worker)))
    }

    fn initialize_session(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<ServerJsonRpcMessage, Self::Error>> + Send {
        let registration = self.direct.initializing(&mut message);
        let answer = self.local.initialize_session(id, message);
        async move {
            let answer = answer.await?;
            if let Some(registration) = registration {
                self.direct.initialized(id, &registration);
            }
            Ok(verbatim::restore_message(answer))
        }
    }

    fn has_session(
        &self,
        id: &SessionId,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send {
        self.local.has_session(id)
    }

    fn close_session(
        &self,
        id: &SessionId,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.direct.closed(id);
        self.local.close_session(id)
    }

    fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        let taking = match declined(&message) {
            true => None,
            false => self.direct.taking(id, &message),
        };
        let served = match (taking, message) {
            (Some(taking), JsonRpcMessage::Request(request)) => Ok(taking.answer(request)),
            (_, message) => Err(self.local.create_stream(id, message)),
        };
        async move {
            let stream = match served {
                Ok(answer) => Either::Left(answer),
                Err(stream) => Either::Right(stream.await?),
            };
            Ok(stream.map(restored_event))
        }
    }

    fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.direct.accepted(id, &message);
        self.local.accept_message(id, message)
    }

    fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        self.direct.heard(id);
        let open = self.direct.stream(id);
        let stream = self.local.create_standalone_stream(id);
        // (The stream counts as open while it is: `open` goes with it.)
        let restored = move |event| {
            let _open = &open;
            restored_event(event)
        };
        async move { stream.await.map(|stream| stream.map(restored)) }
    }

    fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> impl Future<
        Output = Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error>,
    > + Send {
        let resumed = self.direct.resume(id, &last_event_id).ok_or_else(|| {
            self.direct.heard(id);
            self.local.resume(id, last_event_id)
        });
        async move {
            let stream = match resumed {
                Ok(answer) => Either::Left(answer),
                Err(stream) => Either::Right(stream.await?),
            };
            Ok(stream.map(restored_event))
        }
    }

    fn restore_session(
        &self,
        id: SessionId,
    ) -> impl Future<Output = Result<RestoreOutcome<Self::Transport>, Self::Error>> + Send {
        self.local.restore_session(id)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.local.event_store()
    }
}
