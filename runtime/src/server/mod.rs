//! Serving tailored tools over MCP on `rmcp` (feature `server`).
//!
//! Build a server with [`Server::builder`], register `#[mcp_tool]` types with their
//! handlers, and serve it on stdio ([`TailorServer::serve_stdio`]) or streamable HTTP
//! ([`TailorServer::serve_http`], path `/mcp`). Per request the server resolves who reads
//! (the client's self-reported `clientInfo.name` through an alias table, the session's own
//! choice, `X-MCP-*` headers, `mcp-tailor.dev/*` `_meta` keys, or a host callback), decides
//! visibility (scopes, `authorize`), renders the tailored tools, applies the host's
//! presentation, and pages the result with signed cursors.
//!
//! **`clientInfo` is self-reported.** The MCP specification says it SHOULD NOT drive
//! security decisions, and here it does not: the reader changes wording only — never which
//! tools exist, their names, or what arguments they accept. Visibility comes from the
//! [`Principal`], which the host establishes (an HTTP middleware, or the stdio default).

mod builder;
mod callbacks;
mod catalog;
mod cursor;
mod failure;
mod handler;
mod icons;
mod instructions;
mod listing;
mod meta_key;
mod presentation;
mod reader;
mod request;
mod session;
mod transport;

pub use builder::{Server, ServerBuilder};
pub use callbacks::{BoxFuture, CallbackFailure};
pub use catalog::{AuthorizeFn, CatalogError, IntoToolResult, ToolRegistration};
pub use cursor::{Binding, BindingBuilder, CursorError, CursorSigner};
pub use failure::{Failure, FailureKind};
pub use handler::{SET_READER_METHOD, TailorServer, TailorSession};
pub use icons::{MAX_ICONS, MAX_ICONS_JSON, validate_icons};
pub use instructions::{Instructions, MAX_INSTRUCTIONS};
pub use meta_key::{MetaKeyError, validate_meta_key};
pub use presentation::{MAX_DESCRIPTION, MAX_META_DEPTH, MAX_TITLE, Presentation};
pub use reader::{
    DEFAULT_ALIASES, ENV_VERBOSITY, HEADER_MODEL, HEADER_RUNNER, HEADER_VERBOSITY, META_MODEL,
    META_RUNNER, META_VERBOSITY,
};
pub use request::{Principal, Reader, RequestInfo};
pub use session::CallContext;
pub use transport::{MCP_PATH, ServeError};

/// The official Rust MCP SDK this layer runs on, re-exported so hosts use the same version.
pub use rmcp;
