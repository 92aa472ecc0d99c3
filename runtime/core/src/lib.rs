//! # mcp-tailor-core
//!
//! The runtime of mcp-tailor's DSL: what `#[mcp_tool]` expands against.
//! Users depend on `mcp-tailor`, which re-exports this crate and the macros;
//! the serving layer, `inspect` and the gateway build on it.
//!
//! * [`RenderCtx`]: who reads (runner, model, verbosity).
//! * [`Description`]: a table of variants, resolved for a context.
//! * [`McpTool`] and [`McpArgs`]: what the macros implement; [`ToolDef`] behind them.
//! * `Tailoring` (feature `tailoring`): the same tables from a TOML file.

// Pre-1.0: what hosts never touch stays private; `pub` means public API.
#![warn(unreachable_pub)]

mod annotations;
mod ctx;
mod decode;
mod def;
mod description;
mod locked;
mod schema;
#[doc(hidden)]
pub mod schema_path;
mod tool;

#[cfg(feature = "tailoring")]
mod tailoring;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[doc(hidden)]
pub mod dead_variant;

pub use annotations::Annotations;
pub use ctx::{DEFAULT_VERBOSITY, MAX_VERBOSITY, RenderCtx};
pub use def::{Fields, MissingField, ToolDef};
pub use description::Description;
#[cfg(all(feature = "rmcp", feature = "tailoring"))]
pub use tailoring::Unmatched;
#[cfg(feature = "tailoring")]
pub use tailoring::{AbsorbError, Diagnostic, FileError, Lean, Location, Tailoring, ToolTailoring};
pub use tool::{McpArgs, McpTool};

/// What mcp-tailor's own crates (the serving layer, `inspect`) build on: a tool's view
/// through a tailoring file, paths into an input schema, definitions made at run time,
/// locks held whatever a panic left.
/// Not a stable API: it changes with those crates.
#[doc(hidden)]
pub mod seam {
    #[cfg(feature = "inspect")]
    pub use crate::def::{RuntimeNested, RuntimeParts};
    pub use crate::description::Found;
    pub use crate::locked::Locked;
    pub use crate::schema_path;
    #[cfg(all(feature = "rmcp", feature = "tailoring"))]
    pub use crate::tailoring::ToolView;
    #[cfg(feature = "tailoring")]
    pub use crate::tailoring::source;
}
