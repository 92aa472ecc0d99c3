//! What every reader of a catalog gets, in bytes and **tokens**, and a lint that catches
//! wrong wording before a model does (feature `inspect`).
//!
//! Any host binary exposes it in two lines (or [`run_defs`] for bare definitions):
//!
//! ```no_run
//! # async fn host(server: mcp_tailor::server::TailorServer) {
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

mod catalog;
pub mod eval;
mod lint;
mod readers;
mod report;
mod tokens;

pub use catalog::{Catalog, Size, wire};
pub use lint::{Finding, LintConfig, lint};
pub use readers::{ReaderClass, reader_classes};
pub use tokens::count as count_tokens;

use crate::server::rmcp::ServerHandler;
use crate::server::{Principal, Reader, TailorServer};

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

/// The options every subcommand takes.
struct Options {
    reader: Reader,
    principal: Principal,
    protocol: String,
    json: bool,
    pretty: bool,
    budgets: LintConfig,
    eval: EvalOptions,
    positional: Vec<String>,
}

/// What `eval` takes beyond the common options.
#[derive(Default)]
struct EvalOptions {
    tasks: Option<String>,
    top: Option<usize>,
    floor: Option<f64>,
    svg: Option<String>,
}

fn level(flag: &str, value: Option<String>) -> Result<u8, String> {
    let value = value.ok_or_else(|| format!("`{flag}` needs a level 0..=9"))?;
    match value.parse::<u8>() {
        Ok(level) if level <= crate::MAX_VERBOSITY => Ok(level),
        _ => Err(format!("`{flag} {value}`: expected a level 0..=9")),
    }
}

/// `LEVELS=TOKENS`, LEVELS a level `N` or a range `LO..=HI`.
fn budget(value: &str, config: &mut LintConfig) -> Result<(), String> {
    let bad = || format!("`--budget {value}`: expected LEVELS=TOKENS, e.g. 0..=3=40");
    let (levels, tokens) = value.rsplit_once('=').ok_or_else(bad)?;
    let tokens: usize = tokens.parse().map_err(|_| bad())?;
    let (lo, hi) = match levels.split_once("..=") {
        Some((lo, hi)) => (lo.parse::<usize>(), hi.parse::<usize>()),
        None => (levels.parse(), levels.parse()),
    };
    let (Ok(lo), Ok(hi)) = (lo, hi) else {
        return Err(bad());
    };
    if lo > hi || hi > 9 {
        return Err(bad());
    }
    for slot in &mut config.budgets[lo..=hi] {
        *slot = Some(tokens);
    }
    Ok(())
}

fn options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut out = Options {
        reader: Reader::default(),
        principal: Principal::anonymous(),
        protocol: "2025-11-25".to_owned(),
        json: false,
        pretty: false,
        budgets: LintConfig::default(),
        eval: EvalOptions::default(),
        positional: Vec::new(),
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or_else(|| format!("`{arg}` needs {what}"));
        match arg.as_str() {
            "--runner" => out.reader.runner = Some(value("a name")?),
            "--model" => out.reader.model = Some(value("a name")?),
            "--verbosity" => out.reader.verbosity = Some(level(&arg, args.next())?),
            "--principal" => out.principal.id = value("an id")?,
            "--tenant" => out.principal.tenant = Some(value("a tenant")?),
            "--scopes" => {
                let scopes = value("a comma-separated list")?;
                out.principal = out
                    .principal
                    .with_scopes(scopes.split(',').map(str::trim).filter(|s| !s.is_empty()));
            }
            "--protocol" => out.protocol = value("a revision, e.g. 2026-07-28")?,
            "--budget" => budget(&value("LEVELS=TOKENS")?, &mut out.budgets)?,
            "--tasks" => out.eval.tasks = Some(value("a tasks file")?),
            "--svg" => out.eval.svg = Some(value("a file to write")?),
            "--top" => {
                let k = value("a number of tools")?;
                out.eval.top = Some(k.parse().ok().filter(|&k| k > 0).ok_or_else(|| {
                    format!("`--top {k}`: expected a number of tools, 1 or more")
                })?);
            }
            "--floor" => {
                let f = value("a share 0..=1")?;
                out.eval.floor = Some(
                    f.parse()
                        .ok()
                        .filter(|f| (0.0..=1.0).contains(f))
                        .ok_or_else(|| {
                            format!("`--floor {f}`: expected a share from 0 to 1, e.g. 0.75")
                        })?,
                );
            }
            "--json" => out.json = true,
            "--pretty" => out.pretty = true,
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            _ => out.positional.push(arg),
        }
    }
    Ok(out)
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
    server: &TailorServer<H>,
    args: impl IntoIterator<Item = String>,
) -> Outcome {
    let mut args = args.into_iter();
    let command = args.next();
    let result = match options(args) {
        Ok(options) => match command.as_deref() {
            Some(command) => execute(server, command, options).await,
            None => Err("no command given".to_owned()),
        },
        Err(e) => Err(e),
    };
    match result {
        Ok(outcome) => outcome,
        Err(message) => Outcome::fail(format!("usage error: {message}\n\n{USAGE}")),
    }
}

async fn execute<H: ServerHandler + Clone>(
    server: &TailorServer<H>,
    command: &str,
    options: Options,
) -> Result<Outcome, String> {
    let catalog = Catalog::new(server, options.principal.clone(), &options.protocol);
    let defs = catalog.defs();
    let classes = reader_classes(&defs);
    let failed = |e: crate::server::rmcp::ErrorData| format!("the listing failed: {e}");
    let sizes = async |classes: &[ReaderClass]| -> Result<Vec<(ReaderClass, [Size; 10])>, String> {
        let mut out = Vec::new();
        for class in classes {
            out.push((class.clone(), catalog.sizes(class).await.map_err(failed)?));
        }
        Ok(out)
    };
    let json = |value: serde_json::Value| serde_json::to_string_pretty(&value).unwrap_or_default();
    let no_positional = |what: &str| match options.positional.first() {
        Some(extra) => Err(format!("`{what}` takes no argument `{extra}`")),
        None => Ok(()),
    };
    match command {
        "list" => {
            no_positional("list")?;
            let page = catalog.first_page(options.reader).await.map_err(failed)?;
            Ok(Outcome::ok(if options.pretty {
                let value: serde_json::Value = serde_json::from_str(&page).unwrap_or_default();
                json(value)
            } else {
                page
            }))
        }
        "matrix" => {
            no_positional("matrix")?;
            let catalog = sizes(&classes).await?;
            Ok(Outcome::ok(if options.json {
                json(report::matrix_json(&defs, &classes, &catalog))
            } else {
                report::matrix_text(&defs, &classes, &catalog)
            }))
        }
        "tokens" => {
            no_positional("tokens")?;
            let catalog = sizes(&classes).await?;
            Ok(Outcome::ok(if options.json {
                json(report::tokens_json(&catalog))
            } else {
                report::tokens_text(&catalog)
            }))
        }
        "diff" => {
            let [a, b] = options.positional.as_slice() else {
                return Err("`diff` needs two readers, e.g. `diff codex grok`".to_owned());
            };
            let (a, b) = (ReaderClass::parse(a), ReaderClass::parse(b));
            let both = sizes(&[a.clone(), b.clone()]).await?;
            Ok(Outcome::ok(report::diff_text(
                &defs,
                &a,
                &b,
                (&both[0].1, &both[1].1),
            )))
        }
        "lint" => {
            no_positional("lint")?;
            let findings = lint(&defs, &classes, &options.budgets);
            let lines: Vec<String> = findings.iter().map(Finding::to_string).collect();
            Ok(if lines.is_empty() {
                Outcome::ok(format!(
                    "lint: no findings ({} tools, {} reader classes)",
                    defs.len(),
                    classes.len()
                ))
            } else {
                Outcome::fail(format!(
                    "{}\nlint: {} findings",
                    lines.join("\n"),
                    lines.len()
                ))
            })
        }
        "eval" => {
            no_positional("eval")?;
            evaluate(&catalog, &classes, &options).await
        }
        "help" | "--help" | "-h" => Ok(Outcome::ok(USAGE.to_owned())),
        other => Err(format!("unknown command `{other}`")),
    }
}

/// `eval`: lists every reader class at every level, ranks the tasks, reports, draws.
async fn evaluate<H: ServerHandler + Clone>(
    catalog: &Catalog<'_, H>,
    classes: &[ReaderClass],
    options: &Options,
) -> Result<Outcome, String> {
    let Some(path) = &options.eval.tasks else {
        return Err("`eval` needs `--tasks FILE`".to_owned());
    };
    let tasks = match eval::Tasks::load(path) {
        Ok(tasks) => tasks,
        Err(errors) => return Ok(Outcome::fail(errors)),
    };
    let mut listings = Vec::new();
    for class in classes {
        let levels = eval::listings(catalog, class)
            .await
            .map_err(|e| format!("the listing failed: {e}"))?;
        listings.push((class.clone(), levels));
    }
    // Tailoring never changes which tools a caller sees: any listing names them all.
    let tools: Vec<&str> = listings
        .first()
        .map(|(_, levels)| levels[0].entries.iter().map(|e| e.name.as_str()).collect())
        .unwrap_or_default();
    let labels: Vec<(String, Option<String>)> = classes
        .iter()
        .map(|c| (c.label(), c.runner().map(str::to_owned)))
        .collect();
    if let Err(errors) = tasks.check(&tools, &labels) {
        return Ok(Outcome::fail(errors));
    }
    let k = options.eval.top.unwrap_or(eval::CODEX_LIMIT);
    let evaluation = eval::Evaluation::new(tasks.tasks(), k, listings);
    let mut findings = eval::lost_at_terser_levels(&evaluation);
    if let Some(floor) = options.eval.floor {
        findings.extend(eval::below_floor(&evaluation, floor));
    }
    if let Some(svg) = &options.eval.svg {
        std::fs::write(svg, eval::svg(&evaluation)?)
            .map_err(|e| format!("cannot write `{svg}`: {e}"))?;
    }
    let lines: Vec<String> = findings.iter().map(Finding::to_string).collect();
    let output = if options.json {
        serde_json::to_string_pretty(&eval::json(&evaluation, &lines)).unwrap_or_default()
    } else if lines.is_empty() {
        format!("{}eval: no findings", eval::text(&evaluation))
    } else {
        format!(
            "{}\n{}\neval: {} findings",
            eval::text(&evaluation),
            lines.join("\n"),
            lines.len()
        )
    };
    Ok(if lines.is_empty() {
        Outcome::ok(output)
    } else {
        Outcome::fail(output)
    })
}
