//! Who gets a session when the table is full (streamable HTTP, 2025 revisions).
//!
//! A cap alone hands the service to whoever fills the table first: abandoned `initialize`s
//! would lock every new client out until the idle timeout. So a full table makes room:
//! the least recently used *idle* session is closed (its next request gets HTTP 404, on
//! which an MCP client starts a new session), never one with a request in flight — an
//! open response stream counts as one. One client address holds at most
//! `max_sessions_per_client` sessions: past it, that address's own least recently used
//! idle session makes room, so a flood from one address only ever evicts itself. When no
//! session can go, `initialize` is refused with HTTP 503 as before.
//!
//! Behind a reverse proxy the client address is the one a trusted proxy forwarded
//! (`HttpConfig::trusted_proxies`), so the per-address share still tells clients apart.
//!
//! A session also belongs to the caller that opened it ([`Owner`]): a request naming it
//! under another principal (or, without client auth, another `Authorization`) is answered
//! as if the session did not exist, so a session id never stands in for a credential.

use super::tagged::TaggedSessions;
use crate::http_config::HttpConfig;
use crate::request::info::Principal;
use crate::shares::{Place, Shares};
use mcp_tailor_core::seam::Locked;
use rmcp::transport::streamable_http_server::session::{SessionId, SessionManager};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The use of every session the front has seen open.
pub(crate) struct Admission {
    max_sessions: usize,
    max_per_client: usize,
    trusted_proxies: Vec<IpAddr>,
    uses: Mutex<HashMap<SessionId, Use>>,
}

/// One session's use.
struct Use {
    /// When its last request began or ended.
    last: Instant,
    /// Requests begun and not yet answered to the end of their body.
    in_flight: usize,
    /// The address that opened it, when the transport knows it.
    client: Option<IpAddr>,
    /// Who opened it.
    owner: Owner,
}

/// Who a request comes from, as far as sessions go: the principal client auth proved (its
/// id and tenant), else the `Authorization` it sent (a credential the server does not
/// check may still be forwarded upstream), else nobody. Kept as a digest: no credential
/// is held in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    digest: Option<[u8; 32]>,
    /// Whether the digest is of a principal client auth proved.
    proved: bool,
}

impl Owner {
    /// The owner of a request with these extensions and headers.
    pub(crate) fn of(extensions: &http::Extensions, headers: &http::HeaderMap) -> Owner {
        let mut digest = Sha256::new();
        let principal = extensions.get::<Principal>();
        if let Some(principal) = principal {
            digest.update(b"principal\0");
            digest.update(principal.id.as_bytes());
            digest.update(b"\0");
            digest.update(principal.tenant.as_deref().unwrap_or_default().as_bytes());
        } else if let Some(credential) = headers.get(http::header::AUTHORIZATION) {
            digest.update(b"authorization\0");
            digest.update(credential.as_bytes());
        } else {
            return Owner {
                digest: None,
                proved: false,
            };
        }
        Owner {
            digest: Some(digest.finalize().into()),
            proved: principal.is_some(),
        }
    }
}

/// No session can make room: every one the policy may close has a request in flight.
pub(crate) struct Full;

/// The event streams each principal holds open, at most `max` each.
pub(crate) struct Streams {
    max: usize,
    open: Arc<Shares<[u8; 32]>>,
}

/// One open event stream of a principal; dropping it (with the response body) closes it.
pub(crate) type Streaming = Place<[u8; 32]>;

impl Streams {
    pub(crate) fn new(config: &HttpConfig) -> Self {
        Streams {
            max: config.max_streams_per_principal,
            open: Arc::default(),
        }
    }

    /// A place for one more stream of the principal `owner` proves: `Ok(None)` when the
    /// request proves none (no client auth), `Err` when its share is full.
    pub(crate) fn begin(&self, owner: Owner) -> Result<Option<Streaming>, Full> {
        let (Some(principal), true) = (owner.digest, owner.proved) else {
            return Ok(None);
        };
        self.open
            .take_below(principal, self.max)
            .map(Some)
            .ok_or(Full)
    }
}

impl Admission {
    pub(crate) fn new(config: &HttpConfig) -> Self {
        Admission {
            max_sessions: config.max_sessions,
            max_per_client: config.max_sessions_per_client,
            trusted_proxies: config.trusted_proxies.clone(),
            uses: Mutex::default(),
        }
    }

    fn uses(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Use>> {
        self.uses.locked()
    }

    /// The address of the client behind a request from `peer`: the peer's own, or, when the
    /// peer is a trusted proxy, the right-most address of `forwarded` (`X-Forwarded-For`)
    /// that is not a trusted proxy itself (the peer's when the header names none).
    pub(crate) fn client(&self, peer: Option<IpAddr>, forwarded: Option<&str>) -> Option<IpAddr> {
        let trusted = |ip: &IpAddr| self.trusted_proxies.contains(ip);
        match (peer, forwarded) {
            (Some(peer), Some(forwarded)) if trusted(&peer) => forwarded
                .rsplit(',')
                .map_while(|hop| hop.trim().parse::<IpAddr>().ok())
                .find(|hop| !trusted(hop))
                .or(Some(peer)),
            _ => peer,
        }
    }

    /// Makes room for a session `client` is opening: closes the session the policy picks,
    /// if the table or the client's share of it is full.
    pub(crate) async fn make_room(
        &self,
        client: Option<IpAddr>,
        sessions: &TaggedSessions,
    ) -> Result<(), Full> {
        let victim = {
            // rmcp's table, read in place: no copy of its ids on every `initialize`.
            let live = sessions.local.sessions.read().await;
            let mut uses = self.uses();
            // Sessions rmcp closed (idle timeout, DELETE) are forgotten here too.
            uses.retain(|id, _| live.contains_key(id));
            let idle_lru = |of_client: bool| {
                uses.iter()
                    .filter(|(_, u)| u.in_flight == 0 && (!of_client || u.client == client))
                    .min_by_key(|(_, u)| u.last)
                    .map(|(id, _)| id.clone())
            };
            let held = uses.values().filter(|u| u.client == client).count();
            if client.is_some() && held >= self.max_per_client {
                Some(idle_lru(true).ok_or(Full)?)
            } else if live.len() >= self.max_sessions {
                Some(idle_lru(false).ok_or(Full)?)
            } else {
                None
            }
        };
        if let Some(id) = victim {
            self.uses().remove(&id);
            tracing::info!(session = %id, "session table full: least recently used idle session closed");
            if let Err(error) = sessions.close_session(&id).await {
                tracing::debug!(%error, "closing an evicted session");
            }
        }
        Ok(())
    }

    /// A session was opened by `client`, for `owner`.
    pub(crate) fn opened(&self, id: SessionId, client: Option<IpAddr>, owner: Owner) {
        self.uses().insert(
            id,
            Use {
                last: Instant::now(),
                in_flight: 0,
                client,
                owner,
            },
        );
    }

    /// Whether a request of `owner` may use session `id`: it opened it, or the session is
    /// not in the table (rmcp answers for an unknown one).
    pub(crate) fn belongs(&self, id: &SessionId, owner: Owner) -> bool {
        self.uses().get(id).is_none_or(|used| used.owner == owner)
    }

    /// A request on session `id` begins; it ends when the guard drops (with the response
    /// body, so an open stream keeps its session busy).
    pub(crate) fn begin(self: &Arc<Self>, id: SessionId) -> InUse {
        if let Some(used) = self.uses().get_mut(&id) {
            used.in_flight += 1;
            used.last = Instant::now();
        }
        InUse {
            admission: self.clone(),
            id,
        }
    }
}

/// A request in flight on a session; dropping it ends the request.
pub(crate) struct InUse {
    admission: Arc<Admission>,
    id: SessionId,
}

impl Drop for InUse {
    fn drop(&mut self) {
        if let Some(used) = self.admission.uses().get_mut(&self.id) {
            used.in_flight = used.in_flight.saturating_sub(1);
            used.last = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admission(trusted: &[&str]) -> Admission {
        Admission::new(&HttpConfig {
            trusted_proxies: trusted.iter().map(|ip| ip.parse().unwrap()).collect(),
            ..HttpConfig::default()
        })
    }

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn a_trusted_proxy_forwards_the_client_address() {
        let front = admission(&["10.0.0.1", "10.0.0.2"]);
        let forwarded = Some("203.0.113.9, 198.51.100.7, 10.0.0.2");
        // The right-most hop that is not a proxy: the address the first proxy saw.
        assert_eq!(front.client(ip("10.0.0.1"), forwarded), ip("198.51.100.7"));
        // Without the header, or with only proxies in it, the peer stands.
        assert_eq!(front.client(ip("10.0.0.1"), None), ip("10.0.0.1"));
        assert_eq!(
            front.client(ip("10.0.0.1"), Some("10.0.0.2")),
            ip("10.0.0.1")
        );
        // A hop that is not an address ends the walk: what lies left of it is unverified.
        assert_eq!(
            front.client(ip("10.0.0.1"), Some("203.0.113.9, junk")),
            ip("10.0.0.1")
        );
        assert_eq!(front.client(ip("10.0.0.1"), Some("::1")), ip("::1"));
    }

    #[test]
    fn any_other_peer_cannot_choose_its_address() {
        let front = admission(&["10.0.0.1"]);
        assert_eq!(
            front.client(ip("192.0.2.4"), Some("203.0.113.9")),
            ip("192.0.2.4")
        );
        assert_eq!(
            admission(&[]).client(ip("10.0.0.1"), Some("203.0.113.9")),
            ip("10.0.0.1")
        );
        assert_eq!(front.client(None, Some("203.0.113.9")), None);
    }
}
