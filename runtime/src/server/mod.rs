//! Serving tailored tools over MCP on `rmcp` (feature `server`; streamable HTTP with
//! feature `http`).
//!
//! Build a server with [`Server::builder`], register `#[mcp_tool]` types with their
//! handlers, optionally wrap any rmcp `ServerHandler` (`.handler(inner)`: prompts,
//! resources, completion and everything else the layer does not own go to it unchanged,
//! and its tools are listed through the same pipeline), and serve it on stdio
//! ([`TailorServer::serve_stdio`]) or streamable HTTP (`TailorServer::serve_http`, path
//! `/mcp`). Hosts that keep their own handler use [`Reader::from_request`] and
//! [`McpTool::tool`](crate::McpTool::tool) instead. Per request the server resolves who reads
//! (the client's self-reported `clientInfo.name` through an alias table, the session's own
//! choice, `X-MCP-*` headers, `mcp-tailor.dev/*` `_meta` keys, or a host callback), decides
//! visibility (scopes, `authorize`), renders the tailored tools, applies the host's
//! presentation, and pages the result with signed cursors.
//!
//! **`clientInfo` is self-reported.** The MCP specification says it SHOULD NOT drive
//! security decisions, and here it does not: the reader changes wording only — never which
//! tools exist, their names, or what arguments they accept. Visibility comes from the
//! [`Principal`], which the host establishes (an HTTP middleware, or the stdio default).

#[cfg(feature = "http")]
mod accept;
mod builder;
mod callbacks;
mod catalog;
mod cursor;
mod custom;
mod era;
mod failure;
mod handler;
#[cfg(feature = "http")]
mod http;
mod icons;
mod inner;
mod instructions;
#[cfg(feature = "http")]
mod limits;
mod listing;
mod meta_key;
mod presentation;
mod reader;
mod request;
mod results;
mod session;
mod shared;
mod stdio;
mod subscriptions;
mod tailor_server;

pub use builder::{Server, ServerBuilder};
pub use callbacks::{BoxFuture, CallbackFailure};
pub use catalog::{AuthorizeFn, CatalogError, ToolRegistration};
pub use cursor::{Binding, BindingBuilder, CursorError, CursorSigner, MIN_SECRET_LEN, ShortSecret};
pub use custom::SET_READER_METHOD;
pub use era::Era;
pub use failure::{
    CAUSE_TIMEOUT, Failure, FailureKind, INNER_TOOLS_FAILURE, INSTRUCTIONS_PROVIDER_FAILURE,
    INVALID_CURSOR, NO_SESSION, TOOL_HANDLER_FAILURE, TOOL_PRESENTATION_FAILURE, UNKNOWN_TOOL,
};
pub use handler::TailorSession;
#[cfg(feature = "http")]
pub use http::MCP_PATH;
pub use icons::{MAX_ICONS, MAX_ICONS_JSON, validate_icons};
pub use inner::NoHandler;
pub use instructions::{Instructions, MAX_INSTRUCTIONS};
#[cfg(feature = "http")]
pub use limits::HttpConfig;
pub use meta_key::{MetaKeyError, validate_meta_key};
pub use presentation::{MAX_DESCRIPTION, MAX_META_DEPTH, MAX_TITLE, Presentation};
pub use reader::{
    DEFAULT_ALIASES, ENV_VERBOSITY, HEADER_MODEL, HEADER_RUNNER, HEADER_VERBOSITY, MAX_READER_NAME,
    META_MODEL, META_RUNNER, META_VERBOSITY, Reader,
};
pub use request::{Principal, RequestInfo};
pub use results::IntoToolResult;
pub use session::CallContext;
pub use stdio::ServeError;
pub use tailor_server::TailorServer;

/// The official Rust MCP SDK this layer runs on, re-exported so hosts use the same version.
pub use rmcp;
