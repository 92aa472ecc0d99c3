//! The command line (`clap`'s derive): each command's arguments, help and errors as typed
//! fields, then checked into the options the commands take (exactly one upstream, the
//! report's own arguments).

use crate::values::{listen_addr, seconds};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use door::DoorArgs;
pub(crate) use door::{Auth, Door};
use mcp_tailor::gateway::{Upstream, UpstreamSessions};
use mcp_tailor::inspect::init::Fit;
use sources::{CATALOG_HELP, COMMAND_HELP, CatalogArgs, ServerArgs, UpstreamArgs, source};
use std::net::SocketAddr;
use std::time::Duration;

/// What to do.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    Check {
        file: String,
        /// The catalog to compare the file's fingerprints with (`--catalog`, `--upstream`,
        /// `-- COMMAND`), if given.
        source: Option<Source>,
    },
    Proxy(ProxyOptions),
    Inspect(InspectOptions),
    Init(InitOptions),
}

/// What `init` drafts from and `inspect` reads: one server (or catalog), or every server
/// of an `mcpServers` file (`--servers`).
#[derive(Debug, PartialEq)]
pub(crate) enum Sources {
    One(Source),
    /// The path of an `mcpServers` file.
    Servers(String),
}

/// What `proxy` serves.
#[derive(Debug, PartialEq)]
pub(crate) enum Upstreams {
    One(Upstream),
    /// The path of an `mcpServers` file.
    Servers(String),
}

/// `init`'s options: where the catalog comes from, where the draft goes, a tasks file.
#[derive(Debug, PartialEq)]
pub(crate) struct InitOptions {
    /// One server (or catalog), or every server of an `mcpServers` file (`--servers`).
    pub(crate) source: Sources,
    pub(crate) out: Option<String>,
    pub(crate) tasks: Option<String>,
    /// `--update FILE`: the drafted file to bring up to date.
    pub(crate) update: Option<String>,
    /// `--fit LEVELS=TOKENS`, each.
    pub(crate) fits: Vec<Fit>,
    /// The embedding model's folder: the check ranks with it too.
    pub(crate) embedding_model: Option<String>,
}

/// Where `inspect` and `init` read the catalog from.
#[derive(Debug, PartialEq)]
pub(crate) enum Source {
    Upstream(Upstream),
    Catalog(String),
}

/// `inspect`'s options: the file, the catalog, and the report with its own arguments
/// (`list --runner codex`, `lint`, …).
#[derive(Debug, PartialEq)]
pub(crate) struct InspectOptions {
    pub(crate) tailoring: Option<String>,
    pub(crate) source: Sources,
    pub(crate) report: Vec<String>,
}

/// `proxy`'s options.
#[derive(Debug, PartialEq)]
pub(crate) struct ProxyOptions {
    pub(crate) tailoring: Option<String>,
    pub(crate) http: Option<SocketAddr>,
    /// Threads serving HTTP (`--threads`).
    pub(crate) threads: u16,
    pub(crate) deadline: Duration,
    /// One upstream, or the servers of an `mcpServers` file (`--servers`).
    pub(crate) upstream: Upstreams,
    /// The reader of a request that names none (`--runner`, `--model`, `--verbosity`).
    pub(crate) runner: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) verbosity: Option<u8>,
    /// One upstream session per client, or one shared; a warm spare.
    pub(crate) sessions: UpstreamSessions,
    pub(crate) warm_spare: bool,
    /// Send the upstream each client's own `Authorization`.
    pub(crate) forward_authorization: bool,
    /// Tools per `tools/list` page (`--page-size`; else as the upstream pages).
    pub(crate) page_size: Option<usize>,
    /// Who may call over HTTP, and from which origins.
    pub(crate) door: Door,
    /// Where Prometheus reads the metrics (`--metrics`).
    pub(crate) metrics: Option<SocketAddr>,
    /// The log's lines: for people, or one JSON object each.
    pub(crate) log_json: bool,
}

const ABOUT: &str = "One tool, many readers: check and draft tailoring files, see what each \
reader of a catalog gets, and serve any MCP server with its tools worded per reader.";

/// The whole command line, as clap reads it.
#[derive(Debug, Parser)]
#[command(
    name = "mcp-tailor",
    version,
    about = ABOUT,
    long_about = None,
    subcommand_required = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, Subcommand)]
enum Sub {
    #[command(
        about = "Check a tailoring file with every rule the #[mcp_tool] macro applies",
        long_about = "Load FILE with every rule the #[mcp_tool] macro applies: exit 1 with each \
                      error on stderr as FILE:LINE:COL: message; warnings are printed and exit 0. \
                      With a catalog (--catalog, --upstream or -- COMMAND), also warn of each \
                      tool whose own words changed since the file was drafted (its \
                      drafted_from), each tool the file names and the catalog lacks, and each \
                      tool added since."
    )]
    Check(CheckArgs),
    #[command(
        about = "Serve an MCP server with its tools' wording tailored per reader",
        long_about = "Serve the upstream server (a command over stdio, or streamable HTTP at URL) \
                      with its tools' wording tailored by the file, on stdio or at \
                      http://ADDR/mcp. The file is watched (and SIGHUP reloads it): a valid \
                      edit takes effect at once, an invalid one is logged and the previous \
                      tables stay. A command upstream inherits this process's environment. \
                      A request whose reader names no level reads the server's own words, \
                      unless --verbosity (or `fallback_verbosity = N` in the file) sets one: \
                      a file rewords only what a client asked for."
    )]
    Proxy(ProxyArgs),
    #[command(
        about = "Show what each reader of a server's tools gets, as a tailoring file words them",
        long_about = "Show what each reader of the upstream's tools (or of a captured tools/list \
                      result, JSON) gets as the file tailors them. REPORT is one of list, \
                      matrix, tokens, diff, lint, eval, with its own options (e.g. `list \
                      --runner codex --verbosity 0`); lint also names what the file declares \
                      that the catalog lacks. With `-- COMMAND ARGS…`, the report comes before \
                      `--`.",
        after_help = inspect_after_help()
    )]
    Inspect(InspectArgs),
    #[command(
        about = "Draft a tailoring file from a server's own words",
        long_about = "Draft a commented tailoring file for every tool and described argument of \
                      the server (levels 0..=2 terse, 3..=6 clipped, 7..=9 left to the server's \
                      own words), checked like `check`, to FILE or stdout; print what each level \
                      costs before and after on stderr."
    )]
    Init(InitArgs),
}

/// `proxy`'s command line.
#[derive(Debug, Args)]
struct ProxyArgs {
    #[arg(long, value_name = "FILE", help = TAILORING_HELP)]
    tailoring: Option<String>,
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["upstream", "command"],
        help = "Serve every server of an mcpServers file (Claude, Cursor, VS Code) behind one endpoint",
        long_help = "Serve every server of an mcpServers file — Claude Desktop's, Claude Code's \
                     .mcp.json, Cursor's, or VS Code's {\"servers\": …} — behind one endpoint. \
                     A tool name one server lists is served as it is; one several list is served \
                     as SERVER_NAME by each. Keys of mcp-tailor's own per server: \"tailoring\" \
                     (a file for its tools, by their own names), \"tools\": {\"allow\": [...], \
                     \"deny\": [...]} (names or globs) and \"deadline\" (seconds). --tailoring \
                     then words the whole, by the names served. A server that does not answer is \
                     retried in the background while the others serve."
    )]
    servers: Option<String>,
    #[arg(
        long,
        value_name = "ADDR",
        value_parser = listen_addr,
        help = "Serve streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8080, localhost:8080) instead of stdio"
    )]
    http: Option<SocketAddr>,
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        default_value_t = 1,
        value_parser = clap::value_parser!(u16).range(1..=256),
        help = "Threads serving HTTP connections",
        long_help = "Threads serving HTTP connections, each accepting on the same port and \
                     keeping the connections (and the sessions opened on them) it accepted. \
                     More threads list faster under concurrent clients and cost more CPU per \
                     request; the calls of clients sharing one upstream session \
                     (--upstream-sessions shared) go slower, as they cross threads to reach it \
                     (BENCHMARKS.md §9)."
    )]
    threads: u16,
    #[arg(
        long,
        value_name = "SECS",
        default_value = "10",
        value_parser = seconds,
        help = "How long a request may take, the upstream's answer included"
    )]
    deadline: Duration,
    #[command(flatten)]
    reader: ReaderArgs,
    #[arg(
        long = "upstream-sessions",
        value_name = "MODE",
        value_enum,
        default_value_t = SessionsArg::PerClient,
        help = "One upstream session per client (its own process, for a command), or one shared by all",
        long_help = "per-client: each client its own upstream session, opened with the client's \
                     own initialize (the first client takes the one the proxy opened at start \
                     when it declares no capabilities). shared: one upstream session for all; \
                     what the upstream asks a client (sampling, elicitation, roots) goes to the \
                     client whose request is in flight, and is refused when that cannot be \
                     told; its notifications go to every client."
    )]
    upstream_sessions: SessionsArg,
    #[arg(
        long = "warm-spare",
        help = "Per client: keep an upstream session open ahead, so a new client does not wait for one to start"
    )]
    warm_spare: bool,
    #[arg(
        long = "page-size",
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        help = "Tools per tools/list page (default: as the upstream pages its own listing)",
        long_help = "Tools per tools/list page. By default the proxy pages as the upstream does: \
                     as many tools a page as the upstream's first page held, or all on one page \
                     where the upstream lists them so, so that a client that follows no cursor \
                     gets every tool it would directly."
    )]
    page_size: Option<u32>,
    #[arg(
        long = "forward-authorization",
        requires = "upstream",
        help = "Send an --upstream URL each client's own Authorization header (streamable HTTP clients)",
        long_help = "Send an --upstream URL each client's own Authorization header: each \
                     upstream connection then carries one client's credential (a session's own; \
                     shared, or for stateless requests, one per credential), never another's. \
                     A client without one is forwarded without one."
    )]
    forward_authorization: bool,
    #[arg(
        long,
        value_name = "ADDR",
        value_parser = listen_addr,
        help = "Serve Prometheus metrics at http://ADDR/metrics",
        long_help = "Serve the proxy's metrics as Prometheus (OpenMetrics) text at \
                     http://ADDR/metrics: requests by method and outcome, their latency, the \
                     upstream's connections (open, opened, lost), and the tokens each reader's \
                     tools/list costs and saves against the server's own words at each level \
                     (counted once per catalog, as `inspect tokens` counts them)."
    )]
    metrics: Option<SocketAddr>,
    #[arg(
        long = "log-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = LogFormat::Text,
        help = "The log on stderr: text for people, or json (one object a line, for a log collector)"
    )]
    log_format: LogFormat,
    #[command(flatten)]
    door: DoorArgs,
    #[command(flatten)]
    server: ServerArgs,
}

/// `--upstream-sessions`.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
enum SessionsArg {
    PerClient,
    Shared,
}

/// `--log-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// `--runner`, `--model`, `--verbosity`: the reader of a request that names none.
#[derive(Debug, Args)]
struct ReaderArgs {
    #[arg(
        long,
        value_name = "NAME",
        help = "The runner of a reader that names none (a client config pins what its client does not report)"
    )]
    runner: Option<String>,
    #[arg(
        long,
        value_name = "NAME",
        help = "The model of a reader that names none"
    )]
    model: Option<String>,
    #[arg(
        long,
        value_name = "LEVEL",
        value_parser = clap::value_parser!(u8).range(0..=9),
        help = "The level 0..=9 of a reader that names none (default: the file's fallback_verbosity, else the server's own words)"
    )]
    verbosity: Option<u8>,
}

/// `inspect`'s command line.
#[derive(Debug, Args)]
struct InspectArgs {
    #[arg(long, value_name = "FILE", help = TAILORING_HELP)]
    tailoring: Option<String>,
    // The report's values end at `--`; the upstream's command follows.
    #[arg(
        value_name = "REPORT",
        required = true,
        num_args = 1..,
        allow_hyphen_values = true,
        value_terminator = "--",
        help = "The report and its options: list, matrix, tokens, diff, lint or eval"
    )]
    report: Vec<String>,
    #[command(flatten)]
    upstream: UpstreamArgs,
    #[arg(
        value_name = "COMMAND",
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        help = COMMAND_HELP
    )]
    command: Vec<String>,
    #[arg(long, value_name = "FILE", help = CATALOG_HELP)]
    catalog: Option<String>,
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["upstream", "command", "catalog"],
        help = "Every server of an mcpServers file, as `proxy --servers` serves them (each server's own tailoring file in)"
    )]
    servers: Option<String>,
}

/// `check`'s command line.
#[derive(Debug, Args)]
struct CheckArgs {
    #[arg(value_name = "FILE")]
    file: String,
    #[command(flatten)]
    catalog: CatalogArgs,
}

/// `init`'s command line.
#[derive(Debug, Args)]
struct InitArgs {
    #[arg(
        long,
        value_name = "FILE",
        help = "Write the draft to FILE (default: stdout)"
    )]
    out: Option<String>,
    #[arg(
        long,
        value_name = "FILE",
        help = "Check the draft with the tasks of FILE too, keeping the words each is found by"
    )]
    tasks: Option<String>,
    #[arg(
        long,
        value_name = "LEVELS=TOKENS",
        help = "Hold the tools/list of levels 0..=2, 3..=6 or 0..=6 to TOKENS (e.g. 0..=2=1500); repeatable",
        long_help = "Draft LEVELS (0..=2, 3..=6 or 0..=6) so the whole tools/list a reader naming \
                     no runner gets there costs at most TOKENS (o200k_base): of the per-text \
                     budgets whose draft fits, the one whose checked draft loses fewest \
                     queries; the check's steps stop at TOKENS. A \
                     budget under the structure floor (names, types, required; no words) is an \
                     error that names the floor. Repeatable, one per band."
    )]
    fit: Vec<Fit>,
    #[command(flatten)]
    embedding: crate::reports::EmbeddingArgs,
    #[arg(
        long,
        value_name = "FILE",
        help = "Bring a drafted FILE up to date with the server: redraft what changed, draft what is new, keep what you edited",
        long_help = "Bring FILE (drafted by init) up to date with the server's catalog now: an \
                     entry nobody edited is redrafted where its tool's own words changed, a \
                     new tool is drafted, a gone tool's entry dropped; an entry you edited is \
                     kept byte for byte (and said, where its tool changed). Written back to \
                     FILE (or --out); what was done on stderr."
    )]
    update: Option<String>,
    #[arg(
        long,
        value_name = "FILE",
        requires = "out",
        conflicts_with_all = ["update", "tasks", "upstream", "command", "catalog"],
        help = "Draft a file for every server of an mcpServers file, into the --out folder",
        long_help = "Draft a file for every server of an mcpServers file (Claude, Cursor, VS \
                     Code) into the --out folder, as NAME.toml, and write there a copy of FILE \
                     naming each draft as its server's \"tailoring\": serve it with `proxy \
                     --servers OUT/FILE`. A server that cannot be reached is said and skipped."
    )]
    servers: Option<String>,
    #[command(flatten)]
    catalog: CatalogArgs,
}

const TAILORING_HELP: &str = "The tailoring file (TOML) that words the tools per reader";
fn inspect_after_help() -> String {
    format!(
        "Reports (`mcp-tailor inspect … REPORT --help` for each one's options):\n{}",
        crate::reports::summary()
    )
}

/// The whole command line.
pub(crate) fn command() -> clap::Command {
    Cli::command()
}

/// Reads the command line; `Err` is clap's error (help and version included), to print and
/// exit with.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, clap::Error> {
    let matches = command().try_get_matches_from(args)?;
    let cli = Cli::from_arg_matches(&matches)?;
    Ok(match cli.command {
        Sub::Check(args) => {
            let source = match args.catalog.given() {
                true => Some(args.catalog.source("check")?),
                false => None,
            };
            Command::Check {
                file: args.file,
                source,
            }
        }
        Sub::Proxy(args) => {
            let server = args.server;
            let upstream = match args.servers {
                Some(file) => Upstreams::Servers(file),
                None => match source("proxy", server.upstream, server.command, None, &[])? {
                    Source::Upstream(upstream) => Upstreams::One(upstream),
                    Source::Catalog(_) => unreachable!("proxy takes no catalog"),
                },
            };
            Command::Proxy(ProxyOptions {
                tailoring: args.tailoring,
                http: args.http,
                threads: args.threads,
                deadline: args.deadline,
                upstream,
                runner: args.reader.runner,
                model: args.reader.model,
                verbosity: args.reader.verbosity,
                sessions: match args.upstream_sessions {
                    SessionsArg::PerClient => UpstreamSessions::PerClient,
                    SessionsArg::Shared => UpstreamSessions::Shared,
                },
                warm_spare: args.warm_spare,
                forward_authorization: args.forward_authorization,
                page_size: args.page_size.map(|size| size as usize),
                door: args.door.door(),
                metrics: args.metrics,
                log_json: args.log_format == LogFormat::Json,
            })
        }
        Sub::Inspect(args) => {
            // A report's help needs no upstream (`mcp-tailor inspect eval --help`); its other
            // errors come after the upstream's, which name `inspect`'s own options.
            if let Err(help) = crate::reports::parse("mcp-tailor inspect", args.report.clone())
                && help.kind() == clap::error::ErrorKind::DisplayHelp
            {
                return Err(help);
            }
            let source = match args.servers {
                Some(file) => Sources::Servers(file),
                None => Sources::One(source(
                    "inspect",
                    args.upstream,
                    args.command,
                    Some(args.catalog),
                    &args.report,
                )?),
            };
            Command::Inspect(InspectOptions {
                tailoring: args.tailoring,
                source,
                report: args.report,
            })
        }
        Sub::Init(args) => Command::Init(InitOptions {
            source: match args.servers {
                Some(file) => Sources::Servers(file),
                None => Sources::One(args.catalog.source("init")?),
            },
            out: args.out,
            tasks: args.tasks,
            update: args.update,
            fits: args.fit,
            embedding_model: args.embedding.embedding_model,
        }),
    })
}

mod door;
mod sources;
#[cfg(test)]
mod tests;
