//! A built server: the configuration every session shares and the wrapped handler each
//! session clones, with what a host does with it outside a session (list for a request,
//! notify listeners, open a session). `Server::builder()` sits with the builder, in
//! `registry/builder.rs`.

use crate::server::listing::list::list_tools;
use crate::server::registry::inner::NoHandler;
use crate::server::request::info::RequestInfo;
use crate::server::request::reader::Reader;
use crate::server::session::handler::Session;
use crate::server::shared::Shared;
use crate::{Tailoring, ToolDef};
use rmcp::model::ListToolsResult;
use rmcp::{ErrorData, ServerHandler};
use std::sync::Arc;
use tokio::time::Instant;

/// A built server, wrapping the rmcp handler `H` (none by default). Cheap to clone; each
/// connection or HTTP session gets its own [`Session`] from [`Server::session`].
#[derive(Clone)]
pub struct Server<H = NoHandler> {
    shared: Arc<Shared>,
    inner: H,
}

impl<H> std::fmt::Debug for Server<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.shared.server_info.as_ref().map(|i| &i.name))
            .field("tools", &self.shared.catalog.entries().len())
            .finish_non_exhaustive()
    }
}

impl<H: ServerHandler + Clone> Server<H> {
    pub(crate) fn new(shared: Arc<Shared>, inner: H) -> Self {
        Server { shared, inner }
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
        let info = self.shared.resolve_reader(info, None, deadline).await;
        list_tools(&self.shared, &info, Vec::new(), cursor, deadline).await
    }

    /// The first `tools/list` page `reader` gets, as the caller `principal` on `protocol`:
    /// visibility, tailoring, presentation, paging and cache hints as on the wire, with the
    /// reader given rather than resolved (no context callback). For inspection tools.
    pub async fn list_tools_as(
        &self,
        reader: Reader,
        principal: crate::server::Principal,
        protocol: &str,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = Instant::now() + self.shared.deadline;
        let info = Arc::new(RequestInfo {
            protocol_version: Some(protocol.to_owned()),
            principal,
            reader,
            fallback_verbosity: self.shared.default_verbosity,
            ..RequestInfo::default()
        });
        list_tools(&self.shared, &info, Vec::new(), cursor, deadline).await
    }

    /// A fresh session: the `rmcp::ServerHandler` of one connection, with its own clone of
    /// the wrapped handler.
    pub fn session(&self) -> Session<H> {
        Session::new(self.shared.clone(), self.inner.clone())
    }

    /// The limits of the streamable HTTP server.
    #[cfg(feature = "http")]
    pub fn http_config(&self) -> &crate::server::limits::HttpConfig {
        &self.shared.http
    }

    /// The server's default verbosity.
    pub fn default_verbosity(&self) -> u8 {
        self.shared.default_verbosity
    }

    /// The registered tools' definitions, in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        self.shared.catalog.entries().iter().map(|e| e.def())
    }

    /// The wrapped handler (the template each session clones).
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// Tells every client of this server that its tool list changed: 2026-07-28
    /// `subscriptions/listen` streams that asked for `toolsListChanged`, and session-bound
    /// clients. Call it when what a tool's visibility depends on changes.
    pub async fn notify_tool_list_changed(&self) {
        self.shared.subscribers.tools_changed().await;
    }

    /// Swaps the tailoring file in force (atomically: a listing reads the old file or the
    /// new one, never a mix), then tells every client its tool list changed. Build with
    /// [`tailoring`](crate::server::ServerBuilder::tailoring) (an empty
    /// [`Tailoring::default`] will do) so listings are marked as varying by reader.
    pub async fn set_tailoring(&self, tailoring: Tailoring) {
        self.shared.file.set(tailoring);
        self.notify_tool_list_changed().await;
    }

    /// The tailoring file in force (empty when none was given).
    pub fn tailoring(&self) -> Arc<Tailoring> {
        self.shared.file.get().file.clone()
    }

    /// The number of clients that would hear [`notify_tool_list_changed`](Self::notify_tool_list_changed).
    pub fn listeners(&self) -> usize {
        self.shared.subscribers.len()
    }
}
