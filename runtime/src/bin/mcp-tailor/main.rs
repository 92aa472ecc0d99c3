//! `mcp-tailor`: check a tailoring file, or serve any MCP server tailored by one.
//!
//! ```text
//! mcp-tailor check FILE
//! mcp-tailor proxy [--tailoring FILE] [--http ADDR] [--deadline SECS] [--runner R] [--model M] [--verbosity N] (-- COMMAND ARGS… | --upstream URL [--upstream-header "NAME: VALUE"]…)
//! mcp-tailor inspect [--tailoring FILE] (--upstream URL | --catalog FILE) SUBCOMMAND ARGS… [-- COMMAND ARGS…]
//! mcp-tailor init [--out FILE] [--tasks FILE] (-- COMMAND ARGS… | --upstream URL | --catalog FILE)
//! ```

mod args;
mod init;
mod inspect;
mod proxy;

use args::Command;
use std::process::ExitCode;

const USAGE: &str = "\
usage: mcp-tailor check FILE
       mcp-tailor proxy [--tailoring FILE] [--http ADDR] [--deadline SECS] [--runner R] [--model M] [--verbosity N]
                        (-- COMMAND ARGS… | --upstream URL [--upstream-header 'NAME: VALUE']…)
       mcp-tailor inspect [--tailoring FILE] (--upstream URL | --catalog FILE) SUBCOMMAND ARGS… [-- COMMAND ARGS…]
       mcp-tailor init [--out FILE] [--tasks FILE] (-- COMMAND ARGS… | --upstream URL | --catalog FILE)

check   load FILE with every rule the #[mcp_tool] macro applies; exit 1 with each error
        on stderr as FILE:LINE:COL: message (warnings are printed and exit 0)
proxy   serve the upstream server (a stdio command, or streamable HTTP at URL) with its
        tools' wording tailored by FILE, on stdio or at http://ADDR/mcp; FILE is watched
        (and SIGHUP reloads it): a valid edit takes effect at once, an invalid one is
        logged and the previous tables stay; --runner/--model/--verbosity are the reader
        of a request that names none; --upstream-header is sent to the upstream on every
        request (`${VAR}` in its value is read from the environment); a command upstream
        inherits this process's environment
inspect what each reader of the upstream's tools (or of a captured tools/list result, JSON)
        gets as FILE tailors them: list, matrix, tokens, diff, lint, eval (their options as
        the inspect command's own, e.g. `list --runner codex --verbosity 0`); lint also names
        what FILE declares that the catalog lacks. With `-- COMMAND ARGS…`, the subcommand
        comes before `--`
init    draft a commented tailoring file for every tool and described argument of the
        server (levels 0..=2 terse, 3..=6 clipped, 7..=9 left to the server's own words),
        checked like `check`, to FILE or stdout; print what each level costs before and
        after; with --tasks, keep in a tool's terse text the words a task finds it by";

fn main() -> ExitCode {
    let command = match args::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("mcp-tailor: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Command::Check { file } => check(&file),
        Command::Proxy(options) => proxy::run(options),
        Command::Inspect(options) => inspect::run(options),
        Command::Init(options) => init::run(options),
    }
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

/// The async runtime `proxy` and `inspect` run on, or the exit that says why there is none.
fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Runtime::new().map_err(|error| {
        eprintln!("mcp-tailor: cannot start the runtime: {error}");
        ExitCode::FAILURE
    })
}

/// `check FILE`: every error, then 1; or the warnings, then 0.
fn check(file: &str) -> ExitCode {
    match mcp_tailor::Tailoring::load(file) {
        Ok(tailoring) => {
            for warning in tailoring.warnings() {
                eprintln!("{warning}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}
