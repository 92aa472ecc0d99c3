//! What every reader of a catalog gets, in bytes and **tokens**, and a lint that catches
//! wrong wording before a model does (feature `inspect`).
//!
//! Any host binary exposes it in two lines (or [`run_defs`] for bare definitions):
//!
//! ```no_run
//! # async fn host(server: mcp_tailor::server::Server) {
//! let outcome = mcp_tailor::inspect::run(&server, std::env::args().skip(1)).await;
//! std::process::exit(outcome.print());
//! # }
//! ```
//!
//! Subcommands: `list` (the server's `tools/list` result for one reader, byte for byte),
//! `matrix` (every string per reader class and level), `tokens` (the catalog's tokens per
//! reader and level, and what each level saves), `diff A B`, `lint` (non-zero exit on
//! findings), and `eval` (whether each reader still finds the right tool at each level with
//! the Codex CLI's tool search; see [`eval`]). Reader classes are every (runner, model) the catalog's rules name, plus
//! "no runner" (`-`), less those that read exactly like an earlier one. Tokens are
//! `o200k_base`. The catalog is the registered tools; a wrapped handler's own tools need
//! a live request and are not included.

#![doc = include_str!("../../docs/inspect.md")]

mod catalog;
mod commands;
pub mod draft;
pub mod eval;
mod lint;
mod options;
mod readers;
mod report;
mod tokens;
mod upstream;

pub use catalog::{CallerCatalog, Size, listing_json};
pub use lint::{Finding, LintConfig, lint};
pub use readers::{ReaderClass, reader_classes};
pub use tokens::count as count_tokens;
pub use upstream::{read_catalog, run_tools};

use crate::server::Server;
use crate::server::rmcp::ServerHandler;

/// How to use the command.
pub const USAGE: &str = "\
usage: list   [--runner R] [--model M] [--verbosity N] [CALLER] [--pretty]
       matrix [CALLER] [--json]
       tokens [CALLER] [--json]
       diff   READER_A READER_B [CALLER]
       lint   [--budget LEVELS=TOKENS]... [CALLER]
       eval   --tasks FILE [--top K] [--floor F] [--svg FILE] [CALLER] [--json]
CALLER: [--principal ID] [--tenant T] [--scopes a,b] [--protocol 2025-11-25|2026-07-28]
READER: -  |  runner  |  runner/model  |  _/model

list    the tools/list result the server sends this reader, byte for byte (first page)
matrix  every tool string per reader class and level, with tokens; then the catalog
tokens  the whole catalog's o200k_base tokens per reader and level, and each level's saving
diff    the strings two readers read differently, and their catalog tokens per level
lint    wording that names arguments a tool lacks, terse levels costing more than rich
        ones, texts over a budget (e.g. --budget 0..=3=40), readers whose catalog never
        varies by level, tools that ignore unknown arguments while naming arguments
eval    for every reader and level, the catalog's tokens and how well the Codex CLI's tool
        search (exact names, then BM25) finds each task's tool: hit@1, hit@K (default 8),
        MRR, each rank; findings: a tool a terser level loses (naming the query words it
        lost), a reader whose hit@1 falls below --floor (0..=1); --svg draws tokens against
        hit@1 per reader";

/// What a command printed, and whether it succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The output (for standard output on success, standard error on failure).
    pub output: String,
    /// `false` for a usage error or `lint` findings.
    pub success: bool,
}

impl Outcome {
    fn ok(output: String) -> Outcome {
        Outcome {
            output,
            success: true,
        }
    }

    fn fail(output: String) -> Outcome {
        Outcome {
            output,
            success: false,
        }
    }

    /// Prints the output (standard error for a usage error, standard output otherwise, so
    /// that a report with findings can still be piped) and returns the process exit code
    /// (see [`print_code`](Self::print_code)).
    pub fn print(&self) -> i32 {
        let code = self.print_code();
        if code == 2 {
            eprintln!("{}", self.output);
        } else {
            println!("{}", self.output);
        }
        code
    }

    /// The process exit code: 0, or 1 for findings and 2 for a usage error.
    pub fn print_code(&self) -> i32 {
        match (self.success, self.output.starts_with("usage error")) {
            (true, _) => 0,
            (false, true) => 2,
            (false, false) => 1,
        }
    }
}

/// Runs one subcommand against a catalog of definitions alone (no handlers, default
/// server settings, no presentation), for tools that are not served yet.
pub async fn run_defs(
    defs: &[&'static crate::ToolDef],
    args: impl IntoIterator<Item = String>,
) -> Outcome {
    let builder = defs
        .iter()
        .fold(crate::server::Server::builder(), |b, def| {
            b.register(crate::server::ToolRegistration::listing_only(def))
        });
    match builder.build() {
        Ok(server) => run(&server, args).await,
        Err(e) => Outcome::fail(format!("the catalog is invalid: {e}")),
    }
}

/// Runs one subcommand against `server`'s catalog.
pub async fn run<H: ServerHandler + Clone>(
    server: &Server<H>,
    args: impl IntoIterator<Item = String>,
) -> Outcome {
    let mut args = args.into_iter();
    let command = args.next();
    let result = match options::options(args) {
        Ok(options) => match command.as_deref() {
            Some(command) => commands::execute(server, command, options).await,
            None => Err("no command given".to_owned()),
        },
        Err(e) => Err(e),
    };
    match result {
        Ok(outcome) => outcome,
        Err(message) => Outcome::fail(format!("usage error: {message}\n\n{USAGE}")),
    }
}
