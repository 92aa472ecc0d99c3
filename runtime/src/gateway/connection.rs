//! Connections to the upstream: opening one (a child process or streamable HTTP), and the
//! slot a session or the stateless requests keep theirs in, replaced when it died.

use super::Upstream;
use super::answer::Answer;
use super::changes::Changes;
use super::child::{Child, UpstreamExit};
use super::inbound::{Inbound, ProgressRoutes};
use super::kept_http::KeptHttp;
use super::lane::Lane;
use super::lines::{Lines, Written};
use super::relay::Relay;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, Implementation, ListToolsRequest,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerConfig, Tool,
};
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, Peer, RoleClient, RunningService,
};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use std::time::Duration;

/// How long opening a connection (start, handshake) may take.
const OPEN_TIMEOUT: Duration = Duration::from_secs(30);

/// Why the upstream could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum UpstreamError {
    /// The command could not be started.
    #[error("cannot start `{upstream}`: {error}")]
    Start {
        /// The upstream.
        upstream: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The handshake failed or timed out.
    #[error("`{upstream}` did not complete the MCP handshake: {reason}")]
    Handshake {
        /// The upstream.
        upstream: String,
        /// What went wrong.
        reason: String,
    },
    /// The command exited before it answered the handshake.
    #[error("`{upstream}` exited before it answered ({}){}", .exit.status, said(&.exit.stderr))]
    Exited {
        /// The upstream.
        upstream: String,
        /// How it ended, and what it said last.
        exit: UpstreamExit,
    },
}

/// What went wrong, in the user's terms: for a transport's failure its innermost cause
/// ("Connection refused"), not rmcp's wrapping of it (the transport's type name, "when
/// send discover request").
fn cause(error: &ClientInitializeError) -> String {
    let ClientInitializeError::TransportError { error, .. } = error else {
        return error.to_string();
    };
    let mut innermost: &(dyn std::error::Error + 'static) = &*error.error;
    // rmcp's HTTP error does not name reqwest's as its source: start from reqwest's.
    if let Some(StreamableHttpError::Client(client)) = error
        .error
        .downcast_ref::<StreamableHttpError<reqwest::Error>>()
    {
        innermost = client;
    }
    while let Some(source) = innermost.source() {
        innermost = source;
    }
    innermost.to_string()
}

/// An exited command's last stderr lines, as its error ends.
fn said(stderr: &[String]) -> String {
    if stderr.is_empty() {
        return "; it wrote nothing on stderr".to_owned();
    }
    let lines: Vec<String> = stderr.iter().map(|l| format!("\n  {l}")).collect();
    format!("; its last lines on stderr:{}", lines.concat())
}

/// The HTTP client of an upstream connection. rmcp's default opens a TCP connection per
/// request (no idle pool, against stalls when a response body is left unread); the gateway
/// reads every response whole, so it keeps connections alive, without Nagle's delay: on
/// loopback that is most of a forwarded request's cost.
fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .tcp_nodelay(true)
        .pool_idle_timeout(Duration::from_secs(30))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// How long an upstream that failed its handshake is given to show that it exited.
const EXIT_WAIT: Duration = Duration::from_secs(1);

/// One live connection to the upstream.
pub(super) struct Connection {
    service: RunningService<RoleClient, Relay>,
    /// Where progress of the requests in flight goes.
    progress: ProgressRoutes,
    /// A command upstream's process, killed when the connection is dropped.
    _child: Option<Child>,
    /// Whose `Authorization` it sends a streamable HTTP upstream.
    credential: Credential,
    /// Its answers as the upstream wrote them (a command's; an HTTP upstream's that came as
    /// events).
    written: Written,
    /// A 2026-07-28 upstream's list changes, heard from the start (`changes`).
    changes: Option<Changes>,
    /// A command upstream's lane, when it began with `initialize` (`lane`).
    lane: Option<Lane>,
}

/// Whose `Authorization` a connection sends a streamable HTTP upstream.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) enum Credential {
    /// The gateway's own (an `Authorization` among its upstream headers, if any).
    #[default]
    Gateway,
    /// A client's, forwarded; none when it sent none (the gateway's is not sent then).
    Client(Option<String>),
}

/// The client a connection opened before any session came is opened as: the gateway, with
/// `capabilities`.
pub(super) fn gateway_client(capabilities: ClientCapabilities) -> ClientConfig {
    ClientConfig::new(
        capabilities,
        Implementation::new("mcp-tailor-gateway", env!("CARGO_PKG_VERSION")),
    )
}

impl Connection {
    /// Opens a connection as `client`: with `initialize` (a session's own connection, or one
    /// a session may take) or, not `legacy`, with `server/discover` where the upstream speaks
    /// 2026-07-28 (the connection of stateless requests). A streamable HTTP upstream is sent
    /// the `Authorization` of `credential`.
    pub(super) async fn open(
        upstream: &Upstream,
        client: ClientConfig,
        legacy: bool,
        credential: &Credential,
    ) -> Result<Connection, UpstreamError> {
        let name = upstream.to_string();
        let lifecycle = match legacy {
            true => ClientLifecycleMode::Initialize,
            false => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: None,
            },
        };
        let relay = Relay::new(client);
        let handshake = |reason: String| UpstreamError::Handshake {
            upstream: name.clone(),
            reason,
        };
        let progress = ProgressRoutes::default();
        let written = Written::default();
        let timed_out = || handshake(format!("no answer within {OPEN_TIMEOUT:?}"));
        let mut lane = None;
        let (service, child) = match upstream {
            Upstream::Command { program, args } => {
                let (mut child, stdout, stdin) =
                    Child::spawn(program, args).map_err(|error| UpstreamError::Start {
                        upstream: name.clone(),
                        error,
                    })?;
                let lines = Lines::new(stdout, stdin, written.clone());
                lane = Some(lines.lane());
                let transport = Inbound::new(lines, progress.clone(), written.clone());
                let served = relay.serve_with_lifecycle(transport, lifecycle);
                match tokio::time::timeout(OPEN_TIMEOUT, served).await {
                    Ok(Ok(service)) => (service, Some(child)),
                    // A process that ended says how, and what it wrote last.
                    failed => match child.exit(EXIT_WAIT).await {
                        Some(exit) => {
                            return Err(UpstreamError::Exited {
                                upstream: name,
                                exit,
                            });
                        }
                        None => {
                            return Err(match failed {
                                Ok(Err(e)) => handshake(cause(&e)),
                                _ => timed_out(),
                            });
                        }
                    },
                }
            }
            Upstream::Http { url, headers } => {
                let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
                for (header, value) in headers {
                    // A client's credential stands in for the gateway's.
                    if matches!(credential, Credential::Client(_))
                        && header.eq_ignore_ascii_case("authorization")
                    {
                        continue;
                    }
                    // The transport's own headers (as rmcp's client reserves them).
                    if ["accept", "mcp-session-id", "last-event-id"]
                        .iter()
                        .any(|own| header.eq_ignore_ascii_case(own))
                    {
                        let own = format!(
                            "the header `{header}` is the transport's own: it cannot be set"
                        );
                        return Err(handshake(own));
                    }
                    let header = http::HeaderName::try_from(header.as_str());
                    let value = http::HeaderValue::try_from(value.as_str());
                    let (Ok(header), Ok(value)) = (header, value) else {
                        return Err(handshake("a header is not valid HTTP".to_owned()));
                    };
                    config.custom_headers.insert(header, value);
                }
                if let Credential::Client(Some(credential)) = credential {
                    let value = http::HeaderValue::try_from(credential.as_str()).map_err(|_| {
                        handshake("the client's Authorization is not valid HTTP".into())
                    })?;
                    config
                        .custom_headers
                        .insert(http::header::AUTHORIZATION, value);
                }
                let client = KeptHttp::new(http_client(), written.clone());
                let transport = Inbound::new(
                    StreamableHttpClientTransport::with_client(client, config),
                    progress.clone(),
                    written.clone(),
                );
                let served = relay.serve_with_lifecycle(transport, lifecycle);
                let service = tokio::time::timeout(OPEN_TIMEOUT, served)
                    .await
                    .map_err(|_| timed_out())?
                    .map_err(|e| handshake(cause(&e)))?;
                (service, None)
            }
        };
        let mut connection = Connection {
            service,
            progress,
            _child: child,
            credential: credential.clone(),
            written,
            changes: None,
            lane,
        };
        if !connection.legacy() {
            connection.lane = None;
            connection.changes = Changes::open(connection.peer()).await;
        }
        Ok(connection)
    }

    /// The upstream, to send requests to.
    pub(super) fn peer(&self) -> &Peer<RoleClient> {
        self.service.peer()
    }

    /// Every tool the upstream lists (all pages), and its first page as it came;
    /// `upstream` names it in the error.
    pub(super) async fn tools(
        &self,
        upstream: &Upstream,
    ) -> Result<(Vec<Tool>, ListToolsResult), UpstreamError> {
        let failed = |e: rmcp::ServiceError| UpstreamError::Handshake {
            upstream: upstream.to_string(),
            reason: format!("tools/list failed: {e}"),
        };
        // Each page as the gateway lists it to clients (carrying what rmcp's types could
        // not hold of it); the first is the listing a first session takes.
        let first = self.tools_page(None).await.map_err(failed)?;
        let mut tools = first.tools.clone();
        let mut cursor = first.next_cursor.clone();
        while let Some(next) = cursor {
            let params = PaginatedRequestParams::default().with_cursor(Some(next));
            let page = self.tools_page(Some(params)).await.map_err(failed)?;
            tools.extend(page.tools);
            cursor = page.next_cursor;
        }
        Ok((tools, first))
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

    /// Where requests are sent past rmcp's client loop, when they can be (`lane`).
    pub(super) fn lane(&self) -> Option<&Lane> {
        self.lane.as_ref()
    }

    /// Where the progress of this connection's requests in flight goes.
    pub(super) fn progress(&self) -> &ProgressRoutes {
        &self.progress
    }

    /// This connection's client side: who hears it, its listing, what it was opened as.
    pub(super) fn relay(&self) -> &Relay {
        self.service.service()
    }

    /// Its answers as the upstream wrote them, by request id.
    pub(super) fn written(&self) -> &Written {
        &self.written
    }

    /// The list changes this connection hears for every listener, when it has its own
    /// subscription to them (a 2026-07-28 upstream).
    pub(super) fn changes(&self) -> Option<&Changes> {
        self.changes.as_ref()
    }

    /// Whose `Authorization` this connection sends.
    pub(super) fn credential(&self) -> &Credential {
        &self.credential
    }

    /// Whether this connection began with `initialize` (a 2025 revision): the upstream
    /// pushes it notifications and may ask it for sampling, elicitation and roots. (Else
    /// it speaks 2026-07-28: requests stand alone, notifications come to listeners.)
    pub(super) fn legacy(&self) -> bool {
        self.peer()
            .peer_info()
            .is_none_or(|info| info.protocol_version.has_initialize())
    }

    /// Whether the upstream is gone (exited, or closed the stream).
    pub(super) fn is_closed(&self) -> bool {
        self.service.is_transport_closed()
    }

    /// The upstream's handshake answer, as this server's own `get_info`.
    pub(super) fn server_info(&self) -> ServerConfig {
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
