//! A built server: the configuration every session shares and the wrapped handler each
//! session clones, with what a host does with it (list for a request, notify listeners,
//! open a session, serve a transport). `Server::builder()` sits with the builder, in
//! `build/builder.rs`.

use crate::catalog::wrapped::NoHandler;
use crate::listing::list::list_tools;
use crate::request::info::RequestInfo;
use crate::request::reader::Reader;
use crate::session::handler::Session;
use crate::session::server_state::ServerState;
use crate::transport::error::ServeError;
#[cfg(feature = "http")]
use crate::transport::http::{accept, serve};
use crate::transport::stdio;
use mcp_tailor_core::{Tailoring, ToolDef};
use rmcp::RoleServer;
use rmcp::model::{ListToolsResult, Tool};
use rmcp::transport::IntoTransport;
#[cfg(feature = "http")]
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
#[cfg(feature = "http")]
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, ServerHandler};
use std::sync::Arc;
use tokio::time::Instant;

/// A built server, wrapping the rmcp handler `H` (none by default). Cheap to clone; each
/// connection or HTTP session gets its own [`Session`] from [`Server::session`].
#[derive(Clone)]
pub struct Server<H = NoHandler> {
    shared: Arc<ServerState>,
    wrapped: H,
}

impl<H> std::fmt::Debug for Server<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.shared.server_info.as_ref().map(|i| &i.name))
            .field("tools", &self.shared.listing.catalog.entries().len())
            .finish_non_exhaustive()
    }
}

impl<H: ServerHandler + Clone> Server<H> {
    pub(crate) fn new(shared: Arc<ServerState>, wrapped: H) -> Self {
        Server { shared, wrapped }
    }

    /// The `tools/list` result a request described by `info` gets from the registered
    /// tools (its `reader` is resolved here, from its client name, headers and `_meta`),
    /// without a transport: for tests, prerendering and benchmarks. `info.principal` is
    /// used as given. The wrapped handler's tools need a request context, so they are not
    /// included.
    pub async fn list_tools_for(
        &self,
        info: RequestInfo,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = Instant::now() + self.shared.deadline;
        let info = self.shared.readers.resolve(info, None, deadline).await;
        list_tools(&self.shared.listing, &info, Vec::new(), cursor, deadline).await
    }

    /// The `tools/list` page at `cursor` (`None`: the first) `reader` gets, as the caller
    /// `principal` on `protocol`: visibility, tailoring, presentation, paging and cache
    /// hints as on the wire, with the reader given rather than resolved (no context
    /// callback). For inspection tools. The wrapped handler's tools need a request
    /// context, so they are not included ([`list_tools_wrapping`](Self::list_tools_wrapping)
    /// takes them given).
    pub async fn list_tools_as(
        &self,
        reader: Reader,
        principal: crate::Principal,
        protocol: &str,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.list_tools_wrapping(Vec::new(), reader, principal, protocol, cursor)
            .await
    }

    /// [`list_tools_as`](Self::list_tools_as), with `wrapped` as the wrapped handler's
    /// whole tool list (e.g. another server's, as the gateway or a captured catalog read
    /// it): tailored, filtered and paged with the registered tools, as on the wire — on
    /// the index surface where the server's default gives it (feature `index`).
    pub async fn list_tools_wrapping(
        &self,
        wrapped: Vec<Tool>,
        reader: Reader,
        principal: crate::Principal,
        protocol: &str,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = Instant::now() + self.shared.deadline;
        let info = Arc::new(RequestInfo {
            protocol_version: Some(protocol.to_owned()),
            principal,
            reader,
            fallback_verbosity: self.shared.readers.fallback_verbosity,
            ..RequestInfo::default()
        });
        #[cfg(feature = "index")]
        if let Some(surface) = self.shared.index_for(&info, None)? {
            let listing = &self.shared.listing;
            let found = Default::default();
            return crate::surface::index::index_listing(
                listing, surface, &info, wrapped, &found, cursor, deadline,
            )
            .await;
        }
        list_tools(&self.shared.listing, &info, wrapped, cursor, deadline).await
    }

    /// A fresh session: the `rmcp::ServerHandler` of one connection, with its own clone of
    /// the wrapped handler.
    pub fn session(&self) -> Session<H> {
        Session::new(self.shared.clone(), self.wrapped.clone())
    }

    /// The limits of the streamable HTTP server.
    #[cfg(feature = "http")]
    pub fn http_config(&self) -> &crate::http_config::HttpConfig {
        &self.shared.http
    }

    /// The server's fallback level: a request's level when neither its reader nor the
    /// description names one.
    pub fn fallback_verbosity(&self) -> u8 {
        self.shared.readers.fallback_verbosity
    }

    /// The server's fallback level.
    #[deprecated(
        note = "renamed `fallback_verbosity`: a table's own `default_verbosity` is another thing"
    )]
    pub fn default_verbosity(&self) -> u8 {
        self.fallback_verbosity()
    }

    /// The registered tools' definitions, in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        self.shared
            .listing
            .catalog
            .entries()
            .iter()
            .map(|e| e.def())
    }

    /// The wrapped handler (the template each session clones).
    pub fn wrapped(&self) -> &H {
        &self.wrapped
    }

    /// Tells every client of this server that its tool list changed: 2026-07-28
    /// `subscriptions/listen` streams that asked for `toolsListChanged`, and session-bound
    /// clients. Call it when what a tool's visibility depends on changes.
    pub async fn notify_tool_list_changed(&self) {
        self.shared.subscribers.tools_changed().await;
    }

    /// Swaps the tailoring file in force (atomically: a listing reads the old file or the
    /// new one, never a mix), then tells every client its tool list changed. Build with
    /// [`tailoring`](crate::ServerBuilder::tailoring) (an empty
    /// [`Tailoring::default`] will do) so listings are marked as varying by reader.
    pub async fn set_tailoring(&self, tailoring: Tailoring) {
        self.shared.listing.file.set(tailoring);
        self.notify_tool_list_changed().await;
    }

    /// The tailoring file in force (empty when none was given).
    pub fn tailoring(&self) -> Arc<Tailoring> {
        self.shared.listing.file.get().file.clone()
    }

    /// The number of clients that would hear [`notify_tool_list_changed`](Self::notify_tool_list_changed).
    pub fn listeners(&self) -> usize {
        self.shared.subscribers.len()
    }
}

/// Serving: stdio (or any rmcp transport), and streamable HTTP behind the connection limits
/// (feature `http`). The transports live in `server/transport`; these are their doors.
impl<H: ServerHandler + Clone> Server<H> {
    /// Serves one connection on any `rmcp` transport until the peer closes it. A failed
    /// `initialize` (say, an instructions provider error) leaves the connection open and
    /// unnegotiated; a later valid `initialize` is served.
    pub async fn serve_transport<T, E, A>(&self, transport: T) -> Result<(), ServeError>
    where
        T: IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        stdio::serve(|| self.session(), transport).await
    }

    /// Serves this process's stdin/stdout until the client closes them.
    pub async fn serve_stdio(&self) -> Result<(), ServeError> {
        self.serve_transport(rmcp::transport::stdio()).await
    }

    /// The streamable HTTP service (a `tower` service), one session per client, over
    /// `sessions`.
    #[cfg(feature = "http")]
    pub fn http_service(
        &self,
        config: StreamableHttpServerConfig,
        sessions: Arc<LocalSessionManager>,
    ) -> StreamableHttpService<Session<H>, LocalSessionManager> {
        let server = self.clone();
        serve::service(move || server.session(), config, sessions)
    }

    /// An `axum` router serving MCP at [`MCP_PATH`](crate::wire::MCP_PATH) with this
    /// server's [`HttpConfig`](crate::http_config::HttpConfig), one-message stateless
    /// replies as JSON (not an event stream), and rmcp's defaults otherwise (loopback hosts
    /// only; build your own router on [`http_service`](Self::http_service) for more).
    #[cfg(feature = "http")]
    pub fn router(&self) -> axum::Router {
        let server = self.clone();
        let reads_level_header = self.shared.readers.source.read_headers;
        serve::router(self.http_config().clone(), reads_level_header, move || {
            server.session()
        })
    }

    /// Serves streamable HTTP at `http://{addr}/mcp` until `shutdown` resolves.
    #[cfg(feature = "http")]
    pub async fn serve_http(
        &self,
        addr: std::net::SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener, self.router(), shutdown).await
    }

    /// Serves `router` (for example [`router`](Self::router) with the host's middleware) on
    /// a bound listener until `shutdown` resolves: at most `max_connections` at once, each
    /// with `TCP_NODELAY` and the header-read timeout. On shutdown it stops accepting and
    /// gives open connections 10 s to finish.
    #[cfg(feature = "http")]
    pub async fn serve_http_on(
        &self,
        listener: tokio::net::TcpListener,
        router: axum::Router,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        accept::serve(listener, router, self.http_config().clone(), shutdown).await
    }
}
