//! A live connection to the upstream (opened by `open`): its peer, its listing, what it
//! keeps as written.

use crate::Upstream;
use crate::relay::Relay;
use crate::relay::changes::Changes;
use crate::relay::upstream_tools::UpstreamTools;
use crate::upstream::counts::Counts;
use crate::upstream::http::legacy_sse::SseTasks;
use crate::upstream::inbound::ProgressRoutes;
use crate::upstream::lane::http::HttpLane;
use crate::upstream::lane::stdio::Lane;
use crate::upstream::open::{Credential, Learned, Opening, UpstreamError, request_headers};
use crate::upstream::stdio::child::{Child, Spawn};
use crate::upstream::verbatim::answer::Answer;
use crate::upstream::verbatim::store::Verbatim;
use futures::future::BoxFuture;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, Implementation, ListToolsRequest,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerConfig,
};
use rmcp::service::{ClientLifecycleMode, Peer, RoleClient, RunningService};
use std::sync::Arc;

/// One live connection to the upstream.
pub(crate) struct Connection {
    service: RunningService<RoleClient, Relay>,
    /// Where progress of the requests in flight goes.
    progress: ProgressRoutes,
    /// A command upstream's process, killed when the connection is dropped.
    _child: Option<Child>,
    /// A legacy HTTP+SSE upstream's stream and poster, ended when it is dropped.
    _stream: Option<SseTasks>,
    /// Whose `Authorization` it sends a streamable HTTP upstream.
    credential: Credential,
    /// Its answers as the upstream wrote them (a command's; an HTTP upstream's that came as
    /// events).
    written: Verbatim,
    /// A 2026-07-28 upstream's list changes, heard from the start (`changes`).
    changes: Option<Changes>,
    /// A line transport's lane (a command's, a legacy HTTP+SSE upstream's), when it began
    /// with `initialize` (`lane::stdio`).
    lane: Option<Lane>,
    /// A streamable HTTP upstream's lane, when it began with `initialize` (`lane::http`).
    http_lane: Option<HttpLane>,
    /// Where it counts itself out when dropped.
    counts: Arc<Counts>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.counts.closed(self.is_closed());
    }
}

/// The client a connection opened before any session came is opened as: the gateway, with
/// `capabilities`.
pub(crate) fn gateway_client(capabilities: ClientCapabilities) -> ClientConfig {
    ClientConfig::new(
        capabilities,
        Implementation::new("mcp-tailor-gateway", env!("CARGO_PKG_VERSION")),
    )
}

impl Connection {
    /// Opens a connection as `client`: with `initialize` (a session's own connection, or one
    /// a session may take) or, not `initialize`, with `server/discover` where the upstream speaks
    /// 2026-07-28 (the connection of stateless requests). A streamable HTTP upstream is sent
    /// the `Authorization` of `credential`; a URL that turns out to serve the legacy HTTP+SSE
    /// transport is spoken to in it (`legacy_sse`), with `initialize`, and `learned` keeps
    /// that for the next connections. (Opening is boxed: its futures — a process, an HTTP
    /// client, rmcp's handshake — would otherwise be part of every request's that may open
    /// a connection, too large for a debug build's stack.)
    pub(crate) fn open<'a>(
        upstream: &'a Upstream,
        learned: &'a Learned,
        client: ClientConfig,
        initialize: bool,
        credential: &'a Credential,
    ) -> BoxFuture<'a, Result<Connection, UpstreamError>> {
        Box::pin(async move {
            let lifecycle = match initialize {
                true => ClientLifecycleMode::Initialize,
                false => ClientLifecycleMode::Auto {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    legacy_version: None,
                },
            };
            let opening = Opening {
                name: upstream.to_string(),
                relay: Relay::new(client),
                progress: ProgressRoutes::default(),
                written: Verbatim::default(),
            };
            let opened = match upstream {
                Upstream::Command {
                    program,
                    args,
                    env,
                    withheld,
                    stderr_log,
                } => {
                    let spawn = Spawn {
                        program,
                        args,
                        env,
                        withheld,
                        stderr_log: stderr_log.as_deref(),
                    };
                    opening.command(&spawn, lifecycle).await?
                }
                Upstream::Http { url, headers } => {
                    let headers = request_headers(headers, credential)
                        .map_err(|reason| opening.handshake(reason))?;
                    opening.http(url, headers, lifecycle, learned).await?
                }
            };
            let mut connection = Connection {
                service: opened.service,
                progress: opening.progress,
                _child: opened.child,
                _stream: opened.stream,
                credential: credential.clone(),
                written: opening.written,
                changes: None,
                lane: opened.lane,
                http_lane: opened.http_lane,
                counts: learned.counts.clone(),
            };
            learned.counts.opened();
            if !connection.session_bound() {
                connection.lane = None;
                connection.http_lane = None;
                let relay = connection.relay().clone();
                connection.changes = Changes::open(connection.peer(), relay).await;
            }
            Ok(connection)
        })
    }

    /// Opens a connection as `client` with `initialize`, as most clients begin (a server of
    /// an older SDK answers a `server/discover` probe, but may log its refusal at length:
    /// the Python SDK's 1.x, some 60 lines); where that handshake fails, with
    /// `server/discover` (a 2026-07-28 server need not serve `initialize`, but answers it:
    /// an upstream that answered nothing is not asked again).
    pub(crate) async fn open_initialize_first(
        upstream: &Upstream,
        learned: &Learned,
        client: ClientConfig,
    ) -> Result<Connection, UpstreamError> {
        let gateway = Credential::Gateway;
        match Connection::open(upstream, learned, client.clone(), true, &gateway).await {
            Err(UpstreamError::Handshake { reason, .. }) => {
                tracing::info!("`initialize` failed ({reason}): trying `server/discover`");
                Connection::open(upstream, learned, client, false, &gateway).await
            }
            opened => opened,
        }
    }

    /// The upstream, to send requests to.
    pub(crate) fn peer(&self) -> &Peer<RoleClient> {
        self.service.peer()
    }

    /// Every tool the upstream lists (all pages) and how it paged them, and its first page
    /// as it came; `upstream` names it in the error.
    pub(crate) async fn tools(
        &self,
        upstream: &Upstream,
    ) -> Result<(UpstreamTools, ListToolsResult), UpstreamError> {
        let failed = |e: rmcp::ServiceError| UpstreamError::Listing {
            upstream: upstream.to_string(),
            reason: match e {
                rmcp::ServiceError::McpError(error) => format!(
                    "it answered tools/list with error {}: {}",
                    error.code.0, error.message
                ),
                other => format!("tools/list failed: {other}"),
            },
        };
        // Each page as the gateway lists it to clients (carrying what rmcp's types could
        // not hold of it); the first is the listing a first session takes.
        let first = self.tools_page(None).await.map_err(failed)?;
        let mut tools = first.tools.clone();
        let page_size = first.next_cursor.is_some().then_some(tools.len().max(1));
        let mut cursor = first.next_cursor.clone();
        while let Some(next) = cursor {
            let params = PaginatedRequestParams::default().with_cursor(Some(next));
            let page = self.tools_page(Some(params)).await.map_err(failed)?;
            tools.extend(page.tools);
            cursor = page.next_cursor;
        }
        Ok((UpstreamTools { tools, page_size }, first))
    }

    /// One page of the upstream's `tools/list`, each tool carrying what it lost of its form
    /// as written.
    async fn tools_page(
        &self,
        params: Option<PaginatedRequestParams>,
    ) -> Result<ListToolsResult, rmcp::ServiceError> {
        let request = ClientRequest::ListToolsRequest(match params {
            Some(params) => ListToolsRequest::with_param(params),
            None => ListToolsRequest::default(),
        });
        let options = rmcp::service::PeerRequestOptions::no_options();
        let handle = self
            .peer()
            .send_cancellable_request(request, options)
            .await?;
        let id = handle.id.clone();
        let answer = handle.await_response().await?;
        let mut page = ListToolsResult::read(answer).map_err(rmcp::ServiceError::McpError)?;
        if let Some(written) = self.written.take(&id) {
            page.keep_verbatim(&written);
        }
        Ok(page)
    }

    /// Where requests are sent past rmcp's client loop, when they can be (`lane::stdio`).
    pub(crate) fn lane(&self) -> Option<&Lane> {
        self.lane.as_ref()
    }

    /// Where requests are posted past rmcp's client worker, when they can be (`lane::http`).
    pub(crate) fn http_lane(&self) -> Option<&HttpLane> {
        self.http_lane.as_ref()
    }

    /// Where the progress of this connection's requests in flight goes.
    pub(crate) fn progress(&self) -> &ProgressRoutes {
        &self.progress
    }

    /// This connection's client side: who hears it, its listing, what it was opened as.
    pub(crate) fn relay(&self) -> &Relay {
        self.service.service()
    }

    /// Its answers as the upstream wrote them, by request id.
    pub(crate) fn written(&self) -> &Verbatim {
        &self.written
    }

    /// The list changes this connection hears for every listener, when it has its own
    /// subscription to them (a 2026-07-28 upstream).
    pub(crate) fn changes(&self) -> Option<&Changes> {
        self.changes.as_ref()
    }

    /// Whose `Authorization` this connection sends.
    pub(crate) fn credential(&self) -> &Credential {
        &self.credential
    }

    /// Whether this connection began with `initialize` (a 2025 revision): the upstream
    /// pushes it notifications and may ask it for sampling, elicitation and roots. (Else
    /// it speaks 2026-07-28: requests stand alone, notifications come to listeners.)
    pub(crate) fn session_bound(&self) -> bool {
        self.peer()
            .peer_info()
            .is_none_or(|info| info.protocol_version.has_initialize())
    }

    /// Whether the upstream is gone (exited, or closed the stream).
    pub(crate) fn is_closed(&self) -> bool {
        self.service.is_transport_closed()
    }

    /// The upstream's handshake answer, as this server's own `get_info`.
    pub(crate) fn server_info(&self) -> ServerConfig {
        let mut config = ServerConfig::default();
        if let Some(info) = self.peer().peer_info() {
            config.protocol_version = info.protocol_version.clone();
            config.capabilities = info.capabilities.clone();
            if let Some(server_info) = &info.server_info {
                config.server_info = server_info.clone();
            }
            config.instructions = info.instructions.clone();
        }
        config
    }
}

#[cfg(test)]
mod tests;
