//! `inspect`: the catalog of a server you don't own (fetched, or captured as JSON), as a
//! tailoring file tailors it, through the same subcommands as a host's own `inspect`.

use crate::args::{InspectOptions, Source};
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::Gateway;
use std::process::ExitCode;

pub(crate) fn run(options: InspectOptions) -> ExitCode {
    let runtime = match crate::runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    match runtime.block_on(inspect(options)) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(message) => {
            eprintln!("mcp-tailor: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn inspect(options: InspectOptions) -> Result<i32, String> {
    // A report's own help: every report's options.
    if options.report.iter().any(|a| a == "--help" || a == "-h") {
        crate::print_out(mcp_tailor::inspect::USAGE);
        return Ok(0);
    }
    let tailoring = match &options.tailoring {
        Some(path) => Tailoring::load(path).map_err(|e| e.to_string())?,
        None => Tailoring::default(),
    };
    for warning in tailoring.warnings() {
        eprintln!("{warning}");
    }
    let tools = fetch(&options.source).await?;
    let outcome = mcp_tailor::inspect::run_tools(&tools, &tailoring, options.report).await;
    // A usage error on stderr; a report on stdout, even with findings, so it can be piped.
    let code = outcome.print_code();
    if code == 2 {
        eprintln!("{}", outcome.output);
    } else {
        crate::print_out(&outcome.output);
    }
    Ok(code)
}

/// Every tool of a server (fetched through the gateway's client), or of a captured
/// `tools/list` result.
pub(crate) async fn fetch(
    source: &Source,
) -> Result<Vec<mcp_tailor::server::rmcp::model::Tool>, String> {
    match source {
        Source::Catalog(path) => {
            let json =
                std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
            mcp_tailor::inspect::read_catalog(&json).map_err(|e| format!("{path}: {e}"))
        }
        Source::Upstream(upstream) => Gateway::fetch_tools(upstream)
            .await
            .map_err(|e| e.to_string()),
    }
}
