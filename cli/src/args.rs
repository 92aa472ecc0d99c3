//! The command line (`clap`): each command's arguments, help and errors, read into the
//! options the commands take.

use crate::values::{header, http_url, seconds};
use clap::{Arg, ArgAction, ArgMatches, value_parser};
use mcp_tailor::gateway::{Upstream, UpstreamSessions};
use std::net::SocketAddr;
use std::time::Duration;

/// What to do.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    Check { file: String },
    Proxy(ProxyOptions),
    Inspect(InspectOptions),
    Init(InitOptions),
}

/// `init`'s options: where the catalog comes from, where the draft goes, a tasks file.
#[derive(Debug, PartialEq)]
pub(crate) struct InitOptions {
    pub(crate) source: Source,
    pub(crate) out: Option<String>,
    pub(crate) tasks: Option<String>,
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
    pub(crate) source: Source,
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
    pub(crate) upstream: Upstream,
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
}

const ABOUT: &str = "One tool, many readers: check and draft tailoring files, see what each \
reader of a catalog gets, and serve any MCP server with its tools worded per reader.";

/// The whole command line.
pub(crate) fn command() -> clap::Command {
    clap::Command::new("mcp-tailor")
        .version(env!("CARGO_PKG_VERSION"))
        .about(ABOUT)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(check())
        .subcommand(proxy())
        .subcommand(inspect())
        .subcommand(init())
}

/// Reads the command line; `Err` is clap's error (help and version included), to print and
/// exit with.
pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, clap::Error> {
    let matches = command().try_get_matches_from(args)?;
    let (name, matches) = matches.subcommand().expect("a subcommand is required");
    Ok(match name {
        "check" => Command::Check {
            file: string(matches, "file").expect("required"),
        },
        "proxy" => Command::Proxy(proxy_options(matches)?),
        "inspect" => {
            let report = strings(matches, "report");
            // A report's help needs no upstream (`mcp-tailor inspect eval --help`); its other
            // errors come after the upstream's, which name `inspect`'s own options.
            if let Err(help) = crate::reports::parse("mcp-tailor inspect", report.clone())
                && help.kind() == clap::error::ErrorKind::DisplayHelp
            {
                return Err(help);
            }
            Command::Inspect(InspectOptions {
                tailoring: string(matches, "tailoring"),
                source: source(name, matches)?,
                report,
            })
        }
        "init" => Command::Init(InitOptions {
            source: source(name, matches)?,
            out: string(matches, "out"),
            tasks: string(matches, "tasks"),
        }),
        other => unreachable!("no command `{other}`"),
    })
}

fn check() -> clap::Command {
    clap::Command::new("check")
        .about("Check a tailoring file with every rule the #[mcp_tool] macro applies")
        .long_about(
            "Load FILE with every rule the #[mcp_tool] macro applies: exit 1 with each error \
             on stderr as FILE:LINE:COL: message; warnings are printed and exit 0.",
        )
        .arg(Arg::new("file").value_name("FILE").required(true))
}

fn proxy() -> clap::Command {
    clap::Command::new("proxy")
        .about("Serve an MCP server with its tools' wording tailored per reader")
        .long_about(
            "Serve the upstream server (a command over stdio, or streamable HTTP at URL) with \
             its tools' wording tailored by the file, on stdio or at http://ADDR/mcp. The file \
             is watched (and SIGHUP reloads it): a valid edit takes effect at once, an invalid \
             one is logged and the previous tables stay. A command upstream inherits this \
             process's environment.",
        )
        .arg(tailoring_arg())
        .arg(
            Arg::new("http")
                .long("http")
                .value_name("ADDR")
                .value_parser(value_parser!(SocketAddr))
                .help("Serve streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8080) instead of stdio"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .value_parser(value_parser!(u16).range(1..=256))
                .requires("http")
                .default_value("1")
                .help("Threads serving HTTP connections")
                .long_help(
                    "Threads serving HTTP connections, each accepting on the same port and \
                     keeping the connections (and the sessions opened on them) it accepted. \
                     More threads list faster under concurrent clients and cost more CPU per \
                     request; the calls of clients sharing one upstream session (--upstream-sessions \
                     shared) go slower, as they cross threads to reach it (BENCHMARKS.md §9).",
                ),
        )
        .arg(
            Arg::new("deadline")
                .long("deadline")
                .value_name("SECS")
                .default_value("10")
                .value_parser(seconds)
                .help("How long a request may take, the upstream's answer included"),
        )
        .args(reader_args())
        .arg(
            Arg::new("upstream-sessions")
                .long("upstream-sessions")
                .value_name("MODE")
                .value_parser(["per-client", "shared"])
                .default_value("per-client")
                .help("One upstream session per client (its own process, for a command), or one shared by all")
                .long_help(
                    "per-client: each client its own upstream session, opened with the client's \
                     own initialize (the first client takes the one the proxy opened at start \
                     when it declares no capabilities). shared: one upstream session for all; \
                     what the upstream asks a client (sampling, elicitation, roots) goes to \
                     the client whose request is in flight, and is refused when that cannot \
                     be told; its notifications go to every client.",
                ),
        )
        .arg(
            Arg::new("warm-spare")
                .long("warm-spare")
                .action(ArgAction::SetTrue)
                .help("Per client: keep an upstream session open ahead, so a new client does not wait for one to start"),
        )
        .arg(
            Arg::new("page-size")
                .long("page-size")
                .value_name("N")
                .value_parser(value_parser!(u32).range(1..))
                .help("Tools per tools/list page (default: as the upstream pages its own listing)")
                .long_help(
                    "Tools per tools/list page. By default the proxy pages as the upstream \
                     does: as many tools a page as the upstream's first page held, or all on \
                     one page where the upstream lists them so, so that a client that follows \
                     no cursor gets every tool it would directly.",
                ),
        )
        .arg(
            Arg::new("forward-authorization")
                .long("forward-authorization")
                .action(ArgAction::SetTrue)
                .requires("upstream")
                .help("Send an --upstream URL each client's own Authorization header (streamable HTTP clients)")
                .long_help(
                    "Send an --upstream URL each client's own Authorization header: each \
                     upstream connection then carries one client's credential (a session's \
                     own; shared, or for stateless requests, one per credential), never \
                     another's. A client without one is forwarded without one.",
                ),
        )
        .args(source_args(false))
}

/// `--runner`, `--model`, `--verbosity`: the reader of a request that names none.
fn reader_args() -> [Arg; 3] {
    [
        Arg::new("runner")
            .long("runner")
            .value_name("NAME")
            .help("The runner of a reader that names none (a client config pins what its client does not report)"),
        Arg::new("model")
            .long("model")
            .value_name("NAME")
            .help("The model of a reader that names none"),
        Arg::new("verbosity")
            .long("verbosity")
            .value_name("LEVEL")
            .value_parser(value_parser!(u8).range(0..=9))
            .help("The level 0..=9 of a reader that names none"),
    ]
}

fn inspect() -> clap::Command {
    clap::Command::new("inspect")
        .about("Show what each reader of a server's tools gets, as a tailoring file words them")
        .long_about(
            "Show what each reader of the upstream's tools (or of a captured tools/list \
             result, JSON) gets as the file tailors them. REPORT is one of list, matrix, \
             tokens, diff, lint, eval, with its own options (e.g. `list --runner codex \
             --verbosity 0`); lint also names what the file declares that the catalog \
             lacks. With `-- COMMAND ARGS…`, the report comes before `--`.",
        )
        .after_help(format!(
            "Reports (`mcp-tailor inspect … REPORT --help` for each one's options):\n{}",
            crate::reports::summary()
        ))
        .arg(tailoring_arg())
        // The report's values end at `--`; the upstream's command follows.
        .arg(
            Arg::new("report")
                .value_name("REPORT")
                .required(true)
                .num_args(1..)
                .allow_hyphen_values(true)
                .value_terminator("--")
                .help("The report and its options: list, matrix, tokens, diff, lint or eval"),
        )
        .args(source_args(true).into_iter().map(|arg| {
            match arg.get_id().as_str() {
                "command" => arg
                    .last(false)
                    .trailing_var_arg(true)
                    .allow_hyphen_values(true),
                _ => arg,
            }
        }))
}

fn init() -> clap::Command {
    clap::Command::new("init")
        .about("Draft a tailoring file from a server's own words")
        .long_about(
            "Draft a commented tailoring file for every tool and described argument of the \
             server (levels 0..=2 terse, 3..=6 clipped, 7..=9 left to the server's own \
             words), checked like `check`, to FILE or stdout; print what each level costs \
             before and after on stderr.",
        )
        .arg(
            Arg::new("out")
                .long("out")
                .value_name("FILE")
                .help("Write the draft to FILE (default: stdout)"),
        )
        .arg(
            Arg::new("tasks")
                .long("tasks")
                .value_name("FILE")
                .help("Keep in each tool's terse text the words a task of FILE finds it by"),
        )
        .args(source_args(true))
}

fn tailoring_arg() -> Arg {
    Arg::new("tailoring")
        .long("tailoring")
        .value_name("FILE")
        .help("The tailoring file (TOML) that words the tools per reader")
}

/// Where the catalog comes from: `--upstream URL` (with its headers), `-- COMMAND ARGS…`,
/// or, where a captured one serves, `--catalog FILE`; exactly one.
fn source_args(catalog: bool) -> Vec<Arg> {
    let mut args = vec![
        Arg::new("upstream")
            .long("upstream")
            .value_name("URL")
            .value_parser(http_url)
            .help(
                "The upstream's streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp \
                 (or a legacy HTTP+SSE server's stream, e.g. …/sse)",
            ),
        Arg::new("upstream-header")
            .long("upstream-header")
            .value_name("NAME: VALUE")
            .action(ArgAction::Append)
            .requires("upstream")
            .value_parser(header)
            .help("A header sent to the upstream on every request; ${VAR} in VALUE is read from the environment"),
        Arg::new("command")
            .value_name("COMMAND")
            .num_args(1..)
            .last(true)
            .help("The upstream's command and its arguments, after `--`: it serves MCP on stdio"),
    ];
    if catalog {
        args.push(
            Arg::new("catalog")
                .long("catalog")
                .value_name("FILE")
                .help("A captured tools/list result (JSON) instead of a live server"),
        );
    }
    args
}

/// `proxy`'s options from its matches.
fn proxy_options(matches: &ArgMatches) -> Result<ProxyOptions, clap::Error> {
    Ok(ProxyOptions {
        tailoring: string(matches, "tailoring"),
        http: matches.get_one::<SocketAddr>("http").copied(),
        threads: *matches.get_one::<u16>("threads").expect("defaulted"),
        deadline: *matches.get_one::<Duration>("deadline").expect("defaulted"),
        upstream: match source("proxy", matches)? {
            Source::Upstream(upstream) => upstream,
            Source::Catalog(_) => unreachable!("proxy takes no catalog"),
        },
        runner: string(matches, "runner"),
        model: string(matches, "model"),
        verbosity: matches.get_one::<u8>("verbosity").copied(),
        sessions: match string(matches, "upstream-sessions").as_deref() {
            Some("shared") => UpstreamSessions::Shared,
            _ => UpstreamSessions::PerClient,
        },
        warm_spare: matches.get_flag("warm-spare"),
        forward_authorization: matches.get_flag("forward-authorization"),
        page_size: matches
            .get_one::<u32>("page-size")
            .map(|&size| size as usize),
    })
}

/// The one source the matches name; an error when they name none or several.
fn source(name: &str, matches: &ArgMatches) -> Result<Source, clap::Error> {
    let has = |id: &str| matches.try_contains_id(id).unwrap_or(false);
    let named = ["upstream", "command", "catalog"]
        .into_iter()
        .filter(|id| has(id))
        .count();
    let misplaced = strings(matches, "report")
        .into_iter()
        .find(|a| matches!(a.as_str(), "--upstream" | "--catalog" | "--tailoring"));
    if let (0, Some(flag)) = (named, misplaced) {
        let message = format!(
            "`{flag}` is `inspect`'s own option: give it before the report, e.g. \
             `mcp-tailor inspect {flag} … list`"
        );
        return Err(usage_error(name, message));
    }
    if named != 1 {
        let catalog = if matches.try_contains_id("catalog").is_ok() {
            ", `--catalog FILE`"
        } else {
            ""
        };
        let message = format!(
            "give one upstream: `--upstream URL`{catalog} or `-- COMMAND ARGS…` at the end"
        );
        return Err(usage_error(name, message));
    }
    if let Some(url) = string(matches, "upstream") {
        let headers = matches
            .get_many::<(String, String)>("upstream-header")
            .map(|h| h.cloned().collect())
            .unwrap_or_default();
        return Ok(Source::Upstream(Upstream::Http { url, headers }));
    }
    if let Some(file) = string(matches, "catalog") {
        return Ok(Source::Catalog(file));
    }
    let mut command = strings(matches, "command").into_iter();
    Ok(Source::Upstream(Upstream::Command {
        program: command.next().expect("one or more"),
        args: command.collect(),
    }))
}

/// A usage error of the subcommand `name`, with its usage line, as clap's own errors.
fn usage_error(name: &str, message: String) -> clap::Error {
    let mut command = command();
    command.build();
    command
        .find_subcommand_mut(name)
        .expect("one of this command's own")
        .error(clap::error::ErrorKind::ArgumentConflict, message)
}

fn string(matches: &ArgMatches, id: &str) -> Option<String> {
    matches.try_get_one::<String>(id).ok().flatten().cloned()
}

fn strings(matches: &ArgMatches, id: &str) -> Vec<String> {
    matches
        .try_get_many::<String>(id)
        .ok()
        .flatten()
        .map(|values| values.cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
