//! Why a command failed: one error, each cause typed and its source kept, said once on
//! standard error as `mcp-tailor: …` (with secrets redacted) by the command that met it.
//! (clap's value parsers answer clap with a message, as clap asks: `values`.)

use mcp_tailor::FileError;
use mcp_tailor::gateway::UpstreamError;
use mcp_tailor::init::FitError;
use mcp_tailor::inspect::eval::{EmbeddingError, PlotError};
use mcp_tailor::inspect::{CatalogError, InspectError};
use mcp_tailor::server::{BuildError, ServeError};
use std::net::SocketAddr;
use std::path::PathBuf;

/// Why a command (or a report) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// A file that cannot be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file or folder that cannot be written or made.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A tailoring or tasks file that cannot be used.
    #[error(transparent)]
    File(#[from] FileError),
    /// A captured catalog (`--catalog`) that is no catalog.
    #[error("{}: {source}", path.display())]
    Catalog {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: CatalogError,
    },
    /// An `mcpServers` file that cannot be served, with where: `FILE[:LINE:COL]: why`.
    #[error("{place}: {why}")]
    Servers {
        /// The file, and the line and column where a key is wrong.
        place: String,
        /// What is wrong there.
        why: String,
    },
    /// A server's own file (`"tailoring"` in an `mcpServers` file) cannot be taken into
    /// the file of the whole.
    #[error("{}: {source}", path.display())]
    Absorb {
        /// The server's own file.
        path: PathBuf,
        /// Why.
        #[source]
        source: mcp_tailor::AbsorbError,
    },
    /// The upstream cannot be started, reached or listed.
    #[error(transparent)]
    Upstream(#[from] UpstreamError),
    /// An address the command line names cannot be listened on.
    #[error("{option}cannot listen on {addr}: {source}")]
    Listen {
        /// The option that names it (`--metrics: `), or nothing for the endpoint.
        option: &'static str,
        /// The address.
        addr: SocketAddr,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A credential the command line names cannot be had: `OPTION VALUE: why` (a variable
    /// unset, a key set that cannot be read).
    #[error("{0}")]
    Credential(String),
    /// The command line's settings build no server.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Serving stopped.
    #[error(transparent)]
    Serve(#[from] ServeError),
    /// The server's address, or another fact of the process, cannot be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A report could not be made.
    #[error(transparent)]
    Inspect(#[from] InspectError),
    /// A search named that there is none of.
    #[error("no search `{0}`")]
    NoSuchSearch(String),
    /// `--search embedding` with no model named.
    #[error(
        "--search embedding needs the model: `pip install wordllama==0.4.0.post1`, then \
         --embedding-model DIR (or MCP_TAILOR_EMBEDDING=DIR) with DIR its `wordllama/` \
         package folder"
    )]
    NoEmbeddingModel,
    /// The embedding model named cannot be loaded.
    #[error(transparent)]
    Embedding(#[from] EmbeddingError),
    /// `eval --svg`: the plot cannot be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// `init --fit` asks what a draft cannot hold.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// What `init` made does not pass `check`: a bug of this command, not the user's.
    #[error("the {made} does not pass `check` (please report it):\n{source}")]
    Unchecked {
        /// `draft` or `update`.
        made: &'static str,
        /// What `check` says.
        #[source]
        source: FileError,
    },
    /// `init --servers`: no server could be drafted.
    #[error("no server could be drafted")]
    NothingDrafted,
}

impl CommandError {
    /// A file at `path` that cannot be read.
    pub(crate) fn read(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| CommandError::Read { path, source }
    }

    /// A file or folder at `path` that cannot be written or made.
    pub(crate) fn write(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| CommandError::Write { path, source }
    }
}
