//! Who an upstream connection's own requests and notifications go to: the one session it is
//! bound to, or — for a connection all sessions share — the session whose request is in
//! flight (requests), and every sharing session (notifications). A request goes with the
//! session's request it came during (streamable HTTP then carries it on that request's
//! stream, SEP-2260), where that can be told.

use mcp_tailor_core::seam::Locked;
use rmcp::ErrorData;
use rmcp::model::RequestId;
use rmcp::service::{InboundStreamOrigin, Peer, RequestContext, RoleClient, RoleServer};
use std::sync::{Mutex, OnceLock};

/// A downstream session, as the gateway tells sessions apart.
pub(crate) type SessionKey = u64;

/// A session's request in flight over this connection: which session sent it, under which
/// upstream id (known once sent), and its own id downstream (none for a request what comes
/// during it cannot name: a direct one, `server::direct`).
struct Forwarded {
    session: SessionKey,
    id: Option<RequestId>,
    peer: Peer<RoleServer>,
    theirs: Option<RequestId>,
}

/// Where an upstream request goes: the session, and the session's request it came during.
pub(crate) struct Asked {
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) during: Option<RequestId>,
}

/// The downstream side of one upstream connection.
#[derive(Default)]
pub(crate) struct Downstream {
    /// The session this connection is its own (a session-bound connection).
    bound: OnceLock<Peer<RoleServer>>,
    /// Requests of sharing sessions in flight over it.
    in_flight: Mutex<Vec<Forwarded>>,
    /// The sessions sharing it, by key.
    sharing: Sessions,
    /// The bridged 2025 sessions whose requests go over it (an upstream of 2026-07-28
    /// alone), by key: told its list changes, nothing else (what else it says belongs to a
    /// request, or to a 2026-07-28 listener).
    bridged: Sessions,
}

/// Sessions by key.
type Sessions = Mutex<Vec<(SessionKey, Peer<RoleServer>)>>;

/// Adds `session` to `sessions` (once; ended ones leave as another is added).
fn add(sessions: &Sessions, session: SessionKey, peer: &Peer<RoleServer>) {
    let mut sessions = sessions.locked();
    if sessions.iter().any(|(key, _)| *key == session) {
        return;
    }
    sessions.retain(|(_, p)| !p.is_transport_closed());
    sessions.push((session, peer.clone()));
}

/// The sessions of `sessions` still open (ended ones leave).
fn open(sessions: &Sessions) -> Vec<Peer<RoleServer>> {
    let mut sessions = sessions.locked();
    sessions.retain(|(_, p)| !p.is_transport_closed());
    sessions.iter().map(|(_, p)| p.clone()).collect()
}

impl Downstream {
    /// Makes this connection `peer`'s own; `false` when it already belongs to a session.
    pub(crate) fn bind(&self, peer: Peer<RoleServer>) -> bool {
        self.bound.set(peer).is_ok()
    }

    /// Adds a session to those sharing this connection (once; ended ones leave as another
    /// joins, and as `listeners` are read).
    pub(crate) fn join(&self, session: SessionKey, peer: &Peer<RoleServer>) {
        add(&self.sharing, session, peer);
    }

    /// Adds a bridged session to those told this connection's list changes (once; ended
    /// ones leave as another comes, and as [`Self::bridged`] is read).
    pub(crate) fn bridge(&self, session: SessionKey, peer: &Peer<RoleServer>) {
        add(&self.bridged, session, peer);
    }

    /// The bridged sessions, to tell a list change.
    pub(crate) fn bridged(&self) -> Vec<Peer<RoleServer>> {
        open(&self.bridged)
    }

    /// Notes a request of `session` about to be sent over this connection, until the
    /// returned guard is dropped: `theirs` is its id, for what the upstream asks during it
    /// to name (none for a direct request); [`Tracked::sent`] gives its upstream id.
    pub(crate) fn track(
        &self,
        session: SessionKey,
        peer: &Peer<RoleServer>,
        theirs: Option<RequestId>,
    ) -> Tracked<'_> {
        self.in_flight.locked().push(Forwarded {
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
    pub(crate) fn asked(&self, context: &RequestContext<RoleClient>) -> Result<Asked, ErrorData> {
        let in_flight = self.in_flight.locked();
        if let Some(InboundStreamOrigin::OutboundRequest(id)) =
            context.extensions.get::<InboundStreamOrigin>()
            && let Some(entry) = in_flight.iter().find(|e| e.id.as_ref() == Some(id))
        {
            return Ok(Asked {
                peer: entry.peer.clone(),
                during: entry.theirs.clone(),
            });
        }
        let only = |entries: &[Forwarded]| match entries {
            [one] => one.theirs.clone(),
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
    pub(crate) fn listeners(&self) -> Vec<Peer<RoleServer>> {
        if let Some(peer) = self.bound.get() {
            return vec![peer.clone()];
        }
        open(&self.sharing)
    }
}

/// A request of a session in flight over a shared connection; it ends when dropped.
pub(crate) struct Tracked<'a> {
    downstream: &'a Downstream,
    session: SessionKey,
    id: Option<RequestId>,
}

impl Tracked<'_> {
    /// The request went upstream as `id`.
    pub(crate) fn sent(&mut self, id: &RequestId) {
        let mut in_flight = self.downstream.in_flight.locked();
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
        let mut in_flight = self.downstream.in_flight.locked();
        if let Some(at) = in_flight
            .iter()
            .position(|e| e.session == self.session && e.id == self.id)
        {
            in_flight.swap_remove(at);
        }
    }
}
