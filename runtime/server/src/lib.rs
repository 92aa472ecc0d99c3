//! # mcp-tailor-server
//!
//! The serving layer of mcp-tailor: a layer in front of any rmcp `ServerHandler`.
//! It owns instructions, `tools/list` and `tools/call` for its tools; all else passes on.
//! Users reach it as `mcp_tailor::server` (feature `server`), where its guide is.

// Pre-1.0: what hosts never touch stays private; `pub` means public API.
#![warn(unreachable_pub)]

// The rooms' order, bottom to top, is written once: `SERVER_ROOMS` in
// `tests/tests/house.rs`, which checks that each imports only from the rooms before it
// (ARCHITECTURE.md draws it; rustfmt sorts the lines below).
mod build;
mod call;
mod callbacks;
mod catalog;
#[cfg(feature = "http")]
mod direct;
mod failure;
#[cfg(feature = "http")]
mod http_config;
mod instructions;
pub mod limits;
mod listing;
mod request;
mod session;
mod shares;
#[cfg(feature = "index")]
mod surface;
mod transport;
#[doc(hidden)]
pub mod verbatim;

pub use build::builder::ServerBuilder;
pub use build::error::BuildError;
pub use build::server::Server;
pub use call::context::CallContext;
pub use call::tasks::TaskSupport;
pub use callbacks::{BoxFuture, CallbackFailure};
pub use catalog::tool_result::IntoToolResult;
pub use catalog::tools::{AuthorizeFn, ToolRegistration};
pub use catalog::wrapped::NoHandler;
pub use failure::{Failure, FailureKind};
#[cfg(feature = "http")]
pub use http_config::HttpConfig;
pub use instructions::Instructions;
pub use listing::cursor::ShortSecret;
pub use listing::presentation::Presentation;
pub use request::era::Era;
pub use request::info::{Principal, RequestInfo};
pub use request::reader::Reader;
pub use session::handler::Session;
#[cfg(feature = "index")]
pub use surface::{DEFAULT_SHARE, Finder, IndexSurface, Surface, SurfaceRule};
pub use transport::error::ServeError;

/// Who may call the streamable HTTP endpoint: a bearer token, or (feature `oauth`) OAuth
/// 2.1 JWT access tokens. Wrap a server's router: `auth.guard(server.router())`.
#[cfg(feature = "http")]
pub mod auth {
    pub use super::transport::auth::{BearerToken, ClientAuth};
    #[cfg(feature = "oauth")]
    pub use super::transport::auth::{JwtAuth, JwtError, Refresh};
}

/// The `data.reason` of every JSON-RPC error the layer answers (and `data.cause` where a
/// deadline passed), for hosts and clients that match on them.
pub mod reason {
    pub use super::failure::{
        CAUSE_TIMEOUT, INNER_TOOLS_FAILURE, INSTRUCTIONS_PROVIDER_FAILURE, INVALID_CURSOR,
        INVALID_LEVEL, NO_SESSION, TOO_MANY_TASKS, TOOL_HANDLER_FAILURE, TOOL_PRESENTATION_FAILURE,
        UNKNOWN_TOOL, UPSTREAM_FAILURE,
    };
    #[cfg(feature = "index")]
    pub use super::surface::arguments::INVALID_ARGUMENTS;
    #[cfg(feature = "index")]
    pub use super::surface::choice::INVALID_SURFACE;
}

/// Names on the wire and in the environment: the `_meta` keys and HTTP headers that name a
/// reader, the custom request that sets a session's, the HTTP path, the environment
/// variable of the default verbosity, and the built-in client-name aliases.
pub mod wire {
    #[cfg(feature = "http")]
    pub use super::http_config::{ENV_REPLICA_TAG, ENV_TRUSTED_PROXIES};
    pub use super::listing::cursor::ENV_CURSOR_SECRET;
    pub use super::request::reader::{
        DEFAULT_ALIASES, ENV_VERBOSITY, HEADER_MODEL, HEADER_RUNNER, HEADER_VERBOSITY, META_MODEL,
        META_RUNNER, META_VERBOSITY,
    };
    pub use super::session::set_reader::SET_READER_METHOD;
    #[cfg(feature = "index")]
    pub use super::surface::index::{CALL_TOOL, DEFAULT_LIMIT, SEARCH_TOOLS};
    #[cfg(feature = "index")]
    pub use super::surface::{HEADER_SURFACE, META_SURFACE};
    #[cfg(feature = "http")]
    pub use super::transport::http::serve::MCP_PATH;
}

/// The official Rust MCP SDK this layer runs on, re-exported so hosts use the same version.
pub use rmcp;

/// What mcp-tailor's own gateway and `inspect` build on: a passed-on answer's bytes as the
/// upstream wrote them (`verbatim`), the layer's errors, whether a request came past rmcp's
/// session worker, and the one list of requests a layer passes on (`passed_on!`, exported
/// at the crate's root). Not a stable API: it changes with those crates.
#[doc(hidden)]
pub mod seam {
    pub use super::call::context::{has_session, is_direct};
    pub use super::failure::{internal, timed_out, unknown_tool};
    pub use super::session::passed_on::optional;
    pub use super::shares::{Place, Shares};
    #[cfg(feature = "index")]
    pub use super::surface::index::index_lines;
    pub use super::verbatim;
}
