//! # mcp-tailor
//!
//! One MCP tool, many readers. Declare a tool's description, title and argument
//! descriptions once, as a table of variants by verbosity level (0..=9), runner (harness)
//! and model; `#[mcp_tool]` checks the table completely at compile time and emits the
//! finished lookup tables (one packed constant per tool, decoded once on first use), so
//! resolving the text for a request is an index and a few string compares.
//!
//! ```
//! use mcp_tailor::{mcp_tool, McpTool, RenderCtx};
//!
//! /// Search the notes.
//! #[mcp_tool(
//!     description = [
//!         (verbosity(0..=2), "Search notes."),
//!         (verbosity(7..=9), "Full-text search over every note; returns ids and snippets."),
//!     ],
//!     descriptions = [grok_hint = "Search notes. Pass `query` as plain words, no operators."],
//!     runners = [((grok, _), [default = grok_hint])],
//! )]
//! #[derive(serde::Deserialize, schemars::JsonSchema)]
//! struct SearchNotes {
//!     /// Words to look for.
//!     #[mcp(description = [(verbosity(0), "words"), (verbosity(5), "Words to look for.")])]
//!     query: String,
//! }
//!
//! assert_eq!(SearchNotes::NAME, "search_notes");
//! let terse = RenderCtx::new().verbosity(1);
//! assert_eq!(SearchNotes::description(&terse), Some("Search notes."));
//! assert_eq!(SearchNotes::field_description("query", &terse), Some("words"));
//! let grok = RenderCtx::new().runner("grok");
//! assert_eq!(
//!     SearchNotes::description(&grok),
//!     Some("Search notes. Pass `query` as plain words, no operators.")
//! );
//! let tool = SearchNotes::render(&terse);
//! assert_eq!(tool["inputSchema"]["properties"]["query"]["description"], "words");
//! ```
//!
//! The whole DSL, the warnings, the compile errors and the resolution rules: [`dsl`].

#[doc = include_str!("../docs/dsl.md")]
pub mod dsl {}

/// The crate readme's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

pub use mcp_tailor_core::*;
pub use mcp_tailor_macros::{description, mcp_args, mcp_tool};

// The guides are inner docs, so that their links resolve among the module's own items.
#[cfg(feature = "server")]
pub mod server {
    #![doc = include_str!("../docs/server.md")]
    pub use mcp_tailor_server::*;
}

#[cfg(feature = "inspect")]
pub mod inspect {
    #![doc = include_str!("../docs/inspect.md")]
    pub use mcp_tailor_inspect::*;
}

#[cfg(feature = "init")]
pub use mcp_tailor_init as init;

#[cfg(feature = "gateway")]
pub use mcp_tailor_gateway as gateway;
