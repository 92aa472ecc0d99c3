//! Who an upstream connection's own requests and notifications go to: the one session it is
//! bound to, or — for a connection all sessions share — the session whose request is in
//! flight (requests), and every sharing session (notifications). A request goes with the
//! session's request it came during (streamable HTTP then carries it on that request's
//! stream, SEP-2260), where that can be told.

use rmcp::ErrorData;
use rmcp::model::RequestId;
use rmcp::service::{InboundStreamOrigin, Peer, RequestContext, RoleClient, RoleServer};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// A downstream session, as the gateway tells sessions apart.
pub(super) type SessionKey = u64;

/// A session's request in flight over this connection: which session sent it, under which
/// upstream id (known once sent), and its own id downstream.
struct InFlight {
    session: SessionKey,
    id: Option<RequestId>,
    peer: Peer<RoleServer>,
    theirs: RequestId,
}

/// Where an upstream request goes: the session, and the session's request it came during.
pub(super) struct Asked {
    pub(super) peer: Peer<RoleServer>,
    pub(super) during: Option<RequestId>,
}

/// The downstream side of one upstream connection.
#[derive(Default)]
pub(super) struct Downstream {
    /// The session this connection is its own (a session-bound connection).
    bound: OnceLock<Peer<RoleServer>>,
    /// Requests of sharing sessions in flight over it.
    in_flight: Mutex<Vec<InFlight>>,
    /// The sessions sharing it, by key.
    sharing: Mutex<Vec<(SessionKey, Peer<RoleServer>)>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Downstream {
    /// Makes this connection `peer`'s own; `false` when it already belongs to a session.
    pub(super) fn bind(&self, peer: Peer<RoleServer>) -> bool {
        self.bound.set(peer).is_ok()
    }

    /// Adds a session to those sharing this connection (once; ended ones leave as another
    /// joins, and as `listeners` are read).
    pub(super) fn join(&self, session: SessionKey, peer: &Peer<RoleServer>) {
        let mut sharing = lock(&self.sharing);
        if sharing.iter().any(|(key, _)| *key == session) {
            return;
        }
        sharing.retain(|(_, p)| !p.is_transport_closed());
        sharing.push((session, peer.clone()));
    }

    /// Notes the request `theirs` of `session` about to be sent over this connection, until
    /// the returned guard is dropped; [`Tracked::sent`] gives its upstream id.
    pub(super) fn track(
        &self,
        session: SessionKey,
        peer: &Peer<RoleServer>,
        theirs: RequestId,
    ) -> Tracked<'_> {
        lock(&self.in_flight).push(InFlight {
            session,
            id: None,
            peer: peer.clone(),
            theirs,
        });
        Tracked {
            downstream: self,
            session,
            id: None,
        }
    }

    /// Where an upstream request goes: with the session's request it came during (the
    /// streamable HTTP upstream says which), else to the bound session, else — shared — to
    /// the only session with requests in flight; with its request when it has one only.
    /// Refused when no session can be told.
    pub(super) fn asked(&self, context: &RequestContext<RoleClient>) -> Result<Asked, ErrorData> {
        let in_flight = lock(&self.in_flight);
        if let Some(InboundStreamOrigin::OutboundRequest(id)) =
            context.extensions.get::<InboundStreamOrigin>()
            && let Some(entry) = in_flight.iter().find(|e| e.id.as_ref() == Some(id))
        {
            return Ok(Asked {
                peer: entry.peer.clone(),
                during: Some(entry.theirs.clone()),
            });
        }
        let only = |entries: &[InFlight]| match entries {
            [one] => Some(one.theirs.clone()),
            _ => None,
        };
        if let Some(peer) = self.bound.get() {
            return Ok(Asked {
                peer: peer.clone(),
                during: only(&in_flight),
            });
        }
        match in_flight.first().map(|e| e.session) {
            Some(first) if in_flight.iter().all(|e| e.session == first) => Ok(Asked {
                peer: in_flight[0].peer.clone(),
                during: only(&in_flight),
            }),
            Some(_) => Err(ErrorData::invalid_request(
                "no client to ask: the upstream is shared by sessions that each have a request \
                 in flight, and its request does not say whose it is (serve each session its \
                 own upstream: --upstream-sessions per-client)",
                None,
            )),
            None => Err(ErrorData::invalid_request(
                "no client to ask: no session has a request in flight over this upstream \
                 connection",
                None,
            )),
        }
    }

    /// The sessions an upstream notification goes to: the bound one, or every sharing one.
    pub(super) fn listeners(&self) -> Vec<Peer<RoleServer>> {
        if let Some(peer) = self.bound.get() {
            return vec![peer.clone()];
        }
        let mut sharing = lock(&self.sharing);
        sharing.retain(|(_, p)| !p.is_transport_closed());
        sharing.iter().map(|(_, p)| p.clone()).collect()
    }
}

/// A request of a session in flight over a shared connection; it ends when dropped.
pub(super) struct Tracked<'a> {
    downstream: &'a Downstream,
    session: SessionKey,
    id: Option<RequestId>,
}

impl Tracked<'_> {
    /// The request went upstream as `id`.
    pub(super) fn sent(&mut self, id: &RequestId) {
        let mut in_flight = lock(&self.downstream.in_flight);
        if let Some(entry) = in_flight
            .iter_mut()
            .find(|e| e.session == self.session && e.id.is_none())
        {
            entry.id = Some(id.clone());
            self.id = Some(id.clone());
        }
    }
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        let mut in_flight = lock(&self.downstream.in_flight);
        if let Some(at) = in_flight
            .iter()
            .position(|e| e.session == self.session && e.id == self.id)
        {
            in_flight.swap_remove(at);
        }
    }
}
