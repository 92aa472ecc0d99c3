//! The reports of [`mcp_tailor::inspect`] as a command line: `list`, `matrix`, `tokens`,
//! `diff`, `lint` and `eval`, each with its options and `--help`. `mcp-tailor inspect`
//! reads them after its own options; a host binary gives its own catalog the same command
//! in one line:
//!
//! ```no_run
//! # async fn host(server: mcp_tailor::server::Server) -> std::process::ExitCode {
//! mcp_tailor_cli::reports::main(&server, "my-server", std::env::args().skip(1)).await
//! # }
//! ```
//!
//! Exit codes: 0, or 1 for findings (`lint`, `eval`) and for a report that could not be
//! made, 2 for a usage error. A report goes to standard output even with findings, so it
//! can be piped; a reader that closes it early (`… | head`) ends it quietly.

mod args;
mod print;

pub(crate) use args::EmbeddingArgs;
pub use args::{Report, Request, command, parse, request, subcommands, summary};
pub use print::{Printed, main, run, run_with};
pub(crate) use print::{print, searches_named};
