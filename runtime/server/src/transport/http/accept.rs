//! The HTTP accept loop: a bounded number of connections, of which an address past its
//! share gets no more while the server is busy (such a connection is closed at once),
//! `TCP_NODELAY` on each (responses
//! leave in several writes; without it Nagle's algorithm and delayed ACKs stall every
//! request after the first few on a keep-alive connection), and hyper's header-read timeout
//! against slow clients. With `accept_threads` above one, as many loops share the listener,
//! each on a single-threaded runtime of its own thread: a connection, and every task its
//! requests start (a session opened on it), stays on the thread that accepted it.

use crate::http_config::HttpConfig;
use crate::shares::Shares;
use crate::transport::error::ServeError;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::net::IpAddr;
use std::os::fd::AsFd;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// How long open connections may finish after shutdown.
const DRAIN: Duration = Duration::from_secs(10);

/// What every accept loop shares: the router, the limits, the connection permits and the
/// signal to stop.
#[derive(Clone)]
struct AcceptLoops {
    router: axum::Router,
    config: HttpConfig,
    permits: Arc<Semaphore>,
    /// Connections open per client address.
    per_client: Arc<Shares<IpAddr>>,
    stop: CancellationToken,
}

/// Connections in use past which an address holding its share gets no more: three
/// quarters of `max`. Below it, many clients behind one address (a NAT, a load test) are
/// served as any; past it, the last quarter stays for the addresses within their share.
fn busy(max: usize) -> usize {
    max - max / 4
}

pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    config: HttpConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let shared = AcceptLoops {
        permits: Arc::new(Semaphore::new(config.max_connections.max(1))),
        per_client: Arc::default(),
        stop: CancellationToken::new(),
        router,
        config,
    };
    let mut threads = Vec::new();
    for index in 1..shared.config.accept_threads.max(1) {
        // The same listening socket, registered with the other thread's runtime.
        let socket = std::net::TcpListener::from(listener.as_fd().try_clone_to_owned()?);
        let shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name(format!("mcp-tailor-http-{index}"))
            .spawn(move || accept_on_own_runtime(socket, shared))?;
        threads.push(thread);
    }
    let stop = shared.stop.clone();
    tokio::spawn(async move {
        tokio::select! {
            () = shutdown => stop.cancel(),
            () = stop.cancelled() => {}
        }
    });
    accept(listener, shared.clone()).await;
    // This loop ended: so do the others (they stop on the same signal), then this returns.
    shared.stop.cancel();
    let joined = tokio::task::spawn_blocking(move || {
        for thread in threads {
            if thread.join().is_err() {
                tracing::warn!("an accept thread panicked");
            }
        }
    });
    let _ = joined.await;
    Ok(())
}

/// One more accept loop, on a single-threaded runtime of this thread, until the stop.
fn accept_on_own_runtime(socket: std::net::TcpListener, shared: AcceptLoops) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(error) => return tracing::warn!(%error, "an accept thread has no runtime"),
    };
    runtime.block_on(async move {
        match tokio::net::TcpListener::from_std(socket) {
            Ok(listener) => accept(listener, shared).await,
            Err(error) => tracing::warn!(%error, "an accept thread cannot listen"),
        }
    });
}

/// Accepts and serves connections until the stop, then drains them.
async fn accept(listener: tokio::net::TcpListener, shared: AcceptLoops) {
    let graceful = GracefulShutdown::new();
    let stop = shared.stop.cancelled();
    let mut stop = std::pin::pin!(stop);
    loop {
        // Wait for room first: further connections queue in the kernel's backlog.
        let permit = tokio::select! {
            permit = shared.permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors or a reset before accept: back off, go on.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Over its address's share while the server is busy: closed now, its permit given
        // back with it.
        let max = shared.config.max_connections.max(1);
        let in_use = max - shared.permits.available_permits();
        let share = shared.config.max_connections_per_client.max(1);
        let counted = shared
            .per_client
            .take(peer.ip(), |held| held < share || in_use <= busy(max));
        let Some(counted) = counted else {
            drop(stream);
            crate::transport::refusals::refused(
                "a client address over its share of connections was closed",
            );
            continue;
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(shared.config.header_read_timeout)
            .keep_alive(true);
        // The peer's address, as axum's `ConnectInfo` carries it: the session admission
        // counts sessions per client address, and a host's middleware can read it too.
        let service = shared
            .router
            .clone()
            .layer(axum::Extension(ConnectInfo(peer)));
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
            drop((permit, counted));
        });
    }
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::debug!("connections still open after the drain period");
    }
}
