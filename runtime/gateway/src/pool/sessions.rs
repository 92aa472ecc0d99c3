//! Which upstream connection a downstream session's requests go over: one of its own (a
//! connection opened before it came is taken when it was opened as this client would
//! open it, and a warm spare may be kept ready for the next), or one all sessions share.

use crate::Gateway;
use crate::GatewayState;
use crate::pool::connection::{Connection, gateway_client};
use crate::relay::downstream::SessionKey;
use crate::upstream::open::{Credential, UpstreamError};
use mcp_tailor_core::seam::Locked;
use mcp_tailor_server::seam::{Place, Shares};
use rmcp::model::{ClientCapabilities, ClientConfig};
use rmcp::service::{Peer, RoleServer};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How downstream sessions get an upstream connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpstreamSessions {
    /// Each session its own upstream session (a process, for a command upstream), opened
    /// with the client's own `initialize`: the upstream keeps per-client state as it would
    /// without the gateway. The first session takes the connection the gateway opened to
    /// learn the upstream when that client declares the same capabilities (none); that
    /// upstream session then knows the gateway's name and protocol version, not the client's.
    #[default]
    PerClient,
    /// One upstream session for every downstream session: requests the upstream sends a
    /// client (sampling, elicitation, roots) go to the session whose request is in flight,
    /// and are refused when that cannot be told; its notifications go to every session.
    Shared,
}

/// How a gateway serves its sessions.
#[derive(Clone, Debug)]
pub struct GatewayOptions {
    /// How long a forwarded request may take (give the layer's request deadline or less).
    pub deadline: Duration,
    /// One upstream per downstream session, or one shared.
    pub sessions: UpstreamSessions,
    /// Per client: keep a connection open ahead, opened as the last session's client was,
    /// so that the next session does not wait for the upstream to start.
    pub warm_spare: bool,
    /// Send a streamable HTTP upstream each client's own `Authorization` header: every
    /// connection then carries one client's credential (a session's own, or one shared
    /// by the sessions and stateless requests that send the same), never another's.
    pub forward_authorization: bool,
    /// Told of every request the gateway serves (for metrics); none by default.
    pub observer: Option<Observer>,
    /// Per client, for a command upstream: the upstream sessions (each a process) one
    /// holder may have open at once — the principal client auth proved, else the client's
    /// address. A session past it is answered an upstream failure naming the limit.
    /// Default 16. (An HTTP upstream's sessions cost no process here: not counted.)
    pub max_sessions_per_holder: usize,
}

/// Who holds a per-client upstream session: the principal client auth proved, else the
/// client's address, else (stdio) the one client.
fn holder(extensions: &rmcp::model::Extensions) -> String {
    let parts = extensions.get::<http::request::Parts>();
    let principal = parts.and_then(|p| p.extensions.get::<mcp_tailor_server::Principal>());
    let address = parts.and_then(|p| {
        p.extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
    });
    match (principal, address) {
        (Some(principal), _) => format!(
            "principal {} {}",
            principal.id,
            principal.tenant.as_deref().unwrap_or_default()
        ),
        (None, Some(address)) => format!("address {}", address.0.ip()),
        (None, None) => "local".to_owned(),
    }
}

/// The per-client upstream sessions each holder has open.
pub(crate) type Holders = Shares<String>;

/// One per-client upstream session counted against its holder; dropping it (with its
/// downstream session) gives the place back.
pub(crate) type Held = Place<String>;

/// One request a gateway served: its method (`custom` for a method of no revision), whether
/// it was answered with a result, and how long it took.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Served<'a> {
    /// The JSON-RPC method, e.g. `tools/call`.
    pub method: &'a str,
    /// A result (not an error: the upstream's, a deadline, an unreachable upstream).
    pub ok: bool,
    /// From the request's arrival at the gateway to its answer.
    pub elapsed: Duration,
}

/// What a gateway tells of each request it serves ([`Served`]).
#[derive(Clone)]
pub struct Observer(Arc<dyn Fn(&Served<'_>) + Send + Sync>);

impl Observer {
    /// An observer calling `observe` for every request served; it runs on the request's
    /// task, so it should only count.
    pub fn new(observe: impl Fn(&Served<'_>) + Send + Sync + 'static) -> Observer {
        Observer(Arc::new(observe))
    }

    pub(crate) fn served(&self, served: &Served<'_>) {
        (self.0)(served);
    }
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer(…)")
    }
}

impl Default for GatewayOptions {
    fn default() -> Self {
        GatewayOptions {
            deadline: Duration::from_secs(10),
            sessions: UpstreamSessions::PerClient,
            warm_spare: false,
            forward_authorization: false,
            observer: None,
            max_sessions_per_holder: 16,
        }
    }
}

/// What a shared connection declares: every client request a gateway can relay.
pub(crate) fn relayed_capabilities() -> ClientCapabilities {
    serde_json::from_value(serde_json::json!({
        "roots": {"listChanged": true},
        "sampling": {},
        "elicitation": {}
    }))
    .unwrap_or_default()
}

/// Whether `connection` may serve a session whose client is `client`, sending `credential`:
/// it began with `initialize`, as the session did, declared the same capabilities (so the
/// upstream asks it for nothing more or less) and carries the same credential.
fn fits(connection: &Connection, client: &ClientConfig, credential: &Credential) -> bool {
    let opened = connection.relay().info();
    connection.session_bound()
        && connection.credential() == credential
        && serde_json::to_value(&opened.capabilities).ok()
            == serde_json::to_value(&client.capabilities).ok()
}

impl GatewayState {
    /// Whether the upstream serves no `initialize` (a 2026-07-28 server need not): then a
    /// 2025 session has no upstream session of its own, and its requests go over the
    /// stateless connection as 2026-07-28 ones (`forward::bridged_meta`).
    pub(crate) fn bridges_sessions(&self) -> bool {
        !self.info.protocol_version.has_initialize()
    }

    /// A fresh key for a downstream session.
    pub(crate) fn next_session(&self) -> SessionKey {
        self.sessions_seen.fetch_add(1, Ordering::Relaxed)
    }

    /// The connection opened ahead, when it is alive and fits `client`; one that does not
    /// fit is closed (it would idle: a spare is opened again as this client).
    fn take_ready(&self, client: &ClientConfig, credential: &Credential) -> Option<Connection> {
        let mut ready = self.ready.locked();
        let connection = ready.take()?;
        (!connection.is_closed() && fits(&connection, client, credential)).then_some(connection)
    }

    /// Opens a connection as `client`, sending `credential`, in the background and keeps it
    /// ready.
    fn open_spare(self: &Arc<Self>, client: ClientConfig, credential: Credential) {
        let state = self.clone();
        tokio::spawn(async move {
            match Connection::open(&state.upstream, &state.learned, client, true, &credential).await
            {
                Ok(spare) => {
                    let old = state.ready.locked().replace(spare);
                    drop(old);
                }
                Err(error) => tracing::warn!("the warm spare did not open: {error}"),
            }
        });
    }
}

impl Gateway {
    /// Whose `Authorization` a request goes upstream with: its client's, when the gateway
    /// forwards it, else the gateway's.
    pub(crate) fn credential(&self, extensions: &rmcp::model::Extensions) -> Credential {
        if !self.shared.options.forward_authorization {
            return Credential::Gateway;
        }
        let value = extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.headers.get(http::header::AUTHORIZATION))
            .and_then(|value| value.to_str().ok());
        Credential::Client(value.map(str::to_owned))
    }

    /// The upstream connection of the session of `peer`, sending `credential`: its own
    /// (taken ready, or opened with its client's `initialize`, so the upstream sees the
    /// same client), or the shared one.
    pub(crate) async fn session_connection(
        &self,
        peer: &Peer<RoleServer>,
        credential: Credential,
        extensions: &rmcp::model::Extensions,
    ) -> Result<Arc<Connection>, UpstreamError> {
        let state = &self.shared;
        if state.options.sessions == UpstreamSessions::Shared {
            let connection = state
                .shared
                .slot(&credential)
                .get(async || {
                    let client = gateway_client(relayed_capabilities());
                    Connection::open(&state.upstream, &state.learned, client, true, &credential)
                        .await
                })
                .await?;
            connection.relay().downstream().join(self.key, peer);
            return Ok(connection);
        }
        let client = peer
            .peer_info()
            .map(|info| (*info).clone())
            .unwrap_or_else(|| gateway_client(ClientCapabilities::default()));
        let connection = self
            .session
            .get(async || {
                // A command's session is a process: its place among its holder's, taken
                // once, kept with the session. (An HTTP upstream's costs no process here.)
                let process = matches!(state.upstream, crate::Upstream::Command { .. });
                if process && self.held.get().is_none() {
                    let max = state.options.max_sessions_per_holder;
                    let held = state
                        .holders
                        .take_below(holder(extensions), max)
                        .ok_or_else(|| UpstreamError::Holder {
                            upstream: state.upstream.to_string(),
                            max,
                        })?;
                    let _ = self.held.set(held);
                }
                let connection = match state.take_ready(&client, &credential) {
                    Some(ready) => ready,
                    None => {
                        Connection::open(
                            &state.upstream,
                            &state.learned,
                            client.clone(),
                            true,
                            &credential,
                        )
                        .await?
                    }
                };
                connection.relay().downstream().bind(peer.clone());
                if state.options.warm_spare {
                    state.open_spare(client.clone(), credential.clone());
                }
                Ok(connection)
            })
            .await?;
        // The session's own connection carries the credential it was opened with: a
        // request sending another (a token refreshed, or someone else's) is not sent over it.
        if state.options.forward_authorization && connection.credential() != &credential {
            return Err(UpstreamError::Credential {
                upstream: state.upstream.to_string(),
            });
        }
        Ok(connection)
    }

    /// The connection stateless requests sending `credential` use: `server/discover` where
    /// the upstream speaks 2026-07-28, else `initialize`.
    pub(crate) async fn stateless_connection(
        &self,
        credential: Credential,
    ) -> Result<Arc<Connection>, UpstreamError> {
        let state = &self.shared;
        state
            .stateless
            .slot(&credential)
            .get(async || {
                let client = gateway_client(ClientCapabilities::default());
                Connection::open(&state.upstream, &state.learned, client, false, &credential).await
            })
            .await
    }
}
