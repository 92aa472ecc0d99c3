//! Opening a connection to the upstream: a child process, a streamable HTTP endpoint, or
//! — when that endpoint refuses the POST and a GET of it opens an event stream — a legacy
//! HTTP+SSE server (`legacy_sse`); and why it failed, in the user's terms.

use crate::relay::Relay;
use crate::upstream::cause::http_cause;
use crate::upstream::cause::innermost;
use crate::upstream::http::kept_http::KeptHttp;
use crate::upstream::http::legacy_sse::{self, NotOpened, SseLines, SseTasks};
use crate::upstream::http::post::LastTarget;
use crate::upstream::inbound::{FromLane, Inbound, ProgressRoutes};
use crate::upstream::lane::FAST_PATH;
use crate::upstream::lane::http::HttpLane;
use crate::upstream::lane::stdio::Lane;
use crate::upstream::stdio::child::{Child, Spawn, UpstreamExit};
use crate::upstream::stdio::lines::StdioLines;
use crate::upstream::verbatim::store::Verbatim;
use http::{HeaderMap, HeaderName, HeaderValue};
use rmcp::service::{
    ClientInitializeError, ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService,
};
use rmcp::transport::common::client_side_sse::ExponentialBackoff;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::{DynamicTransportError, StreamableHttpClientTransport, Transport};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long opening a connection (start, handshake) may take (in this crate's unit tests,
/// less: a silent upstream's test waits it out).
#[cfg(not(test))]
const OPEN_TIMEOUT: Duration = Duration::from_secs(30);
#[cfg(test)]
const OPEN_TIMEOUT: Duration = Duration::from_secs(2);

/// Why the upstream could not be reached.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UpstreamError {
    /// The command could not be started.
    #[error("cannot start `{upstream}`: {error}")]
    Start {
        /// The upstream.
        upstream: String,
        /// What the system said.
        #[source]
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
    /// The upstream answered nothing in the time a handshake may take (30 s).
    #[error("`{upstream}` did not complete the MCP handshake: no answer within {}s", OPEN_TIMEOUT.as_secs())]
    Silent {
        /// The upstream.
        upstream: String,
    },
    /// The handshake done, listing the upstream's tools failed (its error, or the
    /// connection's).
    #[error("`{upstream}` could not list its tools: {reason}")]
    Listing {
        /// The upstream.
        upstream: String,
        /// What went wrong.
        reason: String,
    },
    /// A session's request came with another `Authorization` than the one its upstream
    /// connection was opened with (`forward_authorization`): it is not sent, so that no
    /// request ever goes upstream under another credential than its own.
    #[error(
        "`{upstream}`: this session's upstream connection was opened with another credential; start a new session"
    )]
    Credential {
        /// The upstream.
        upstream: String,
    },
    /// The client's holder (its principal, or its address) has as many upstream sessions
    /// of its own open as `GatewayOptions::max_sessions_per_holder` allows.
    #[error(
        "`{upstream}`: this client already holds {max} upstream sessions of its own (the most per principal or address); end one, or serve them --upstream-sessions shared"
    )]
    Holder {
        /// The upstream.
        upstream: String,
        /// The limit.
        max: usize,
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
    // Discovery refused, then `initialize` failed: the latter says what a 2025 server said.
    if let ClientInitializeError::LegacyFallbackFailed { fallback, .. } = error {
        return cause(fallback);
    }
    let ClientInitializeError::TransportError { error, .. } = error else {
        return error.to_string();
    };
    transport_cause(error)
}

/// Why a transport failed, in the user's terms: its innermost cause ("Connection refused
/// (os error 111)"), not rmcp's wrappings of it (a transport's type name).
pub(crate) fn transport_cause(error: &DynamicTransportError) -> String {
    match error
        .error
        .downcast_ref::<StreamableHttpError<reqwest::Error>>()
    {
        Some(http) => http_cause(http),
        None => innermost(&*error.error),
    }
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
/// loopback that is most of a forwarded request's cost. With TLS (feature `tls`), an
/// `https://` upstream is verified against the system's root certificates (`SSL_CERT_FILE`
/// and `SSL_CERT_DIR` name others); on a system without any, `http://` upstreams are still
/// reached, and an `https://` one fails its handshake, unverified.
fn http_client() -> reqwest::Client {
    let builder = || {
        reqwest::Client::builder()
            .tcp_nodelay(true)
            .pool_idle_timeout(Duration::from_secs(30))
            .redirect(reqwest::redirect::Policy::none())
    };
    let built = builder().build();
    #[cfg(feature = "tls")]
    let built = built.or_else(|error| {
        tracing::warn!("https upstreams cannot be verified: {error}");
        builder().tls_certs_only([]).build()
    });
    built.unwrap_or_default()
}

/// How long an upstream that failed its handshake is given to show that it exited.
const EXIT_WAIT: Duration = Duration::from_secs(1);

/// Whose `Authorization` a connection sends a streamable HTTP upstream.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum Credential {
    /// The gateway's own (an `Authorization` among its upstream headers, if any).
    #[default]
    Gateway,
    /// A client's, forwarded; none when it sent none (the gateway's is not sent then).
    Client(Option<String>),
}

/// The headers a connection sends an HTTP upstream: its own (`--upstream-header`), the
/// `Authorization` of `credential` standing in for the gateway's when it is a client's.
pub(crate) fn request_headers(
    headers: &[(String, String)],
    credential: &Credential,
) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::new();
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
            return Err(format!(
                "the header `{header}` is the transport's own: it cannot be set"
            ));
        }
        let header = HeaderName::try_from(header.as_str());
        let value = HeaderValue::try_from(value.as_str());
        let (Ok(header), Ok(value)) = (header, value) else {
            return Err("a header is not valid HTTP".to_owned());
        };
        map.insert(header, value);
    }
    if let Credential::Client(Some(credential)) = credential {
        let value = HeaderValue::try_from(credential.as_str())
            .map_err(|_| "the client's Authorization is not valid HTTP".to_owned())?;
        map.insert(http::header::AUTHORIZATION, value);
    }
    Ok(map)
}

/// What opening connections learned of the upstream, for the next ones: that its URL
/// serves the legacy HTTP+SSE transport (they go straight to its stream, not first
/// refused by it with an error logged each time).
#[derive(Debug, Default)]
pub(crate) struct Learned {
    legacy_sse: AtomicBool,
    /// The connections opened to it, counted (`counts`).
    pub(crate) counts: std::sync::Arc<crate::upstream::counts::Counts>,
}

/// A connection being opened: what it is opened as, and what its transport fills.
pub(crate) struct Opening {
    /// The upstream, as errors name it.
    pub(crate) name: String,
    pub(crate) relay: Relay,
    pub(crate) progress: ProgressRoutes,
    pub(crate) written: Verbatim,
}

/// An opened connection's parts: its service, what keeps its transport alive, its lane.
pub(crate) struct Opened {
    pub(crate) service: RunningService<RoleClient, Relay>,
    /// A command upstream's process.
    pub(crate) child: Option<Child>,
    /// A legacy HTTP+SSE upstream's stream and poster.
    pub(crate) stream: Option<SseTasks>,
    /// A line transport's lane (a command's, a legacy HTTP+SSE upstream's).
    pub(crate) lane: Option<Lane>,
    /// A streamable HTTP upstream's lane.
    pub(crate) http_lane: Option<HttpLane>,
}

impl Opening {
    /// The handshake failed, for `reason`.
    pub(crate) fn handshake(&self, reason: String) -> UpstreamError {
        UpstreamError::Handshake {
            upstream: self.name.clone(),
            reason,
        }
    }

    fn timed_out(&self) -> UpstreamError {
        UpstreamError::Silent {
            upstream: self.name.clone(),
        }
    }

    /// The handshake over `transport` as `lifecycle` says, what the upstream says routed
    /// and kept as written (`Inbound`, with what a lane passes on, `from_lane`); its
    /// error, `None` when no answer came in time.
    async fn serve<T>(
        &self,
        transport: T,
        lifecycle: ClientLifecycleMode,
        from_lane: Option<FromLane>,
    ) -> Result<RunningService<RoleClient, Relay>, Option<ClientInitializeError>>
    where
        T: Transport<RoleClient> + Send + 'static,
        T::Error: Send + Sync + 'static,
    {
        let (progress, written) = (self.progress.clone(), self.written.clone());
        let transport = Inbound::new(transport, progress, written, from_lane);
        let served = self
            .relay
            .clone()
            .serve_with_lifecycle(transport, lifecycle);
        match tokio::time::timeout(OPEN_TIMEOUT, served).await {
            Ok(served) => served.map_err(Some),
            Err(_) => Err(None),
        }
    }

    /// `spawn` started, and its handshake over stdio.
    pub(crate) async fn command(
        &self,
        spawn: &Spawn<'_>,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Opened, UpstreamError> {
        let (mut child, stdout, stdin) =
            Child::spawn(spawn).map_err(|error| UpstreamError::Start {
                upstream: self.name.clone(),
                error,
            })?;
        let mut lines = StdioLines::new(Box::new(stdout), Box::new(stdin), self.written.clone());
        let lane = FAST_PATH.then(|| Lane::on(&mut lines));
        match self.serve(lines, lifecycle, None).await {
            Ok(service) => Ok(Opened {
                service,
                child: Some(child),
                stream: None,
                lane,
                http_lane: None,
            }),
            // A process that ended says how, and what it wrote last.
            Err(failed) => Err(match child.exit(EXIT_WAIT).await {
                Some(exit) => UpstreamError::Exited {
                    upstream: self.name.clone(),
                    exit,
                },
                None => match failed {
                    Some(e) => self.handshake(cause(&e)),
                    None => self.timed_out(),
                },
            }),
        }
    }

    /// The handshake with the streamable HTTP endpoint at `url`, sending `headers`; or, when
    /// it refuses and a GET of it opens an event stream, with the legacy HTTP+SSE server
    /// there (specification 2025-03-26 on, "Backwards Compatibility"), with `initialize`.
    /// Once `learned` holds that the URL is such a server, straight to its stream.
    pub(crate) async fn http(
        &self,
        url: &str,
        headers: HeaderMap,
        lifecycle: ClientLifecycleMode,
        learned: &Learned,
    ) -> Result<Opened, UpstreamError> {
        let http = http_client();
        if learned.legacy_sse.load(Ordering::Relaxed) {
            match legacy_sse::open(&http, url, &headers).await {
                Ok(sse) => return self.legacy_sse(sse).await,
                // No more (the server changed): found again from the start.
                Err(_) => learned.legacy_sse.store(false, Ordering::Relaxed),
            }
        }
        let refused = match self.streamable(&http, url, &headers, lifecycle).await {
            Ok(opened) => return Ok(opened),
            // No answer in time: no other transport is tried.
            Err(None) => return Err(self.timed_out()),
            Err(Some(e)) => self.handshake(cause(&e)),
        };
        match legacy_sse::open(&http, url, &headers).await {
            Ok(sse) => {
                let opened = self.legacy_sse(sse).await?;
                learned.legacy_sse.store(true, Ordering::Relaxed);
                Ok(opened)
            }
            // No legacy server either: the POST's failure is the one to tell.
            Err(NotOpened::NoStream(why)) => {
                tracing::debug!("no legacy HTTP+SSE server at {url} either: {why}");
                Err(refused)
            }
            Err(NotOpened::Failed(why)) => {
                Err(self.handshake(format!("as a legacy HTTP+SSE server: {why}")))
            }
        }
    }

    /// The handshake over streamable HTTP; its error, `None` when no answer came in time.
    async fn streamable(
        &self,
        http: &reqwest::Client,
        url: &str,
        headers: &HeaderMap,
        lifecycle: ClientLifecycleMode,
    ) -> Result<Opened, Option<ClientInitializeError>> {
        let mut config = StreamableHttpClientTransportConfig::with_uri(url);
        config.retry_config = Arc::new(resumption());
        config.custom_headers = headers
            .iter()
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let last = LastTarget::default();
        let client = KeptHttp::new(http.clone(), self.written.clone(), last.clone());
        let transport = StreamableHttpClientTransport::with_client(client, config);
        let (to_rmcp, from_lane) = tokio::sync::mpsc::unbounded_channel();
        let http_lane = FAST_PATH.then(|| {
            HttpLane::new(
                http.clone(),
                last,
                to_rmcp,
                self.progress.clone(),
                self.written.clone(),
                Arc::new(resumption()),
            )
        });
        let from_lane = FAST_PATH.then_some(from_lane);
        let service = self.serve(transport, lifecycle, from_lane).await?;
        Ok(Opened {
            service,
            child: None,
            stream: None,
            lane: None,
            http_lane,
        })
    }

    /// The handshake over an open legacy HTTP+SSE connection, with `initialize`.
    async fn legacy_sse(&self, sse: SseLines) -> Result<Opened, UpstreamError> {
        let mut lines = StdioLines::new(sse.read, sse.write, self.written.clone());
        let lane = FAST_PATH.then(|| Lane::on(&mut lines));
        let service = match self
            .serve(lines, ClientLifecycleMode::Initialize, None)
            .await
        {
            Ok(service) => service,
            Err(Some(e)) => {
                let why = format!("as a legacy HTTP+SSE server: {}", cause(&e));
                return Err(self.handshake(why));
            }
            Err(None) => return Err(self.timed_out()),
        };
        Ok(Opened {
            service,
            child: None,
            stream: Some(sse.tasks),
            lane,
            http_lane: None,
        })
    }
}

/// How an HTTP upstream's broken answer stream is resumed (a GET with `Last-Event-ID`, as
/// the specification allows): twice, after 1 s and 2 s, as the TypeScript SDK's client does.
/// rmcp's own policy tries for ever, so a request in flight when its upstream died waited
/// out the whole deadline; now it fails within about 3 s.
fn resumption() -> ExponentialBackoff {
    let mut policy = ExponentialBackoff::default();
    policy.max_times = Some(2);
    policy.base_duration = Duration::from_secs(1);
    policy
}
