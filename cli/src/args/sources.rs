//! Where a command reads its server or catalog: `--upstream URL` with its headers,
//! `-- COMMAND ARGS…`, or `--catalog FILE`, and the check that exactly one is given.

use super::{Source, command};
use crate::values::{header, http_url};
use clap::Args;
use mcp_tailor::gateway::Upstream;

pub(super) const COMMAND_HELP: &str =
    "The upstream's command and its arguments, after `--`: it serves MCP on stdio";
pub(super) const CATALOG_HELP: &str =
    "A captured tools/list result (JSON) instead of a live server";

/// `--upstream URL` and its headers.
#[derive(Debug, Args)]
pub(super) struct UpstreamArgs {
    #[arg(
        long,
        value_name = "URL",
        value_parser = http_url,
        help = "The upstream's streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp \
                (or a legacy HTTP+SSE server's stream, e.g. …/sse); an https:// one is \
                verified against the system's root certificates (SSL_CERT_FILE names others)"
    )]
    pub(super) upstream: Option<String>,
    #[arg(
        long = "upstream-header",
        value_name = "NAME: VALUE",
        requires = "upstream",
        value_parser = header,
        help = "A header sent to the upstream on every request; ${VAR} in VALUE is read from the environment"
    )]
    pub(super) upstream_header: Vec<(String, String)>,
}

/// A live server: `--upstream URL` (with its headers) or `-- COMMAND ARGS…` (the last
/// argument).
#[derive(Debug, Args)]
pub(super) struct ServerArgs {
    #[command(flatten)]
    pub(super) upstream: UpstreamArgs,
    #[arg(
        value_name = "COMMAND",
        num_args = 1..,
        last = true,
        help = COMMAND_HELP
    )]
    pub(super) command: Vec<String>,
}

/// Where `check` and `init` read the catalog: a live server, or `--catalog FILE`.
#[derive(Debug, Args)]
pub(super) struct CatalogArgs {
    #[command(flatten)]
    server: ServerArgs,
    #[arg(long, value_name = "FILE", help = CATALOG_HELP)]
    catalog: Option<String>,
}

impl CatalogArgs {
    /// Whether any source is given.
    pub(super) fn given(&self) -> bool {
        let server = &self.server;
        server.upstream.upstream.is_some() || !server.command.is_empty() || self.catalog.is_some()
    }

    /// The one source given, for the subcommand `name` (see [`source`]).
    pub(super) fn source(self, name: &str) -> Result<Source, clap::Error> {
        let server = self.server;
        source(
            name,
            server.upstream,
            server.command,
            Some(self.catalog),
            &[],
        )
    }
}

/// The one source given: `--upstream URL` (with its headers), `-- COMMAND ARGS…`, or, where
/// the command takes one (`catalog` is `Some`), `--catalog FILE`; an error when none or
/// several are. `report` is `inspect`'s, to tell an option of its own given after it.
pub(super) fn source(
    name: &str,
    upstream: UpstreamArgs,
    command: Vec<String>,
    catalog: Option<Option<String>>,
    report: &[String],
) -> Result<Source, clap::Error> {
    let takes_catalog = catalog.is_some();
    let catalog = catalog.flatten();
    let named = [
        upstream.upstream.is_some(),
        !command.is_empty(),
        catalog.is_some(),
    ]
    .into_iter()
    .filter(|&given| given)
    .count();
    let misplaced = report
        .iter()
        .find(|a| matches!(a.as_str(), "--upstream" | "--catalog" | "--tailoring"));
    if let (0, Some(flag)) = (named, misplaced) {
        let message = format!(
            "`{flag}` is `inspect`'s own option: give it before the report, e.g. \
             `mcp-tailor inspect {flag} … list`"
        );
        return Err(usage_error(name, message));
    }
    if named != 1 {
        let catalog = if takes_catalog {
            ", `--catalog FILE`"
        } else {
            ""
        };
        let message = format!(
            "give one upstream: `--upstream URL`{catalog} or `-- COMMAND ARGS…` at the end"
        );
        return Err(usage_error(name, message));
    }
    if let Some(url) = upstream.upstream {
        return Ok(Source::Upstream(Upstream::Http {
            url,
            headers: upstream.upstream_header,
        }));
    }
    if let Some(file) = catalog {
        return Ok(Source::Catalog(file));
    }
    let mut command = command.into_iter();
    let program = command.next().expect("one or more");
    Ok(Source::Upstream(Upstream::command(
        program,
        command.collect(),
    )))
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
