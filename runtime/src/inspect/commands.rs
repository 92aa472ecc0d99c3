//! The subcommands, one function each, over the catalog as the caller sees it.

use super::options::Options;
use super::{
    CallerCatalog, Finding, Outcome, ReaderClass, Size, USAGE, eval, lint, reader_classes, report,
};
use crate::ToolDef;
use crate::server::Server;
use crate::server::rmcp::{ErrorData, ServerHandler};
use serde_json::Value;

/// What every subcommand works on: the catalog as the caller sees it, its definitions, the
/// reader classes its tables tell apart, and the options.
struct Run<'a, H> {
    catalog: CallerCatalog<'a, H>,
    defs: Vec<&'static ToolDef>,
    classes: Vec<ReaderClass>,
    options: Options,
}

/// Runs `command`; `Err` is a usage error.
pub(super) async fn execute<H: ServerHandler + Clone>(
    server: &Server<H>,
    command: &str,
    options: Options,
) -> Result<Outcome, String> {
    let catalog = CallerCatalog::new(server, options.principal.clone(), &options.protocol);
    let defs = catalog.defs();
    let classes = reader_classes(&defs);
    let run = Run {
        catalog,
        defs,
        classes,
        options,
    };
    if matches!(command, "list" | "matrix" | "tokens" | "lint" | "eval")
        && let Some(extra) = run.options.positional.first()
    {
        return Err(format!("`{command}` takes no argument `{extra}`"));
    }
    match command {
        "list" => run.list().await,
        "matrix" => run.matrix().await,
        "tokens" => run.tokens().await,
        "diff" => run.diff().await,
        "lint" => Ok(run.lint()),
        "eval" => run.eval().await,
        "help" | "--help" | "-h" => Ok(Outcome::ok(USAGE.to_owned())),
        other => Err(format!("unknown command `{other}`")),
    }
}

fn failed(e: ErrorData) -> String {
    format!("the listing failed: {e}")
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Findings as `lint` and `eval` report them: the report (if any), then each finding and
/// their count, failing when there is one.
fn with_findings(report: String, findings: &[Finding], command: &str, clean: &str) -> Outcome {
    if findings.is_empty() {
        return Outcome::ok(format!("{report}{command}: no findings{clean}"));
    }
    let lines: Vec<String> = findings.iter().map(Finding::to_string).collect();
    let report = if report.is_empty() {
        report
    } else {
        format!("{report}\n")
    };
    Outcome::fail(format!(
        "{report}{}\n{command}: {} findings",
        lines.join("\n"),
        lines.len()
    ))
}

impl<H: ServerHandler + Clone> Run<'_, H> {
    /// The catalog's size for each class at each level.
    async fn sizes(
        &self,
        classes: &[ReaderClass],
    ) -> Result<Vec<(ReaderClass, [Size; 10])>, String> {
        let mut out = Vec::new();
        for class in classes {
            out.push((
                class.clone(),
                self.catalog.sizes(class).await.map_err(failed)?,
            ));
        }
        Ok(out)
    }

    /// `list`: the first `tools/list` page the reader gets, byte for byte (or pretty).
    async fn list(&self) -> Result<Outcome, String> {
        let page = self
            .catalog
            .first_page(self.options.reader.clone())
            .await
            .map_err(failed)?;
        Ok(Outcome::ok(if self.options.pretty {
            pretty(&serde_json::from_str(&page).unwrap_or_default())
        } else {
            page
        }))
    }

    /// `matrix`: every string per reader class and level, then the catalog.
    async fn matrix(&self) -> Result<Outcome, String> {
        let sizes = self.sizes(&self.classes).await?;
        Ok(Outcome::ok(if self.options.json {
            pretty(&report::matrix_json(&self.defs, &self.classes, &sizes))
        } else {
            report::matrix_text(&self.defs, &self.classes, &sizes)
        }))
    }

    /// `tokens`: the catalog's tokens per reader and level.
    async fn tokens(&self) -> Result<Outcome, String> {
        let sizes = self.sizes(&self.classes).await?;
        Ok(Outcome::ok(if self.options.json {
            pretty(&report::tokens_json(&sizes))
        } else {
            report::tokens_text(&sizes)
        }))
    }

    /// `diff A B`: what two readers read differently.
    async fn diff(&self) -> Result<Outcome, String> {
        let [a, b] = self.options.positional.as_slice() else {
            return Err("`diff` needs two readers, e.g. `diff codex grok`".to_owned());
        };
        let (a, b) = (ReaderClass::parse(a), ReaderClass::parse(b));
        let both = self.sizes(&[a.clone(), b.clone()]).await?;
        Ok(Outcome::ok(report::diff_text(
            &self.defs,
            &a,
            &b,
            (&both[0].1, &both[1].1),
        )))
    }

    /// `lint`: the wording's findings.
    fn lint(&self) -> Outcome {
        let findings = lint(&self.defs, &self.classes, &self.options.budgets);
        let clean = format!(
            " ({} tools, {} reader classes)",
            self.defs.len(),
            self.classes.len()
        );
        with_findings(String::new(), &findings, "lint", &clean)
    }

    /// `eval`: lists every reader class at every level, ranks the tasks, reports, draws.
    async fn eval(&self) -> Result<Outcome, String> {
        let options = &self.options.eval;
        let Some(path) = &options.tasks else {
            return Err("`eval` needs `--tasks FILE`".to_owned());
        };
        let tasks = match eval::Tasks::load(path) {
            Ok(tasks) => tasks,
            Err(errors) => return Ok(Outcome::fail(errors)),
        };
        let mut listings = Vec::new();
        for class in &self.classes {
            let levels = eval::listings(&self.catalog, class).await.map_err(failed)?;
            listings.push((class.clone(), levels));
        }
        // Tailoring never changes which tools a caller sees: any listing names them all.
        let tools: Vec<&str> = listings
            .first()
            .map(|(_, levels)| levels[0].entries.iter().map(|e| e.name.as_str()).collect())
            .unwrap_or_default();
        if let Err(errors) = tasks.check(&tools, &self.classes) {
            return Ok(Outcome::fail(errors));
        }
        let k = options.top.unwrap_or(eval::CODEX_LIMIT);
        let evaluation = eval::Evaluation::new(tasks.tasks(), k, listings);
        let mut findings = eval::lost_at_terser_levels(&evaluation);
        if let Some(floor) = options.floor {
            findings.extend(eval::below_floor(&evaluation, floor));
        }
        if let Some(svg) = &options.svg {
            std::fs::write(svg, eval::svg(&evaluation)?)
                .map_err(|e| format!("cannot write `{svg}`: {e}"))?;
        }
        if self.options.json {
            let lines: Vec<String> = findings.iter().map(Finding::to_string).collect();
            let json = pretty(&eval::json(&evaluation, &lines));
            return Ok(if lines.is_empty() {
                Outcome::ok(json)
            } else {
                Outcome::fail(json)
            });
        }
        Ok(with_findings(
            eval::text(&evaluation),
            &findings,
            "eval",
            "",
        ))
    }
}
