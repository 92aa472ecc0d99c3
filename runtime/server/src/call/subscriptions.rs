//! Who hears that the tool list changed: 2026-07-28 `subscriptions/listen` streams that
//! accepted `toolsListChanged`, and the peers of session-bound (2025) connections.

use mcp_tailor_core::seam::Locked;
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Every listener of one server, across its sessions.
#[derive(Debug, Default)]
pub(crate) struct Subscribers {
    next: AtomicU64,
    streams: Mutex<HashMap<u64, SubscriptionSink>>,
    sessions: Mutex<Vec<Peer<RoleServer>>>,
}

/// Removes a stream from [`Subscribers`] when its `subscriptions/listen` ends.
pub(crate) struct StreamGuard<'a> {
    subscribers: &'a Subscribers,
    id: u64,
}

impl Drop for StreamGuard<'_> {
    fn drop(&mut self) {
        self.subscribers.streams.locked().remove(&self.id);
    }
}

impl Subscribers {
    /// Adds a `subscriptions/listen` stream until the guard drops.
    pub(crate) fn listen(&self, sink: SubscriptionSink) -> StreamGuard<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.streams.locked().insert(id, sink);
        StreamGuard {
            subscribers: self,
            id,
        }
    }

    /// Adds a session-bound peer (once; closed peers are dropped as they are found).
    pub(crate) fn add_session(&self, peer: &Peer<RoleServer>) {
        let mut sessions = self.sessions.locked();
        sessions.retain(|p| !p.is_transport_closed());
        sessions.push(peer.clone());
    }

    /// The number of open listeners: streams and session-bound peers.
    pub(crate) fn len(&self) -> usize {
        let sessions = self
            .sessions
            .locked()
            .iter()
            .filter(|p| !p.is_transport_closed())
            .count();
        self.streams.locked().len() + sessions
    }

    /// Sends `notifications/tools/list_changed` to every listener.
    pub(crate) async fn tools_changed(&self) {
        let streams: Vec<SubscriptionSink> = self.streams.locked().values().cloned().collect();
        let sessions: Vec<Peer<RoleServer>> = {
            let mut sessions = self.sessions.locked();
            sessions.retain(|p| !p.is_transport_closed());
            sessions.clone()
        };
        for stream in streams {
            if let Err(error) = stream.notify_tool_list_changed().await {
                tracing::debug!(%error, "could not notify a subscription stream");
            }
        }
        for peer in sessions {
            if let Err(error) = peer.notify_tool_list_changed().await {
                tracing::debug!(%error, "could not notify a session");
            }
        }
    }
}
