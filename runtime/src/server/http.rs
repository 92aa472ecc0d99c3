//! Serving a [`TailorServer`] on streamable HTTP at `/mcp` (feature `http`), with rmcp's
//! streamable HTTP service doing the protocol and axum the HTTP.

use super::handler::{TailorServer, TailorSession};
use super::stdio::ServeError;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

/// The path of the streamable HTTP endpoint.
pub const MCP_PATH: &str = "/mcp";

impl<H: ServerHandler + Clone> TailorServer<H> {
    /// The streamable HTTP service (a `tower` service), one session per client.
    pub fn http_service(
        &self,
        config: StreamableHttpServerConfig,
    ) -> StreamableHttpService<TailorSession<H>, LocalSessionManager> {
        let server = self.clone();
        StreamableHttpService::new(move || Ok(server.session()), Arc::default(), config)
    }

    /// An `axum` router serving MCP at [`MCP_PATH`] with rmcp's default HTTP settings
    /// (loopback hosts only; configure [`http_service`](Self::http_service) for more).
    pub fn router(&self) -> axum::Router {
        axum::Router::new().nest_service(
            MCP_PATH,
            self.http_service(StreamableHttpServerConfig::default()),
        )
    }

    /// Serves streamable HTTP at `http://{addr}/mcp` until `shutdown` resolves.
    pub async fn serve_http(
        &self,
        addr: SocketAddr,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener, self.router(), shutdown).await
    }

    /// Serves `router` (for example [`router`](Self::router) with the host's middleware) on
    /// a bound listener until `shutdown` resolves.
    pub async fn serve_http_on(
        &self,
        listener: tokio::net::TcpListener,
        router: axum::Router,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        use axum::serve::ListenerExt as _;
        // Responses leave in several writes; without TCP_NODELAY, Nagle's algorithm and
        // delayed ACKs stall every request after the first few on a keep-alive connection.
        let listener = listener.tap_io(|tcp| {
            if let Err(error) = tcp.set_nodelay(true) {
                tracing::debug!(%error, "could not set TCP_NODELAY");
            }
        });
        axum::serve(listener, router)
            .with_graceful_shutdown(shutdown)
            .await?;
        Ok(())
    }
}
