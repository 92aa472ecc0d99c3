//! Per-session state: the reader a session chose for itself. Changing it sends
//! `notifications/tools/list_changed`, so the client lists again and sees the new wording.

use super::request::{Reader, RequestInfo};
use rmcp::{Peer, RoleServer};
use std::sync::{Arc, Mutex};

/// The state of one MCP session (one stdio connection, one HTTP session).
#[derive(Debug, Default)]
pub(crate) struct SessionState {
    reader: Mutex<Option<Reader>>,
}

impl SessionState {
    /// The reader the session chose, if any.
    pub(crate) fn reader(&self) -> Option<Reader> {
        self.reader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Changes the fields of the session's reader that `patch` sets, tells the client its
    /// tool list changed, and returns the session's new reader.
    pub(crate) async fn patch_reader(&self, patch: &Reader, peer: &Peer<RoleServer>) -> Reader {
        let reader = {
            let mut current = self.reader.lock().unwrap_or_else(|e| e.into_inner());
            let reader = current.take().unwrap_or_default().patched(patch);
            *current = Some(reader.clone());
            reader
        };
        if let Err(error) = peer.notify_tool_list_changed().await {
            tracing::debug!(%error, "could not send tools/list_changed");
        }
        reader
    }
}

/// What a tool handler gets besides its arguments.
pub struct CallContext {
    request: Arc<RequestInfo>,
    session: Arc<SessionState>,
    peer: Peer<RoleServer>,
}

impl CallContext {
    pub(crate) fn new(
        request: Arc<RequestInfo>,
        session: Arc<SessionState>,
        peer: Peer<RoleServer>,
    ) -> Self {
        CallContext {
            request,
            session,
            peer,
        }
    }

    /// The request: caller, client, `_meta`, headers, reader.
    pub fn request(&self) -> &RequestInfo {
        &self.request
    }

    /// The peer, to send notifications or requests to the client.
    pub fn peer(&self) -> &Peer<RoleServer> {
        &self.peer
    }

    /// Changes the reader of this session (only the fields it sets) and sends
    /// `notifications/tools/list_changed`.
    pub async fn set_session_reader(&self, reader: Reader) {
        self.session.patch_reader(&reader, &self.peer).await;
    }
}
