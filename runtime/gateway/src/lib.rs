//! # mcp-tailor-gateway
//!
//! Any MCP server (a stdio command, or streamable HTTP) behind the serving layer.
//! A tailoring file rewords its tools per reader; nothing else changes.
//! Wrap it like any handler: `Server::builder().handler(gateway).tailoring(file)`.
//!
//! ## What it passes on
//!
//! [`Gateway`] is an rmcp handler that forwards every request upstream and relays back:
//!
//! * results and errors;
//! * progress, its token mapped back, every notification of a request before its result;
//! * logging, resource updates, list-changed notifications;
//! * the upstream's requests to the client (sampling, elicitation, roots), sent with the
//!   client's request they came during (streamable HTTP carries them on its stream).
//!
//! A 2026-07-28 upstream's list changes are heard on one subscription per connection,
//! opened with it, and relayed to every listener that asked. `get_tool` answers from the
//! last listing (the HTTP server checks `Mcp-Param-*` headers with it). The upstream's
//! `tools/list` is read once per connection, page by page, and kept until its tools change
//! (or its 2026-07-28 cache hint runs out). Given [`Gateway::page_size`], the layer pages
//! as the upstream paged.
//!
//! ## Sessions ([`UpstreamSessions`])
//!
//! | mode | what a downstream session gets |
//! |---|---|
//! | per client (default) | an upstream session of its own, opened with the client's name, capabilities and protocol version; it ends with the session |
//! | shared | one upstream session for all: what the upstream asks goes to the session whose request it came during, else to the only one with a request in flight, else it is refused |
//!
//! * [`Gateway::connect_with`] opens one connection first, to learn the upstream; the first
//!   session whose client declares no capabilities takes it (one stdio client, one process).
//! * [`GatewayOptions::warm_spare`] keeps one connection open ahead.
//! * Stateless requests (2026-07-28) share one connection of their own.
//! * [`GatewayOptions::forward_authorization`]: each connection carries one client's own
//!   `Authorization`; a client that sends none is not lent the gateway's.
//! * A command upstream is a child process killed with its connection: none outlives the
//!   gateway (unless it is killed with `SIGKILL`; then each sees its stdin close).
//!
//! ## Faults
//!
//! * A command that exits before it answers: [`UpstreamError::Exited`], with its exit
//!   status and last stderr lines.
//! * No answer within the deadline: cancelled upstream, answered with a JSON-RPC error.
//! * An upstream that exits fails every in-flight request at once (an HTTP answer stream
//!   is first resumed twice, 1 s and 2 s apart).
//! * An HTTP error answering a POST is that request's answer; but a session the upstream
//!   lost (`404`, or `400` naming the session) is opened again and the request posted again.
//! * A dead connection is replaced on the next session or stateless request.

// The rooms, bottom to top: relay → upstream → pool → serve → fleet. Each imports only from the
// rooms before it (`tests/tests/house.rs` checks it).
pub mod fleet;
mod pool;
pub mod redact;
mod relay;
mod serve;
mod upstream;

use mcp_tailor_core::seam::Locked;
use pool::connection::{Connection, gateway_client};
use pool::sessions::{Held, Holders};
use pool::slot::{Slot, Slots};
use relay::downstream::SessionKey;
use rmcp::model::ServerConfig;
use std::sync::Arc;
use std::time::Duration;
use upstream::open::{Credential, Learned};

pub use pool::sessions::{GatewayOptions, Observer, Served, UpstreamSessions};
pub use relay::upstream_tools::UpstreamTools;
pub use upstream::counts::UpstreamCounts;
pub use upstream::open::UpstreamError;
pub use upstream::stdio::child::UpstreamExit;

/// Where the upstream server is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Upstream {
    /// A command serving MCP on its stdin and stdout, started once per connection.
    Command {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables set in its environment, over this process's own (which it inherits).
        env: Vec<(String, String)>,
        /// Variables of this process's environment it does not inherit: the gateway's own
        /// secrets, and other servers' (unless `env` sets them again).
        withheld: Vec<String>,
        /// Its stderr logged a line an event (target `mcp_tailor::upstream`, field
        /// `server`: this name, colours removed), for a log collector; `None` passes it on
        /// to this process's stderr as written.
        stderr_log: Option<String>,
    },
    /// A streamable HTTP endpoint (`http://host:port/mcp`), with headers sent on every
    /// request (a bearer token, an API key). A URL that refuses streamable HTTP's POST but
    /// opens an event stream to a GET is spoken to in the legacy HTTP+SSE transport
    /// (2024-11-05), as the specification's backwards compatibility asks.
    Http {
        /// The endpoint.
        url: String,
        /// Each header's name and value.
        headers: Vec<(String, String)>,
    },
}

impl Upstream {
    /// A command with these arguments, in this process's environment.
    pub fn command(program: impl Into<String>, args: Vec<String>) -> Upstream {
        Upstream::Command {
            program: program.into(),
            args,
            env: Vec::new(),
            withheld: Vec::new(),
            stderr_log: None,
        }
    }

    /// A streamable HTTP endpoint with no headers of its own.
    pub fn http(url: impl Into<String>) -> Upstream {
        Upstream::Http {
            url: url.into(),
            headers: Vec::new(),
        }
    }
}

/// How an upstream is named in logs and errors: the command and its arguments, or the URL,
/// with what may be a secret left out ([`redact`]); never its environment or headers.
impl std::fmt::Display for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Upstream::Command { program, args, .. } => {
                write!(f, "{program}")?;
                redact::arguments(args).try_for_each(|a| write!(f, " {a}"))
            }
            Upstream::Http { url, .. } => f.write_str(&redact::url(url)),
        }
    }
}

/// An rmcp handler forwarding to an upstream MCP server (see the module documentation).
/// Each clone (the layer makes one per session) opens its own upstream session when its
/// client is session-bound.
pub struct Gateway {
    shared: Arc<GatewayState>,
    /// This downstream session's own upstream session, opened on first use.
    session: Slot,
    /// This downstream session, as the gateway tells sessions apart.
    key: SessionKey,
    /// Per client: this session's place among its holder's upstream sessions.
    held: std::sync::OnceLock<Held>,
}

/// What every clone of a gateway shares.
struct GatewayState {
    upstream: Upstream,
    /// What opening connections to it learned (that it serves legacy HTTP+SSE).
    learned: Learned,
    options: GatewayOptions,
    /// The upstream's `initialize` answer, as this server's.
    info: ServerConfig,
    /// The upstream's tools as last listed, by name: what `get_tool` answers (the HTTP
    /// server checks a call's `Mcp-Param-*` headers against the tool's schema with it).
    tools: std::sync::RwLock<std::collections::HashMap<String, rmcp::model::Tool>>,
    /// Whether a whole listing was read (the first one can fail).
    listed: std::sync::atomic::AtomicBool,
    /// Bumped each time a listing changes what `tools` holds.
    tools_changed: tokio::sync::watch::Sender<u64>,
    /// Tools a page of the upstream's own listing, as first read (`None`: one page).
    page_size: Option<usize>,
    /// The connection stateless requests use, per credential.
    stateless: Slots,
    /// Shared: the connection every session uses, per credential.
    shared: Slots,
    /// Per client: a connection opened before its session came (the first one, then a
    /// warm spare), for the next session it fits.
    ready: std::sync::Mutex<Option<Connection>>,
    /// How many session keys were given out.
    sessions_seen: std::sync::atomic::AtomicU64,
    /// Per client: the upstream sessions each holder has open.
    holders: Arc<Holders>,
}

impl Clone for Gateway {
    fn clone(&self) -> Self {
        Gateway {
            shared: self.shared.clone(),
            session: Slot::default(),
            key: self.shared.next_session(),
            held: std::sync::OnceLock::new(),
        }
    }
}

impl Gateway {
    /// [`connect_with`](Self::connect_with) the default options and `deadline`.
    pub async fn connect(upstream: Upstream, deadline: Duration) -> Result<Gateway, UpstreamError> {
        let options = GatewayOptions {
            deadline,
            ..GatewayOptions::default()
        };
        Gateway::connect_with(upstream, options).await
    }

    /// Connects to `upstream` once, to learn what it serves (capabilities, server info,
    /// instructions, tools). That connection is then the first session's (per client,
    /// when it fits that client) or every session's (shared).
    pub async fn connect_with(
        upstream: Upstream,
        options: GatewayOptions,
    ) -> Result<Gateway, UpstreamError> {
        let shared = options.sessions == UpstreamSessions::Shared;
        let capabilities = match shared {
            true => pool::sessions::relayed_capabilities(),
            false => Default::default(),
        };
        // With `initialize`, as a session's own: the first session whose client declares the
        // same capabilities takes it (per client), or every session shares it. An upstream
        // that refuses it (a 2026-07-28 server need not serve `initialize`) is asked with
        // `server/discover`: then only stateless requests reach it.
        let learned = Learned::default();
        let client = gateway_client(capabilities);
        let first = Connection::open_initialize_first(&upstream, &learned, client).await?;
        let mut info = first.server_info();
        keep_verbatim_capabilities(&first, &mut info);
        // A listing that fails (a server that lists its tools from a service it cannot
        // reach yet) is no reason not to serve: its clients' own listings go upstream.
        let (tools, first_page) = match info.capabilities.tools {
            Some(_) => match first.tools(&upstream).await {
                Ok((tools, page)) => (Some(tools), Some(page)),
                Err(error @ UpstreamError::Listing { .. }) => {
                    tracing::warn!("{error}");
                    (None, None)
                }
                Err(error) => return Err(error),
            },
            None => (Some(UpstreamTools::default()), None),
        };
        if let Some(page) = first_page {
            first.relay().listing().put(None, &page);
        }
        // An upstream of 2026-07-28 alone serves every request, a session's too, over the
        // stateless connection (`GatewayState::bridges_sessions`): the first is that one.
        let (shared_slot, ready, stateless) = match (first.session_bound(), shared) {
            (false, _) => (Slots::default(), None, Slots::holding(first)),
            (true, true) => (Slots::holding(first), None, Slots::default()),
            (true, false) => (Slots::default(), Some(first), Slots::default()),
        };
        let state = Arc::new(GatewayState {
            upstream,
            learned,
            options,
            info,
            tools: Default::default(),
            listed: Default::default(),
            tools_changed: tokio::sync::watch::Sender::new(0),
            page_size: tools.as_ref().and_then(|listed| listed.page_size),
            stateless,
            shared: shared_slot,
            ready: std::sync::Mutex::new(ready),
            sessions_seen: Default::default(),
            holders: Arc::default(),
        });
        let gateway = Gateway {
            key: state.next_session(),
            shared: state,
            session: Slot::default(),
            held: std::sync::OnceLock::new(),
        };
        if let Some(listed) = tools {
            gateway.remember_tools(&listed.tools, true);
        }
        Ok(gateway)
    }

    /// Every tool `upstream` lists (all pages) and how it pages them, over a connection of
    /// its own: what `mcp-tailor inspect` reads a server you don't own from. The connection
    /// begins with `initialize`, as `proxy`'s first one does, `server/discover` tried where
    /// that fails.
    pub async fn fetch_tools(upstream: &Upstream) -> Result<UpstreamTools, UpstreamError> {
        let client = gateway_client(Default::default());
        let learned = Learned::default();
        let connection = Connection::open_initialize_first(upstream, &learned, client).await?;
        Ok(connection.tools(upstream).await?.0)
    }

    /// Every tool the upstream lists now (all pages), over the stateless connection.
    pub async fn upstream_tools(&self) -> Result<UpstreamTools, UpstreamError> {
        let connection = self.stateless_connection(Credential::Gateway).await?;
        Ok(connection.tools(&self.shared.upstream).await?.0)
    }

    /// Tools a page of the upstream's own `tools/list`, as the gateway first read it;
    /// `None` where it listed them all on one page (or that listing failed). A proxy pages
    /// as its upstream does: give the server wrapping the gateway this page size
    /// (`ServerBuilder::page_size`, `usize::MAX` for one page), as `mcp-tailor proxy` does,
    /// so that a client that follows no cursor still gets every tool it would directly.
    pub fn page_size(&self) -> Option<usize> {
        self.shared.page_size
    }

    /// The upstream's tools as it last listed them (to this gateway, or to a client through
    /// it), without asking it again; `None` while no whole listing was read (the first one
    /// failed, and no client has listed since).
    pub fn listed_tools(&self) -> Option<Vec<rmcp::model::Tool>> {
        let kept = self.shared.tools.locked();
        if !self
            .shared
            .listed
            .load(std::sync::atomic::Ordering::Acquire)
        {
            return None;
        }
        let mut tools: Vec<rmcp::model::Tool> = kept.values().cloned().collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        Some(tools)
    }

    /// Hears each time a listing of the upstream changes what
    /// [`listed_tools`](Self::listed_tools) answers: a tool added, gone or reworded (a
    /// client listed again after the upstream said its tools changed).
    pub fn tools_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shared.tools_changed.subscribe()
    }

    /// Keeps `tools` for `get_tool`: replacing what was kept when they are the whole list,
    /// else adding them (a page). Tells `tools_changed` when that changes what is kept.
    fn remember_tools(&self, tools: &[rmcp::model::Tool], whole: bool) {
        let mut kept = self.shared.tools.locked_mut();
        if whole {
            self.shared
                .listed
                .store(true, std::sync::atomic::Ordering::Release);
        }
        let same = (!whole || kept.len() == tools.len())
            && tools.iter().all(|t| kept.get(&*t.name) == Some(t));
        if same {
            return;
        }
        if whole {
            kept.clear();
        }
        kept.extend(tools.iter().map(|t| (t.name.to_string(), t.clone())));
        drop(kept);
        self.shared.tools_changed.send_modify(|n| *n += 1);
    }

    /// The connections opened to the upstream, open now and lost (the upstream ended
    /// them), since the gateway began.
    pub fn upstream_counts(&self) -> UpstreamCounts {
        self.shared.learned.counts.read()
    }

    /// The upstream this gateway forwards to.
    pub fn upstream(&self) -> &Upstream {
        &self.shared.upstream
    }
}

/// Carries what `info`'s capabilities could not hold of the upstream's handshake, as it
/// wrote it (a capability of another revision), and the order of its result's fields, in
/// the capabilities' `experimental` object, to be put back where the client's
/// `initialize` is answered (`server::verbatim`).
fn keep_verbatim_capabilities(first: &Connection, info: &mut ServerConfig) {
    let Some(written) = first.written().handshake() else {
        return;
    };
    let Ok(held) = serde_json::to_value(&info.capabilities) else {
        return;
    };
    if let Some(carried) = mcp_tailor_server::seam::verbatim::handshake(&written, &held) {
        info.capabilities
            .experimental
            .get_or_insert_with(Default::default)
            .insert(mcp_tailor_server::seam::verbatim::KEY.to_owned(), carried);
    }
}
