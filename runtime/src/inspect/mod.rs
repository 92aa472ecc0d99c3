//! What every reader of a catalog gets, in bytes and **tokens**, and a lint that catches
//! wrong wording before a model does (feature `inspect`).
//!
//! Every report is a method of an [`Inspection`] and returns a value: `list` (the server's
//! `tools/list` result for one reader, byte for byte), [`Matrix`] (every string per reader
//! class and level), [`Tokens`] (the catalog's tokens per reader and level, and what each
//! level saves), [`Diff`] (two readers), `lint` (findings), and `eval` (whether each reader
//! still finds the right tool at each level with the Codex CLI's tool search; see
//! [`eval`]). Reader classes are every (runner, model) the catalog's rules name, plus "no
//! runner" (`-`), less those that read exactly like an earlier one. Tokens are
//! `o200k_base`. The catalog is the registered tools; a wrapped handler's own tools need a
//! live request and are not included. The command line that prints these reports (for
//! `mcp-tailor inspect`, and for a host binary of its own catalog) is the `mcp-tailor-cli`
//! package's.

#![doc = include_str!("../../docs/inspect.md")]

mod catalog;
pub mod draft;
pub mod eval;
mod inspection;
mod lint;
mod readers;
mod report;
mod tokens;
mod upstream;

pub use catalog::{CallerCatalog, Size, listing_json};
pub use inspection::{InspectError, Inspection, listing_server};
pub use lint::{Finding, LintConfig, lint};
pub use readers::{ReaderClass, reader_classes};
pub use report::{Diff, Matrix, Tokens};
pub use tokens::count as count_tokens;
pub use upstream::{definitions, lacking, read_catalog};
