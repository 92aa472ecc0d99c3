//! Each report's arguments (`clap`'s derive: typed fields), read into a typed [`Request`].

use clap::{ArgMatches, Args, FromArgMatches, ValueEnum};
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
        /// The searches to rank with, by name (`codex`, `fastmcp`, `embedding`), each a
        /// report of its own.
        searches: Vec<String>,
        /// The embedding model's folder (`--embedding-model`, else `MCP_TAILOR_EMBEDDING`).
        embedding_model: Option<String>,
        /// K of hit@K (`None`: each search's own).
        top: Option<usize>,
        /// The least hit@1 a reader may have at any level.
        floor: Option<f64>,
        /// Where to draw tokens against hit@1 (SVG).
        svg: Option<String>,
        /// JSON instead of text.
        json: bool,
    },
}

// Whose catalog, on which revision: every report's. (Plain comments on these structs: a
// doc comment would become each report's about.)
#[derive(Debug, Args)]
struct CallerArgs {
    #[arg(long, value_name = "ID", help = "The caller's id (default: anonymous)")]
    principal: Option<String>,
    #[arg(long, value_name = "T", help = "The caller's tenant")]
    tenant: Option<String>,
    #[arg(
        long,
        value_name = "a,b",
        help = "The caller's scopes: the catalog is what they may see"
    )]
    scopes: Option<String>,
    #[arg(
        long,
        value_name = "REVISION",
        default_value = "2025-11-25",
        help = "The protocol revision the catalog is listed on, e.g. 2026-07-28"
    )]
    protocol: String,
}

#[derive(Debug, Args)]
struct ListArgs {
    #[command(flatten)]
    caller: CallerArgs,
    #[arg(
        long,
        value_name = "R",
        help = "The reader's runner (harness), e.g. codex"
    )]
    runner: Option<String>,
    #[arg(long, value_name = "M", help = "The reader's model")]
    model: Option<String>,
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u8).range(0..=9),
        help = "The reader's level 0..=9"
    )]
    verbosity: Option<u8>,
    #[arg(long, help = "Indented, to read")]
    pretty: bool,
}

// `matrix` and `tokens`.
#[derive(Debug, Args)]
struct JsonArgs {
    #[command(flatten)]
    caller: CallerArgs,
    #[arg(long, help = "JSON instead of text")]
    json: bool,
}

#[derive(Debug, Args)]
struct DiffArgs {
    #[command(flatten)]
    caller: CallerArgs,
    #[arg(value_name = "READER_A", value_parser = reader_class, help = READER_CLASS_HELP)]
    a: ReaderClass,
    #[arg(value_name = "READER_B", value_parser = reader_class, help = READER_CLASS_HELP)]
    b: ReaderClass,
}

#[derive(Debug, Args)]
struct LintArgs {
    #[command(flatten)]
    caller: CallerArgs,
    #[arg(
        long,
        value_name = "LEVELS=TOKENS",
        value_parser = budget,
        help = "The most tokens a text may cost at LEVELS (N or LO..=HI), e.g. 0..=3=40"
    )]
    budget: Vec<(usize, usize, usize)>,
}

/// Where the embedding model is: `eval --search embedding` ranks with it, `init`'s check
/// too.
#[derive(Debug, Args)]
pub(crate) struct EmbeddingArgs {
    #[arg(
        long = "embedding-model",
        value_name = "DIR",
        env = "MCP_TAILOR_EMBEDDING",
        help = "The `wordllama` wheel's package folder (weights/ and tokenizers/): ranks with static embeddings (eval --search embedding; init's check)"
    )]
    pub(crate) embedding_model: Option<String>,
}

#[derive(Debug, Args)]
struct EvalArgs {
    #[command(flatten)]
    caller: CallerArgs,
    #[arg(
        long,
        value_name = "FILE",
        help = "The tasks: [[task]] query = \"…\", expect = \"tool\" (TOML)"
    )]
    tasks: String,
    #[arg(
        long,
        value_name = "SEARCH",
        value_enum,
        default_value_t = SearchArg::Codex,
        help = "The tool search to rank with, as a harness runs it",
        long_help = "The tool search to rank with, as a harness runs it: codex (the Codex \
                     CLI's tool_search: exact names, then BM25 with stemming), fastmcp \
                     (FastMCP's BM25SearchTransform: BM25 over names, descriptions and \
                     argument descriptions), embedding (semantic: static word embeddings, \
                     cosine; needs --embedding-model), or all (a report for each)"
    )]
    search: SearchArg,
    #[command(flatten)]
    embedding: EmbeddingArgs,
    #[arg(
        long,
        value_name = "K",
        value_parser = clap::value_parser!(u64).range(1..),
        help = "K of hit@K [default: what the search returns: codex 8, fastmcp 5, embedding 5]"
    )]
    top: Option<u64>,
    #[arg(
        long,
        value_name = "SHARE",
        value_parser = share,
        help = "The least hit@1 (0..=1) every reader must keep at every level"
    )]
    floor: Option<f64>,
    #[arg(
        long,
        value_name = "FILE",
        help = "Draw tokens against hit@1 per reader to FILE (with --search all, FILE-NAME.svg per search)"
    )]
    svg: Option<String>,
    #[arg(long, help = "JSON instead of text")]
    json: bool,
}

/// `eval --search`.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
enum SearchArg {
    Codex,
    Fastmcp,
    Embedding,
    /// FastMCP's BM25 and embeddings fused: what `proxy --surface index`'s `search_tools`
    /// ranks with when given a model.
    Fused,
    All,
}

const READER_CLASS_HELP: &str = "-, runner, runner/model or _/model";

/// The six report subcommands, each with its options, to add to a command of one's own.
pub fn subcommands() -> [clap::Command; 6] {
    let report = |name: &'static str, about: &'static str| clap::Command::new(name).about(about);
    [
        ListArgs::augment_args(report(
            "list",
            "The tools/list result the server sends this reader, byte for byte (first page)",
        )),
        JsonArgs::augment_args(report(
            "matrix",
            "Every tool string per reader class and level, with tokens; then the catalog",
        )),
        JsonArgs::augment_args(report(
            "tokens",
            "The whole catalog's o200k_base tokens per reader and level, and each level's saving",
        )),
        DiffArgs::augment_args(report(
            "diff",
            "The strings two readers read differently, and their catalog tokens per level",
        )),
        LintArgs::augment_args(
            report("lint", "Wording a model would trip over; exit 1 on findings").long_about(
                "Wording a model would trip over, exit 1 on findings: a text naming an \
                 argument the tool lacks, a terser level costing more tokens than a richer \
                 one, a text over its --budget, a reader whose catalog never varies by level, \
                 a tool that ignores unknown arguments while its texts name arguments.",
            ),
        ),
        EvalArgs::augment_args(
            report(
                "eval",
                "Whether each reader finds each task's tool at each level (Codex CLI's tool search)",
            )
            .long_about(
                "For every reader and level, the catalog's tokens and how well the Codex CLI's \
                 tool search (exact names, then BM25) finds each task's tool: hit@1, hit@K, \
                 MRR, each rank. Findings (exit 1): a tool a terser level loses, naming the \
                 query words it lost; a reader whose hit@1 falls below --floor.",
            ),
        ),
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

/// The request a report subcommand's matches make (`None`: `name` is no report, or the
/// matches are not of [`subcommands`]' `name`).
pub fn request(name: &str, matches: &ArgMatches) -> Option<Request> {
    let (caller, report) = match name {
        "list" => {
            let args = ListArgs::from_arg_matches(matches).ok()?;
            let reader = Reader {
                runner: args.runner,
                model: args.model,
                verbosity: args.verbosity,
            };
            (
                args.caller,
                Report::List {
                    reader,
                    pretty: args.pretty,
                },
            )
        }
        "matrix" => {
            let args = JsonArgs::from_arg_matches(matches).ok()?;
            (args.caller, Report::Matrix { json: args.json })
        }
        "tokens" => {
            let args = JsonArgs::from_arg_matches(matches).ok()?;
            (args.caller, Report::Tokens { json: args.json })
        }
        "diff" => {
            let args = DiffArgs::from_arg_matches(matches).ok()?;
            (
                args.caller,
                Report::Diff {
                    a: args.a,
                    b: args.b,
                },
            )
        }
        "lint" => {
            let args = LintArgs::from_arg_matches(matches).ok()?;
            let mut config = LintConfig::default();
            for (lo, hi, tokens) in args.budget {
                config.budgets[lo..=hi].fill(Some(tokens));
            }
            (args.caller, Report::Lint { config })
        }
        "eval" => {
            let args = EvalArgs::from_arg_matches(matches).ok()?;
            let top = args.top.map(|k| usize::try_from(k).unwrap_or(usize::MAX));
            let searches = match args.search {
                SearchArg::Codex => vec!["codex"],
                SearchArg::Fastmcp => vec!["fastmcp"],
                SearchArg::Embedding => vec!["embedding"],
                SearchArg::Fused => vec!["fused"],
                SearchArg::All => vec!["codex", "fastmcp", "embedding"],
            };
            let report = Report::Eval {
                tasks: args.tasks,
                searches: searches.into_iter().map(str::to_owned).collect(),
                embedding_model: args.embedding.embedding_model,
                top,
                floor: args.floor,
                svg: args.svg,
                json: args.json,
            };
            (args.caller, report)
        }
        _ => return None,
    };
    let mut principal = Principal::anonymous();
    if let Some(id) = caller.principal {
        principal.id = id;
    }
    principal.tenant = caller.tenant;
    if let Some(scopes) = caller.scopes {
        principal =
            principal.with_scopes(scopes.split(',').map(str::trim).filter(|s| !s.is_empty()));
    }
    Some(Request {
        caller: principal,
        protocol: caller.protocol,
        report,
    })
}

/// A reader class: `-` (no runner), `runner`, `runner/model` or `_/model`.
fn reader_class(value: &str) -> Result<ReaderClass, String> {
    Ok(ReaderClass::parse(value))
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
