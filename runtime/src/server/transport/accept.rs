//! The HTTP accept loop: a bounded number of connections, `TCP_NODELAY` on each (responses
//! leave in several writes; without it Nagle's algorithm and delayed ACKs stall every
//! request after the first few on a keep-alive connection), and hyper's header-read timeout
//! against slow clients.

use crate::server::limits::HttpConfig;
use crate::server::transport::error::ServeError;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// How long open connections may finish after shutdown.
const DRAIN: Duration = Duration::from_secs(10);

pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    router: axum::Router,
    config: HttpConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let permits = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // Wait for room first: further connections queue in the kernel's backlog.
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
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
            () = &mut shutdown => break,
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(config.header_read_timeout)
            .keep_alive(true);
        // The peer's address, as axum's `ConnectInfo` carries it: the session admission
        // counts sessions per client address, and a host's middleware can read it too.
        let service = router.clone().layer(axum::Extension(ConnectInfo(peer)));
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
            drop(permit);
        });
    }
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::debug!("connections still open after the drain period");
    }
    Ok(())
}
