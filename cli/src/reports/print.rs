//! A report made and printed: its text, its findings, its exit code.

use super::{Report, Request};
use crate::CommandError;
use mcp_tailor::inspect::{Finding, Inspection, eval};
use mcp_tailor::server::Server;
use mcp_tailor::server::rmcp::ServerHandler;
use serde_json::Value;
use std::process::ExitCode;

/// What a report printed, and whether it found something (`lint`, `eval`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Printed {
    /// The report, for standard output.
    pub text: String,
    /// Findings were reported: the exit code is 1.
    pub findings: bool,
}

impl Printed {
    fn report(text: String) -> Printed {
        Printed {
            text,
            findings: false,
        }
    }

    /// Writes the text to standard output and returns the exit code: 0, or 1 with findings.
    /// A reader that closed standard output (`… | head`) is no error.
    pub fn print(&self) -> ExitCode {
        crate::print_out(&self.text);
        if self.findings {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// The whole command for a host binary: reads `args` (the report's name first) as the
/// command `name`, makes the report of `server`'s catalog, prints it, and returns the exit
/// code (see [the module](super)).
pub async fn main<H: ServerHandler + Clone>(
    server: &Server<H>,
    name: &'static str,
    args: impl IntoIterator<Item = String>,
) -> ExitCode {
    match super::parse(name, args) {
        Ok(request) => print(run(server, &request).await, ""),
        Err(error) => crate::clap_exit(&error),
    }
}

/// Prints a report, or why there is none (standard error after `said_by`, exit 1).
pub(crate) fn print(printed: Result<Printed, CommandError>, said_by: &str) -> ExitCode {
    match printed {
        Ok(printed) => printed.print(),
        Err(error) => {
            eprintln!("{said_by}{error}");
            ExitCode::FAILURE
        }
    }
}

/// Makes `request`'s report of `server`'s catalog; `Err` says why it could not be made.
pub async fn run<H: ServerHandler + Clone>(
    server: &Server<H>,
    request: &Request,
) -> Result<Printed, CommandError> {
    let inspection = Inspection::new(server, request.caller.clone(), &request.protocol);
    run_with(&inspection, request, Vec::new()).await
}

/// [`run`] on an inspection made for `request`'s caller and protocol (e.g. of another
/// server's tools, [`Inspection::of_wrapped`]), with findings of the caller's own
/// that `lint` reports with its own (e.g. [`lacking`](mcp_tailor::inspect::lacking)).
pub async fn run_with<H: ServerHandler + Clone>(
    inspection: &Inspection<'_, H>,
    request: &Request,
    more_lint: Vec<Finding>,
) -> Result<Printed, CommandError> {
    Ok(match &request.report {
        Report::List { reader, pretty } => {
            let page = inspection.list(reader.clone()).await?;
            Printed::report(if *pretty {
                indented(&serde_json::from_str(&page).unwrap_or_default())
            } else {
                page
            })
        }
        Report::Matrix { json } => {
            let matrix = inspection.matrix().await?;
            table(&matrix, || matrix.json(), *json)
        }
        Report::Tokens { json } => {
            let tokens = inspection.tokens().await?;
            table(&tokens, || tokens.json(), *json)
        }
        Report::Diff { a, b } => Printed::report(inspection.diff(a, b).await?.to_string()),
        Report::Lint { config } => {
            let mut findings = inspection.lint(config);
            findings.extend(more_lint);
            // The server's own schema is the upstream's to fix, not the file's: a note, and
            // no failure.
            let (schema, findings): (Vec<Finding>, Vec<Finding>) =
                findings.into_iter().partition(Finding::is_about_schema);
            let clean = format!(
                " ({}, {})",
                crate::counted(inspection.defs().len(), "tool"),
                crate::counted(inspection.classes().len(), "reader class")
            );
            let mut printed = with_findings(String::new(), &findings, "lint", &clean);
            if !schema.is_empty() {
                let notes: Vec<String> = schema.iter().map(|f| format!("  {f}")).collect();
                printed.text.push_str(&format!(
                    "\nnote: {} about the server's own schema (no tailoring file changes it; \
                     not counted):\n{}",
                    crate::counted(schema.len(), "finding"),
                    notes.join("\n")
                ));
            }
            printed
        }
        Report::Eval {
            tasks,
            searches,
            embedding_model,
            top,
            floor,
            svg,
            json,
        } => {
            let tasks = eval::Tasks::load(tasks)?;
            let searches = searches_named(searches, embedding_model.as_deref())?;
            let evaluations = inspection.eval(&tasks, *top, &searches).await?;
            let several = evaluations.len() > 1;
            let (mut texts, mut reports, mut found) = (Vec::new(), Vec::new(), false);
            for evaluation in &evaluations {
                let mut findings = eval::lost_at_terser_levels(evaluation);
                if let Some(floor) = floor {
                    findings.extend(eval::below_floor(evaluation, *floor));
                }
                if let Some(svg) = svg {
                    let path = match several {
                        true => per_search(svg, &evaluation.search),
                        false => svg.clone(),
                    };
                    std::fs::write(&path, eval::svg(evaluation)?)
                        .map_err(CommandError::write(&path))?;
                }
                found |= !findings.is_empty();
                if *json {
                    let lines: Vec<String> = findings.iter().map(Finding::to_string).collect();
                    reports.push(eval::json(evaluation, &lines));
                } else {
                    texts.push(with_findings(eval::text(evaluation), &findings, "eval", "").text);
                }
            }
            let text = match (*json, several) {
                (true, false) => indented(&reports[0]),
                (true, true) => indented(&serde_json::json!({ "searches": reports })),
                (false, _) => texts.join("\n\n"),
            };
            Printed {
                text,
                findings: found,
            }
        }
    })
}

/// The searches `names` names; the embedding model loaded from `model` where one is
/// named.
pub(crate) fn searches_named(
    names: &[String],
    model: Option<&str>,
) -> Result<Vec<eval::Search>, CommandError> {
    names
        .iter()
        .map(|name| match name.as_str() {
            "codex" => Ok(eval::Search::Codex),
            "fastmcp" => Ok(eval::Search::Fastmcp),
            "embedding" => {
                let dir = model.ok_or(CommandError::NoEmbeddingModel)?;
                let model = eval::EmbeddingModel::load(dir)?;
                Ok(eval::Search::Embedding(model))
            }
            "fused" => {
                let both = ["fastmcp".to_owned(), "embedding".to_owned()];
                Ok(eval::Search::Fused(searches_named(&both, model)?))
            }
            other => Err(CommandError::NoSuchSearch(other.to_owned())),
        })
        .collect()
}

/// `FILE.svg` of one search of several: `FILE-NAME.svg`.
fn per_search(svg: &str, search: &eval::Search) -> String {
    match svg.strip_suffix(".svg") {
        Some(stem) => format!("{stem}-{search}.svg"),
        None => format!("{svg}-{search}"),
    }
}

/// A table report as asked for: indented JSON, or text for people.
fn table(text: &dyn std::fmt::Display, json: impl FnOnce() -> Value, as_json: bool) -> Printed {
    Printed::report(if as_json {
        indented(&json())
    } else {
        text.to_string()
    })
}

fn indented(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Findings as `lint` and `eval` print them: the report (if any), then each finding and
/// their count.
fn with_findings(report: String, findings: &[Finding], command: &str, clean: &str) -> Printed {
    if findings.is_empty() {
        return Printed::report(format!("{report}{command}: no findings{clean}"));
    }
    let lines: Vec<String> = findings.iter().map(Finding::to_string).collect();
    let report = if report.is_empty() {
        report
    } else {
        format!("{report}\n")
    };
    Printed {
        text: format!(
            "{report}{}\n{command}: {}",
            lines.join("\n"),
            crate::counted(lines.len(), "finding")
        ),
        findings: true,
    }
}

#[cfg(test)]
mod tests;
