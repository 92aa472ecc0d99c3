//! `proxy`: the gateway behind the layer, on stdio or streamable HTTP, with the tailoring
//! file watched and reloaded.

mod watch;

use crate::CommandError;
use crate::args::ProxyOptions;
use crate::metrics::Metrics;
use crate::upstreams::{self, AnyProxied, OnServed, Proxied};
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::Served;
use mcp_tailor::server::auth::ClientAuth;
use mcp_tailor::server::{IndexSurface, Server};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use tokio::net::TcpListener;

pub(crate) fn run(options: ProxyOptions) -> ExitCode {
    // Colours only for a person at a terminal, never into a log file. (`RUST_LOG` sets
    // what is logged; by default not rmcp's transport worker, whose fatal errors the
    // gateway says itself in the user's terms — a handshake that failed, "upstream
    // failure: …" — and whose one is no failure where a legacy HTTP+SSE server refuses
    // the first POST; nor rmcp's service loop's warnings, one per error answer passed on
    // ("response error … ErrorCode(-32601)": an upstream without prompts, asked for them);
    // nor its HTTP client's lines on an event stream that broke, which name its types (the
    // gateway says why the upstream was not reached).)
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        concat!(
            "info,rmcp=warn,rmcp::service=error,rmcp::transport::worker=off,",
            "rmcp::transport::common::client_side_sse=off,",
            "rmcp::transport::streamable_http_client=off"
        )
        .into()
    });
    let log = tracing_subscriber::fmt()
        .with_writer(crate::redact::Redacting)
        .with_env_filter(filter);
    match options.log_json {
        true => log.json().init(),
        false => log.with_ansi(terminal).init(),
    }
    let runtime = match crate::runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    match runtime.block_on(serve(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-tailor: {}", crate::redact::text(&error.to_string()));
            ExitCode::FAILURE
        }
    }
}

async fn serve(options: ProxyOptions) -> Result<(), CommandError> {
    // The port first: one in use is the first and only thing said (and exit 1).
    let listener = bind(options.http, "").await?;
    let metrics_listener = bind(options.metrics, "--metrics: ").await?;
    // Then access: a token or key set that cannot be read stops the proxy before it
    // starts anything.
    let auth = match &listener {
        Some(listener) => {
            let addr = listener.local_addr()?;
            crate::access::client_auth(&options.access, addr).await?
        }
        None => None,
    };
    warn_if_open(listener.as_ref(), auth.is_some(), "the MCP endpoint");
    let metrics_auth = match &options.metrics_token_env {
        Some(env) => Some(crate::access::bearer(env, "--metrics-token-env")?),
        None => None,
    };
    warn_if_open(
        metrics_listener.as_ref(),
        metrics_auth.is_some(),
        "--metrics",
    );
    let index = index_surface(&options.index)?;
    let metrics = metrics_listener
        .as_ref()
        .map(|_| Metrics::new(index.clone()));
    let tell: Option<OnServed> = metrics.clone().map(|metrics| {
        Arc::new(move |server: &str, served: &Served<'_>| metrics.served(server, served))
            as OnServed
    });
    let front = ProxyFront {
        index,
        listener,
        metrics: metrics.zip(metrics_listener),
        metrics_auth,
        auth,
    };
    match upstreams::open(&options, tell).await? {
        AnyProxied::One(one) => serve_proxied(options, Arc::new(one), front).await,
        AnyProxied::Many(many) => serve_proxied(options, Arc::new(many), front).await,
    }
}

/// Binds `addr`, when given; `option` begins the error.
async fn bind(
    addr: Option<SocketAddr>,
    option: &'static str,
) -> Result<Option<TcpListener>, CommandError> {
    match addr {
        Some(addr) => {
            TcpListener::bind(addr)
                .await
                .map(Some)
                .map_err(|source| CommandError::Listen {
                    option,
                    addr,
                    source,
                })
        }
        None => Ok(None),
    }
}

/// Warns when `listener` takes connections from beyond this machine without client auth.
fn warn_if_open(listener: Option<&TcpListener>, guarded: bool, what: &str) {
    let Some(addr) = listener.and_then(|l| l.local_addr().ok()) else {
        return;
    };
    if !guarded && !addr.ip().is_loopback() {
        tracing::warn!(
            "{what} listens on {addr}, beyond this machine, and asks no credential: anyone \
             who reaches it may use it (--bearer-token-env or --oauth-issuer ask one)"
        );
    }
}

/// Where and how the proxy serves, made before its upstreams are opened.
struct ProxyFront {
    /// The index surface offered (to readers it names, or that ask).
    index: IndexSurface,
    listener: Option<TcpListener>,
    metrics: Option<(Arc<Metrics>, TcpListener)>,
    /// The token a scraper must send, if any.
    metrics_auth: Option<ClientAuth>,
    auth: Option<ClientAuth>,
}

/// Serves `proxied` behind the layer until stopped.
async fn serve_proxied<P: Proxied>(
    options: ProxyOptions,
    proxied: Arc<P>,
    front: ProxyFront,
) -> Result<(), CommandError> {
    let tailoring = proxied.tailoring()?;
    warn_unmatched(&*proxied, &tailoring);
    // Paged as the upstream pages, unless the command line says otherwise.
    let page_size = crate::inspect::pages_of(options.page_size.or(proxied.page_size()));
    let mut builder = Server::builder()
        .handler(proxied.handler())
        .tailoring(tailoring)
        .page_size(page_size)
        .request_deadline(options.deadline);
    if let Some(level) = options.verbosity {
        builder = builder.fallback_verbosity(level);
    }
    // A reader that names no runner or model reads as the command line says: a client's
    // configuration pins what the client itself does not report.
    let (runner, model) = (options.runner.clone(), options.model.clone());
    if runner.is_some() || model.is_some() {
        builder = builder.context(move |info| {
            let mut reader = info.reader.clone();
            if reader.runner.is_none() {
                reader.runner.clone_from(&runner);
            }
            if reader.model.is_none() {
                reader.model.clone_from(&model);
            }
            async move { reader }
        });
    }
    builder = builder.index(front.index);
    if front.listener.is_some() {
        let mut http = mcp_tailor::server::HttpConfig::default();
        http.accept_threads = usize::from(options.threads);
        http.allowed_origins
            .clone_from(&options.access.allowed_origins);
        builder = builder.http_config(http);
    }
    let server = builder.build()?;
    tokio::spawn(watch::watch(server.clone(), proxied.clone()));
    if let Some((metrics, listener)) = front.metrics {
        let addr = listener.local_addr()?;
        announce(
            options.log_json,
            &format!("mcp-tailor metrics on http://{addr}/metrics"),
        );
        let scraped = (server.clone(), proxied.clone());
        tokio::spawn(crate::metrics::serve(
            listener,
            metrics,
            scraped,
            front.metrics_auth,
        ));
    }
    tracing::info!("serving {} tailored", proxied.describe());
    match front.listener {
        Some(listener) => {
            let addr = listener.local_addr()?;
            announce(
                options.log_json,
                &format!("mcp-tailor proxy on http://{addr}/mcp"),
            );
            let router = match front.auth {
                Some(auth) => auth.guard(server.router()),
                None => server.router(),
            };
            server
                .serve_http_on(listener, router, stopped())
                .await
                .map_err(CommandError::from)
        }
        None => tokio::select! {
            served = server.serve_stdio() => served.map_err(CommandError::from),
            () = stopped() => Ok(()),
        },
    }
    // Returning drops every upstream connection: each command upstream is ended with it.
}

/// The index surface `proxy` offers: the default surface the command line names, its
/// budget, and a finder ranking with embeddings where a model is named, else FastMCP's
/// BM25 (embeddings alone found best on every catalog measured: BENCHMARKS.md §10).
fn index_surface(options: &crate::args::IndexOptions) -> Result<IndexSurface, CommandError> {
    let names = match options.embedding_model {
        Some(_) => vec!["embedding".to_owned()],
        None => vec!["fastmcp".to_owned()],
    };
    let searches = crate::reports::searches_named(&names, options.embedding_model.as_deref())?;
    let mut index = IndexSurface::new(mcp_tailor::inspect::IndexFinder::new(searches))
        .default_surface(options.surface)
        .load_on_find(options.load_on_find);
    if let Some(budget) = options.budget {
        index = budget.apply(index);
    }
    Ok(index)
}

/// Says where the proxy listens, on stderr: plain for a person, who reads it first (a
/// script reads the address from it too), or as a JSON log line for a log collector.
fn announce(log_json: bool, line: &str) {
    match log_json {
        true => tracing::info!("{line}"),
        false => eprintln!("{line}"),
    }
}

/// Ctrl-C or SIGTERM: the proxy stops, and ends its upstream processes.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    let terminated = async {
        match &mut term {
            Some(signal) => signal.recv().await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminated => {}
    }
}

/// Logs what the file declares that the upstream did not list when last asked (no error:
/// it may list it later); nothing while no listing was read.
fn warn_unmatched(proxied: &impl Proxied, tailoring: &Tailoring) {
    let Some(tools) = proxied.listed_tools() else {
        return;
    };
    for warning in mcp_tailor::init::drift(tailoring, &tools) {
        tracing::warn!("{warning}");
    }
}
