//! `proxy`: the gateway behind the layer, on stdio or streamable HTTP, with the tailoring
//! file watched and reloaded.

use crate::args::ProxyOptions;
use crate::metrics::Metrics;
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::{Gateway, GatewayOptions, Observer};
use mcp_tailor::server::{Server, rmcp};
use notify::Watcher;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long the gateway waits for the upstream, under the layer's deadline so its error
/// is the one the client gets.
const MARGIN: Duration = Duration::from_millis(250);

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
        .with_writer(std::io::stderr)
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
        Err(message) => {
            eprintln!("mcp-tailor: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(options: ProxyOptions) -> Result<(), String> {
    // The port first: one in use is the first and only thing said (and exit 1).
    let listener = match options.http {
        Some(addr) => Some(
            tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| format!("cannot listen on {addr}: {e}"))?,
        ),
        None => None,
    };
    let metrics_listener = match options.metrics {
        Some(addr) => Some(
            tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| format!("--metrics: cannot listen on {addr}: {e}"))?,
        ),
        None => None,
    };
    // Then the door: a token or key set that cannot be read stops the proxy before it
    // starts anything.
    let auth = match &listener {
        Some(listener) => {
            let addr = listener.local_addr().map_err(|e| e.to_string())?;
            crate::door::client_auth(&options.door, addr).await?
        }
        None => None,
    };
    let tailoring = match &options.tailoring {
        Some(path) => Tailoring::load(path).map_err(|e| e.to_string())?,
        None => Tailoring::default(),
    };
    let mut gateway_options = GatewayOptions {
        deadline: options.deadline.saturating_sub(MARGIN).max(MARGIN),
        sessions: options.sessions,
        warm_spare: options.warm_spare,
        forward_authorization: options.forward_authorization,
        ..GatewayOptions::default()
    };
    // The metrics name the upstream as it names itself, learned when it is first reached.
    let named = Arc::new(std::sync::OnceLock::<Arc<Metrics>>::new());
    if metrics_listener.is_some() {
        let named = named.clone();
        gateway_options.observer = Some(Observer::new(move |served| {
            if let Some(metrics) = named.get() {
                metrics.served(served);
            }
        }));
    }
    let gateway = Gateway::connect_with(options.upstream.clone(), gateway_options)
        .await
        .map_err(|e| e.to_string())?;
    if metrics_listener.is_some() {
        let name = rmcp::ServerHandler::get_info(&gateway).server_info.name;
        let _ = named.set(Metrics::new(&name));
    }
    warn_unmatched(&gateway, &tailoring);
    // Paged as the upstream pages, unless the command line says otherwise.
    let page_size = crate::inspect::pages_of(options.page_size.or(gateway.page_size()));
    let mut builder = Server::builder()
        .handler(gateway)
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
    if listener.is_some() {
        let mut http = mcp_tailor::server::limits::HttpConfig::default();
        http.accept_threads = usize::from(options.threads);
        http.allowed_origins
            .clone_from(&options.door.allowed_origins);
        builder = builder.http_config(http);
    }
    let server = builder.build().map_err(|e| e.to_string())?;
    if let Some(path) = &options.tailoring {
        tokio::spawn(watch(server.clone(), PathBuf::from(path)));
    }
    if let (Some(listener), Some(metrics)) = (metrics_listener, named.get()) {
        tokio::spawn(crate::metrics::serve(
            listener,
            metrics.clone(),
            server.clone(),
        ));
    }
    tracing::info!("serving {} tailored", options.upstream);
    match listener {
        Some(listener) => {
            let addr = listener.local_addr().map_err(|e| e.to_string())?;
            // A person reads it first; a log collector reads every line as JSON.
            match options.log_json {
                true => tracing::info!("mcp-tailor proxy on http://{addr}/mcp"),
                false => eprintln!("mcp-tailor proxy on http://{addr}/mcp"),
            }
            let router = match auth {
                Some(auth) => auth.guard(server.router()),
                None => server.router(),
            };
            server
                .serve_http_on(listener, router, stopped())
                .await
                .map_err(|e| e.to_string())
        }
        None => tokio::select! {
            served = server.serve_stdio() => served.map_err(|e| e.to_string()),
            () = stopped() => Ok(()),
        },
    }
    // Returning drops every upstream connection: each command upstream is ended with it.
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
fn warn_unmatched(gateway: &Gateway, tailoring: &Tailoring) {
    let Some(tools) = gateway.listed_tools() else {
        return;
    };
    for warning in mcp_tailor::inspect::drift(tailoring, &tools) {
        tracing::warn!("{warning}");
    }
}

/// Reloads the file when it changes (or on SIGHUP): a valid file is swapped in and every
/// client told to list again; an invalid one is logged, error by error, and the previous
/// tables stay.
async fn watch(server: Server<Gateway>, path: PathBuf) {
    let (tx, mut changes) = mpsc::unbounded_channel();
    let name = path.file_name().map(ToOwned::to_owned);
    let watched = name.clone();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event
                .paths
                .iter()
                .any(|p| p.file_name() == watched.as_deref())
        {
            let _ = tx.send(());
        }
    });
    // Editors replace a file by renaming over it: watch its folder, not the file.
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let _watcher = match watcher.and_then(|mut w| {
        w.watch(folder, notify::RecursiveMode::NonRecursive)
            .map(|()| w)
    }) {
        Ok(watcher) => Some(watcher),
        Err(error) => {
            tracing::warn!(
                "cannot watch {}: {error}; SIGHUP still reloads it",
                path.display()
            );
            None
        }
    };
    let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
    let mut last = std::fs::read_to_string(&path).ok();
    loop {
        let hup = async {
            match &mut hangup {
                Some(signal) => signal.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            Some(()) = changes.recv() => {}
            _ = hup => {}
        }
        // One edit makes several events: let them settle, then read once.
        tokio::time::sleep(Duration::from_millis(100)).await;
        while changes.try_recv().is_ok() {}
        let source = std::fs::read_to_string(&path).ok();
        if source == last {
            continue;
        }
        last = source;
        match Tailoring::load(&path) {
            Ok(tailoring) => {
                for warning in tailoring.warnings() {
                    tracing::warn!("{warning}");
                }
                warn_unmatched(server.wrapped(), &tailoring);
                server.set_tailoring(tailoring).await;
                tracing::info!("{}: reloaded; clients told to list again", path.display());
            }
            Err(error) => {
                for line in error.to_string().lines() {
                    tracing::error!("{line}");
                }
                tracing::error!(
                    "{}: not reloaded; still serving the previous tables",
                    path.display()
                );
            }
        }
    }
}
