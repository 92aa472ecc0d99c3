//! # mcp-tailor-inspect
//!
//! What every reader of a catalog gets, in bytes and tokens; a lint of the wording;
//! `eval` of findability; and `init`'s drafts of a tailoring file.
//! Users reach it as `mcp_tailor::inspect` (feature `inspect`), where its guide is.

// Pre-1.0: what hosts never touch stays private; `pub` means public API.
#![warn(unreachable_pub)]

mod catalog;
mod drift;
pub mod eval;
pub mod init;
mod inspection;
mod lint;
mod prose;
mod readers;
mod report;
mod tokens;
mod upstream;

pub use catalog::{CallerCatalog, Size, listing_json};
pub use drift::drift;
pub use eval::IndexFinder;
pub use init::fingerprint;
pub use inspection::{InspectError, Inspection, listing_server};
pub use lint::{Finding, LintConfig, lint};
pub use readers::{ReaderClass, reader_classes};
pub use report::{Diff, Matrix, Tokens};
pub use tokens::count as count_tokens;
pub use upstream::{definitions, lacking, read_catalog};
