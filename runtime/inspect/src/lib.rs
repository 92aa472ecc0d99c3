//! # mcp-tailor-inspect
//!
//! What every reader of a catalog gets, in bytes and tokens; a lint of the wording; and
//! `eval` of findability. (`init`'s drafts are the crate above: `mcp-tailor-init`.)
//! Users reach it as `mcp_tailor::inspect` (feature `inspect`), where its guide is.

// Pre-1.0: what hosts never touch stays private; `pub` means public API.
#![warn(unreachable_pub)]

mod catalog;
pub mod eval;
mod inspection;
mod lint;
mod prose;
mod readers;
mod report;
mod tokens;
mod upstream;

pub use catalog::{CallerCatalog, Size, listing_json};
pub use eval::IndexFinder;
pub use inspection::{InspectError, Inspection, listing_server};
pub use lint::{Finding, LintConfig, lint};
pub use readers::{ReaderClass, reader_classes};
pub use report::{Diff, Matrix, Tokens};
pub use tokens::count as count_tokens;
pub use upstream::{CatalogError, definitions, lacking, read_catalog};

/// What `mcp-tailor-init` drafts with and no user should touch: a description read as
/// units kept whole (`prose`), the argument names a schema holds, and the words a search
/// lost. It changes without notice.
#[doc(hidden)]
pub mod seam {
    pub use crate::eval::findings::lost_words;
    pub use crate::lint::property_names;

    /// A server's description read as prose a drafted level can trust.
    pub mod prose {
        pub use crate::prose::rules::{is_call_rule, is_rule};
        pub use crate::prose::{
            Form, Kind, Picks, Unit, compose, faithful, ruled, sentences, units,
        };
    }
}
