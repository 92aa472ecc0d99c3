//! The `mcp-tailor` command ([`main`]): check and draft tailoring files, see what each
//! reader of a catalog gets, and serve any MCP server with its tools worded per reader
//! (`mcp-tailor --help`); and [`reports`], the command line of `mcp_tailor::inspect`'s
//! reports for a host binary's own catalog.

mod access;
mod args;
mod error;
mod init;
mod inspect;
mod metrics;
mod proxy;
mod redact;
pub mod reports;
mod servers;
mod upstreams;
mod values;

use args::Command;
pub use error::CommandError;
use std::process::ExitCode;

/// The `mcp-tailor` command, on this process's arguments; returns its exit code.
pub fn main() -> ExitCode {
    let command = match args::parse(std::env::args()) {
        Ok(command) => command,
        Err(error) => return clap_exit(&error),
    };
    match command {
        Command::Check { file, source } => check(&file, source.as_ref()),
        Command::Proxy(options) => proxy::run(*options),
        Command::Inspect(options) => inspect::run(options),
        Command::Init(options) => init::run(options),
    }
}

/// Prints clap's error: help and the version on stdout (exit 0), a usage error on stderr
/// (exit 2).
fn clap_exit(error: &clap::Error) -> ExitCode {
    let _ = error.print();
    ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
}

/// Writes `text` and a newline to standard output. A reader that closed it (`… | head`)
/// is no error: nothing more is written, and nothing said about it.
fn print_out(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("mcp-tailor: cannot write the output: {error}");
        }
        _ => {}
    }
}

/// `n` and `noun`, in the plural unless `n` is 1 (nouns ending in `s` take `es`).
pub(crate) fn counted(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        (_, false) => format!("{n} {noun}s"),
    }
}

/// The async runtime `proxy`, `inspect` and `init` run on, or the exit that says why there
/// is none. One thread: a proxy's work is many short hops between its client, the layer and
/// the upstream, and on one thread none of them waits for another thread to wake (measured
/// in BENCHMARKS.md §9: about half the CPU per request of tokio's multi-thread runtime).
fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    runtime.map_err(|error| {
        eprintln!("mcp-tailor: cannot start the runtime: {error}");
        ExitCode::FAILURE
    })
}

/// What `init`'s audit finds of the entries `tailoring` has from `init` (`drafted_from`)
/// against `tools`: each level made of the server's own sentences, its rules kept, levels
/// that shrink as they fall; and the level-0 descriptions over the bound, each with why.
fn audited(
    tailoring: &mcp_tailor::Tailoring,
    tools: &[mcp_tailor::server::rmcp::model::Tool],
) -> Vec<String> {
    use mcp_tailor::init;
    let drafted: Vec<_> = tools
        .iter()
        .filter(|tool| {
            tailoring
                .tools()
                .any(|(name, entry)| name == tool.name && entry.drafted_from().is_some())
        })
        .cloned()
        .collect();
    if drafted.is_empty() {
        return Vec::new();
    }
    let audit = init::audit(&drafted, tailoring, init::bound(init::TERSE_TOKENS));
    let mut out: Vec<String> = audit
        .findings
        .iter()
        .map(|f| format!("drafted words: {f}"))
        .collect();
    for over in &audit.over {
        let why = match over.why {
            init::OverWhy::Rules => "its rules go last",
            _ => "a search finds it by these words",
        };
        out.push(format!(
            "drafted words: {} [0..=2]: {} tokens, over {} ({why})",
            over.tool, over.tokens, audit.bound
        ));
    }
    out
}

/// `check FILE`: every error, then 1; or the warnings, then 0.
fn check(file: &str, source: Option<&args::Source>) -> ExitCode {
    let tailoring = match mcp_tailor::Tailoring::load(file) {
        Ok(tailoring) => tailoring,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let mut warnings: Vec<String> = tailoring
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect();
    if let Some(source) = source {
        let fetched = crate::runtime().map(|runtime| runtime.block_on(inspect::fetch(source)));
        match fetched {
            Ok(Ok(listed)) => {
                warnings.extend(
                    mcp_tailor::init::drift(&tailoring, &listed.tools)
                        .iter()
                        .map(ToString::to_string),
                );
                warnings.extend(audited(&tailoring, &listed.tools));
            }
            Ok(Err(error)) => {
                eprintln!("mcp-tailor: {error}");
                return ExitCode::FAILURE;
            }
            Err(code) => return code,
        }
    }
    for warning in &warnings {
        eprintln!("{warning}");
    }
    let arguments: usize = tailoring.tools().map(|(_, t)| t.arguments().count()).sum();
    let warned = match warnings.len() {
        0 => String::new(),
        n => format!(", {}", counted(n, "warning")),
    };
    print_out(&format!(
        "{file}: ok: {} and {} worded{warned}",
        counted(tailoring.tools().count(), "tool"),
        counted(arguments, "argument")
    ));
    ExitCode::SUCCESS
}
