//! The gateway: any MCP server (a stdio command, or streamable HTTP), served through the
//! layer so a tailoring file rewords its tools per reader — and nothing else changes.
//!
//! [`Gateway`] is an rmcp handler that forwards every request to the upstream and relays
//! back what the upstream sends: results and errors unchanged, progress (its token mapped
//! back to the client's), logging, resource updates, list-changed notifications, and the
//! upstream's own requests to the client (sampling, elicitation, roots). A 2026-07-28
//! `subscriptions/listen` is opened upstream and each notification relayed; `get_tool`
//! answers from the upstream's last listing (the HTTP server checks `Mcp-Param-*` headers
//! with it). Wrap it like any
//! handler — `Server::builder().handler(gateway).tailoring(file)` — and the layer lists its
//! tools tailored; `mcp-tailor proxy` does exactly that.
//!
//! **Sessions.** A downstream session (a client that went through `initialize`) gets an
//! upstream session of its own, opened on its first request with the client's own name,
//! capabilities and protocol version, so the upstream sees the real client and can send it
//! requests. Stateless requests (protocol 2026-07-28) share one upstream connection. The
//! gateway's `get_info` (capabilities, server info, instructions) is the upstream's, taken
//! by [`Gateway::connect`] on a first connection, which then serves the stateless requests.
//!
//! **Faults.** A request the upstream does not answer within the deadline is cancelled
//! upstream and answered with a JSON-RPC error; an upstream that exits answers every
//! in-flight request with an error at once. A dead connection is replaced on the next
//! session (or the next stateless request); the gateway itself keeps serving.

mod child;
mod connection;
mod forward;
mod inbound;
mod relay;

use connection::{Connection, Slot};
use rmcp::model::ServerConfig;
use std::sync::Arc;
use std::time::Duration;

pub use child::UpstreamExit;
pub use connection::UpstreamError;

/// Where the upstream server is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Upstream {
    /// A command serving MCP on its stdin and stdout, started once per connection.
    Command {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A streamable HTTP endpoint (`http://host:port/mcp`), with headers sent on every
    /// request (a bearer token, an API key).
    Http {
        /// The endpoint.
        url: String,
        /// Each header's name and value.
        headers: Vec<(String, String)>,
    },
}

impl Upstream {
    /// A streamable HTTP endpoint with no headers of its own.
    pub fn http(url: impl Into<String>) -> Upstream {
        Upstream::Http {
            url: url.into(),
            headers: Vec::new(),
        }
    }
}

impl std::fmt::Display for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Upstream::Command { program, args } => {
                write!(f, "{program}")?;
                args.iter().try_for_each(|a| write!(f, " {a}"))
            }
            // The headers stay out: they may hold secrets.
            Upstream::Http { url, .. } => f.write_str(url),
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
}

/// What every clone of a gateway shares.
struct GatewayState {
    upstream: Upstream,
    /// The upstream's `initialize` answer, as this server's.
    info: ServerConfig,
    /// The upstream's tools as last listed, by name: what `get_tool` answers (the HTTP
    /// server checks a call's `Mcp-Param-*` headers against the tool's schema with it).
    tools: std::sync::RwLock<std::collections::HashMap<String, rmcp::model::Tool>>,
    /// The connection stateless requests use.
    stateless: Slot,
    /// How long a forwarded request may take.
    deadline: Duration,
}

impl Clone for Gateway {
    fn clone(&self) -> Self {
        Gateway {
            shared: self.shared.clone(),
            session: Slot::default(),
        }
    }
}

impl Gateway {
    /// Connects to `upstream` once, to learn what it serves (capabilities, server info,
    /// instructions); that connection then serves stateless requests. `deadline` bounds
    /// every forwarded request (give the layer's request deadline or less).
    pub async fn connect(upstream: Upstream, deadline: Duration) -> Result<Gateway, UpstreamError> {
        let first = Connection::open(&upstream, None, None).await?;
        let info = first.server_info();
        let tools = match info.capabilities.tools {
            Some(_) => first.tools(&upstream).await?,
            None => Vec::new(),
        };
        let gateway = Gateway {
            shared: Arc::new(GatewayState {
                upstream,
                info,
                tools: Default::default(),
                stateless: Slot::holding(first),
                deadline,
            }),
            session: Slot::default(),
        };
        gateway.remember_tools(&tools, true);
        Ok(gateway)
    }

    /// Every tool `upstream` lists (all pages), over a connection of its own: what
    /// `mcp-tailor inspect` reads a server you don't own from.
    pub async fn fetch_tools(upstream: &Upstream) -> Result<Vec<rmcp::model::Tool>, UpstreamError> {
        Connection::open(upstream, None, None)
            .await?
            .tools(upstream)
            .await
    }

    /// Every tool the upstream lists now (all pages), over the shared connection.
    pub async fn upstream_tools(&self) -> Result<Vec<rmcp::model::Tool>, UpstreamError> {
        let upstream = &self.shared.upstream;
        let connection = self
            .shared
            .stateless
            .get(async || Connection::open(upstream, None, None).await)
            .await?;
        connection.tools(upstream).await
    }

    /// Keeps `tools` for `get_tool`: replacing what was kept when they are the whole list,
    /// else adding them (a page).
    fn remember_tools(&self, tools: &[rmcp::model::Tool], whole: bool) {
        let mut kept = self
            .shared
            .tools
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if whole {
            kept.clear();
        }
        kept.extend(tools.iter().map(|t| (t.name.to_string(), t.clone())));
    }

    /// The upstream this gateway forwards to.
    pub fn upstream(&self) -> &Upstream {
        &self.shared.upstream
    }
}
