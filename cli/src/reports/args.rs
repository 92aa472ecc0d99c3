//! Each report's arguments (`clap`), read into a typed [`Request`].

use clap::{Arg, ArgAction, ArgMatches, value_parser};
use mcp_tailor::inspect::eval::CODEX_LIMIT;
use mcp_tailor::inspect::{LintConfig, ReaderClass};
use mcp_tailor::server::{Principal, Reader};

/// One report, for one caller on one protocol revision.
#[derive(Clone, Debug)]
pub struct Request {
    /// Whose catalog: visibility and presentation as for this principal.
    pub caller: Principal,
    /// The protocol revision the catalog is listed on (e.g. `2025-11-25`).
    pub protocol: String,
    /// The report.
    pub report: Report,
}

/// A report and its own options.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Report {
    /// The `tools/list` result `reader` gets, byte for byte (or indented).
    List {
        /// The reader: runner, model, level.
        reader: Reader,
        /// Indented JSON instead of the bytes the server writes.
        pretty: bool,
    },
    /// Every string per reader class and level, then the catalog.
    Matrix {
        /// JSON instead of text.
        json: bool,
    },
    /// The catalog's tokens per reader class and level.
    Tokens {
        /// JSON instead of text.
        json: bool,
    },
    /// What two readers read differently.
    Diff {
        /// One reader.
        a: ReaderClass,
        /// The other.
        b: ReaderClass,
    },
    /// The wording's findings.
    Lint {
        /// Token budgets per level.
        config: LintConfig,
    },
    /// Whether each reader finds each task's tool at each level.
    Eval {
        /// The tasks file.
        tasks: String,
        /// K of hit@K.
        top: usize,
        /// The least hit@1 a reader may have at any level.
        floor: Option<f64>,
        /// Where to draw tokens against hit@1 (SVG).
        svg: Option<String>,
        /// JSON instead of text.
        json: bool,
    },
}

/// The six report subcommands, each with its options, to add to a command of one's own.
pub fn subcommands() -> [clap::Command; 6] {
    let report = |name: &'static str, about: &'static str| {
        clap::Command::new(name).about(about).args(caller_args())
    };
    let json = || {
        Arg::new("json")
            .long("json")
            .action(ArgAction::SetTrue)
            .help("JSON instead of text")
    };
    [
        report(
            "list",
            "The tools/list result the server sends this reader, byte for byte (first page)",
        )
        .args(reader_args())
        .arg(
            Arg::new("pretty")
                .long("pretty")
                .action(ArgAction::SetTrue)
                .help("Indented, to read"),
        ),
        report(
            "matrix",
            "Every tool string per reader class and level, with tokens; then the catalog",
        )
        .arg(json()),
        report(
            "tokens",
            "The whole catalog's o200k_base tokens per reader and level, and each level's saving",
        )
        .arg(json()),
        report(
            "diff",
            "The strings two readers read differently, and their catalog tokens per level",
        )
        .arg(reader_class("a", "READER_A"))
        .arg(reader_class("b", "READER_B")),
        report(
            "lint",
            "Wording a model would trip over; exit 1 on findings",
        )
        .long_about(
            "Wording a model would trip over, exit 1 on findings: a text naming an argument \
                 the tool lacks, a terser level costing more tokens than a richer one, a text \
                 over its --budget, a reader whose catalog never varies by level, a tool that \
                 ignores unknown arguments while its texts name arguments.",
        )
        .arg(
            Arg::new("budget")
                .long("budget")
                .value_name("LEVELS=TOKENS")
                .action(ArgAction::Append)
                .value_parser(budget)
                .help("The most tokens a text may cost at LEVELS (N or LO..=HI), e.g. 0..=3=40"),
        ),
        report(
            "eval",
            "Whether each reader finds each task's tool at each level (Codex CLI's tool search)",
        )
        .long_about(
            "For every reader and level, the catalog's tokens and how well the Codex CLI's tool \
             search (exact names, then BM25) finds each task's tool: hit@1, hit@K, MRR, each \
             rank. Findings (exit 1): a tool a terser level loses, naming the query words it \
             lost; a reader whose hit@1 falls below --floor.",
        )
        .arg(
            Arg::new("tasks")
                .long("tasks")
                .value_name("FILE")
                .required(true)
                .help("The tasks: [[task]] query = \"…\", expect = \"tool\" (TOML)"),
        )
        .arg(
            Arg::new("top")
                .long("top")
                .value_name("K")
                .value_parser(value_parser!(u64).range(1..))
                .help(format!(
                    "K of hit@K [default: {CODEX_LIMIT}, the Codex CLI's]"
                )),
        )
        .arg(
            Arg::new("floor")
                .long("floor")
                .value_name("SHARE")
                .value_parser(share)
                .help("The least hit@1 (0..=1) every reader must keep at every level"),
        )
        .arg(
            Arg::new("svg")
                .long("svg")
                .value_name("FILE")
                .help("Draw tokens against hit@1 per reader to FILE"),
        )
        .arg(json()),
    ]
}

/// A command `name` of the reports alone (as `mcp-tailor inspect … REPORT` reads them).
pub fn command(name: &'static str) -> clap::Command {
    clap::Command::new(name)
        .bin_name(name)
        .subcommand_required(true)
        .subcommands(subcommands())
}

/// The reports, a line each, for a command's help.
pub fn summary() -> String {
    subcommands()
        .iter()
        .map(|c| {
            let about = c.get_about().map(ToString::to_string).unwrap_or_default();
            format!("  {:<8}{about}", c.get_name())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads `args` (the report's name first) as a command named `name`; `Err` is clap's error
/// (help included), to print and exit with.
pub fn parse(
    name: &'static str,
    args: impl IntoIterator<Item = String>,
) -> Result<Request, clap::Error> {
    let matches = command(name)
        .no_binary_name(true)
        .try_get_matches_from(args)?;
    let (report, matches) = matches.subcommand().expect("a report is required");
    Ok(request(report, matches).expect("one of the reports"))
}

/// The request a report subcommand's matches make (`None`: `name` is no report).
pub fn request(name: &str, matches: &ArgMatches) -> Option<Request> {
    let flag = |id: &str| matches.get_flag(id);
    let string = |id: &str| matches.get_one::<String>(id).cloned();
    let class = |id: &str| matches.get_one::<ReaderClass>(id).cloned();
    let report = match name {
        "list" => Report::List {
            reader: Reader {
                runner: string("runner"),
                model: string("model"),
                verbosity: matches.get_one::<u8>("verbosity").copied(),
            },
            pretty: flag("pretty"),
        },
        "matrix" => Report::Matrix { json: flag("json") },
        "tokens" => Report::Tokens { json: flag("json") },
        "diff" => Report::Diff {
            a: class("a")?,
            b: class("b")?,
        },
        "lint" => {
            let mut config = LintConfig::default();
            for (lo, hi, tokens) in matches
                .get_many::<(usize, usize, usize)>("budget")
                .into_iter()
                .flatten()
            {
                config.budgets[*lo..=*hi].fill(Some(*tokens));
            }
            Report::Lint { config }
        }
        "eval" => Report::Eval {
            tasks: string("tasks")?,
            top: matches
                .get_one::<u64>("top")
                .map_or(CODEX_LIMIT, |&k| usize::try_from(k).unwrap_or(usize::MAX)),
            floor: matches.get_one::<f64>("floor").copied(),
            svg: string("svg"),
            json: flag("json"),
        },
        _ => return None,
    };
    let mut caller = Principal::anonymous();
    if let Some(id) = string("principal") {
        caller.id = id;
    }
    caller.tenant = string("tenant");
    if let Some(scopes) = string("scopes") {
        caller = caller.with_scopes(scopes.split(',').map(str::trim).filter(|s| !s.is_empty()));
    }
    Some(Request {
        caller,
        protocol: string("protocol").expect("defaulted"),
        report,
    })
}

/// Whose catalog, on which revision: every report's.
fn caller_args() -> [Arg; 4] {
    [
        Arg::new("principal")
            .long("principal")
            .value_name("ID")
            .help("The caller's id (default: anonymous)"),
        Arg::new("tenant")
            .long("tenant")
            .value_name("T")
            .help("The caller's tenant"),
        Arg::new("scopes")
            .long("scopes")
            .value_name("a,b")
            .help("The caller's scopes: the catalog is what they may see"),
        Arg::new("protocol")
            .long("protocol")
            .value_name("REVISION")
            .default_value("2025-11-25")
            .help("The protocol revision the catalog is listed on, e.g. 2026-07-28"),
    ]
}

/// `list`'s reader.
fn reader_args() -> [Arg; 3] {
    [
        Arg::new("runner")
            .long("runner")
            .value_name("R")
            .help("The reader's runner (harness), e.g. codex"),
        Arg::new("model")
            .long("model")
            .value_name("M")
            .help("The reader's model"),
        Arg::new("verbosity")
            .long("verbosity")
            .value_name("N")
            .value_parser(value_parser!(u8).range(0..=9))
            .help("The reader's level 0..=9"),
    ]
}

/// A reader class: `-` (no runner), `runner`, `runner/model` or `_/model`.
fn reader_class(id: &'static str, name: &'static str) -> Arg {
    Arg::new(id)
        .value_name(name)
        .required(true)
        .value_parser(|s: &str| Ok::<_, String>(ReaderClass::parse(s)))
        .help("-, runner, runner/model or _/model")
}

/// `LEVELS=TOKENS`, LEVELS a level `N` or a range `LO..=HI`: `(lo, hi, tokens)`.
fn budget(value: &str) -> Result<(usize, usize, usize), String> {
    let bad = || "expected LEVELS=TOKENS, e.g. 0..=3=40".to_owned();
    let (levels, tokens) = value.rsplit_once('=').ok_or_else(bad)?;
    let tokens: usize = tokens.parse().map_err(|_| bad())?;
    let (lo, hi) = match levels.split_once("..=") {
        Some((lo, hi)) => (lo.parse::<usize>(), hi.parse::<usize>()),
        None => (levels.parse(), levels.parse()),
    };
    match (lo, hi) {
        (Ok(lo), Ok(hi)) if lo <= hi && hi <= 9 => Ok((lo, hi, tokens)),
        _ => Err(bad()),
    }
}

/// A share from 0 to 1.
fn share(value: &str) -> Result<f64, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|f| (0.0..=1.0).contains(f))
        .ok_or_else(|| "expected a share from 0 to 1, e.g. 0.75".to_owned())
}

#[cfg(test)]
mod tests;
