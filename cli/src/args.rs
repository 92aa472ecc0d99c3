//! The command line (`clap`'s derive): each command's arguments, help and errors as typed
//! fields, then checked into the options the commands take (exactly one upstream, the
//! report's own arguments).

use crate::values::{IndexBudget, index_budget};
pub(crate) use access::{Access, Auth};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use mcp_tailor::gateway::Upstream;
use mcp_tailor::init::Fit;
use mcp_tailor::server::Surface;
use proxy::ProxyArgs;
pub(crate) use proxy::{IndexOptions, ProxyOptions};
use sources::{CATALOG_HELP, COMMAND_HELP, CatalogArgs, UpstreamArgs, source};

/// What to do.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    Check {
        file: String,
        /// The catalog to compare the file's fingerprints with (`--catalog`, `--upstream`,
        /// `-- COMMAND`), if given.
        source: Option<Source>,
    },
    Proxy(Box<ProxyOptions>),
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
    /// The surface the catalog is listed on, and the index's budget.
    pub(crate) surface: Surface,
    pub(crate) index_budget: Option<IndexBudget>,
}

/// The surface listed or served (`inspect`, `proxy`): `--surface`, `--index-budget`.
#[derive(Debug, Args)]
pub(crate) struct SurfaceArgs {
    #[arg(
        long,
        value_name = "SURFACE",
        value_enum,
        default_value_t = SurfaceArg::Native,
        help = "The surface of a reader that names none: native (every tool) or index (search_tools and call_tool)",
        long_help = "The surface of a reader that names none. native: tools/list holds every \
                     tool, worded for the reader. index: it holds search_tools, whose \
                     description is the index (one line per tool: its name, then whole \
                     sentences of its words at level 0), and call_tool, which checks a call's arguments \
                     against the tool's input schema before sending it on. A request names its \
                     own with the X-MCP-Surface header or the `mcp-tailor.dev/surface` _meta \
                     key; a tool's own name stays callable on either."
    )]
    pub(crate) surface: SurfaceArg,
    #[arg(
        long = "index-budget",
        value_name = "TOKENS|SHARE%",
        value_parser = index_budget,
        help = "The most tokens the index's lines may take (300), or a share of the catalog's own tools/list [default: 7%]",
        long_help = "The most tokens the index's lines may take (300), or a share of the \
                     catalog's own tools/list (default 7%). Lines take whole sentences: every \
                     tool's first, then one more per tool in turn, while the index fits; past \
                     it, the longest first sentences leave (those lines are the name alone)."
    )]
    pub(crate) index_budget: Option<IndexBudget>,
}

/// `--surface`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SurfaceArg {
    Native,
    Index,
}

impl SurfaceArg {
    /// The surface it names.
    pub(crate) fn surface(self) -> Surface {
        match self {
            SurfaceArg::Native => Surface::Native,
            SurfaceArg::Index => Surface::Index,
        }
    }
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
    Proxy(Box<ProxyArgs>),
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
                      the server (levels 0..=2 terse, 3..=6 shorter, 7..=9 left to the server's \
                      own words; each level the server's own sentences whole, its rules kept), \
                      checked like `check`, to FILE or stdout; print what each level costs \
                      before and after, what it finds, and its audit on stderr."
    )]
    Init(InitArgs),
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
    #[command(flatten)]
    surface: SurfaceArgs,
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
        Sub::Proxy(args) => Command::Proxy(Box::new(args.options()?)),
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
                surface: args.surface.surface.surface(),
                index_budget: args.surface.index_budget,
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

mod access;
mod proxy;
mod sources;
#[cfg(test)]
mod tests;
