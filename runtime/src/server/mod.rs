#![doc = include_str!("../../docs/server.md")]

#[cfg(feature = "http")]
mod accept;
mod builder;
mod built;
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
pub mod limits;
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

pub use builder::ServerBuilder;
pub use built::Server;
pub use callbacks::{BoxFuture, CallbackFailure};
pub use catalog::{AuthorizeFn, BuildError, ToolRegistration};
pub use cursor::ShortSecret;
pub use era::Era;
pub use failure::{Failure, FailureKind};
pub use handler::Session;
pub use inner::NoHandler;
pub use instructions::Instructions;
pub use presentation::Presentation;
pub use reader::Reader;
pub use request::{Principal, RequestInfo};
pub use results::IntoToolResult;
pub use session::CallContext;
pub use stdio::ServeError;

/// The `data.reason` of every JSON-RPC error the layer answers (and `data.cause` where a
/// deadline passed), for hosts and clients that match on them.
pub mod reason {
    pub use super::failure::{
        CAUSE_TIMEOUT, INNER_TOOLS_FAILURE, INSTRUCTIONS_PROVIDER_FAILURE, INVALID_CURSOR,
        NO_SESSION, TOOL_HANDLER_FAILURE, TOOL_PRESENTATION_FAILURE, UNKNOWN_TOOL,
    };
}

/// Names on the wire and in the environment: the `_meta` keys and HTTP headers that name a
/// reader, the custom request that sets a session's, the HTTP path, the environment
/// variable of the default verbosity, and the built-in client-name aliases.
pub mod wire {
    pub use super::custom::SET_READER_METHOD;
    #[cfg(feature = "http")]
    pub use super::http::MCP_PATH;
    pub use super::reader::{
        DEFAULT_ALIASES, ENV_VERBOSITY, HEADER_MODEL, HEADER_RUNNER, HEADER_VERBOSITY, META_MODEL,
        META_RUNNER, META_VERBOSITY,
    };
}

/// The official Rust MCP SDK this layer runs on, re-exported so hosts use the same version.
pub use rmcp;
