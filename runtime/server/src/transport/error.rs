//! Why serving stopped: the error both transports return.

use rmcp::service::ServerInitializeError;

/// Why serving stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The handshake failed for a reason other than a failed `initialize`.
    #[error("MCP handshake failed: {0}")]
    Handshake(#[source] Box<ServerInitializeError>),
    /// The session task failed.
    #[error("the session task failed: {0}")]
    Join(#[from] tokio::task::JoinError),
    /// Binding or serving the HTTP listener (or another I/O) failed.
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
}
