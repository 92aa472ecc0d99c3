//! `inspect`: the catalog of a server you don't own (fetched, or captured as JSON), as a
//! tailoring file tailors it, through the same reports ([`crate::reports`]) a host binary
//! gives its own catalog.

use crate::CommandError;
use crate::args::{InspectOptions, Source, Sources};
use crate::reports::{self, Report};
use crate::upstreams::{FleetProxied, Proxied};
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::GatewayOptions;
use mcp_tailor::gateway::{Gateway, UpstreamTools};
use mcp_tailor::inspect::{IndexFinder, Inspection, definitions, lacking};
use mcp_tailor::server::{BuildError, IndexSurface, Server, Surface};
use std::process::ExitCode;

pub(crate) fn run(options: InspectOptions) -> ExitCode {
    // The report's own arguments are read first: a usage error costs no upstream.
    let request = match reports::parse("mcp-tailor inspect", options.report.iter().cloned()) {
        Ok(request) => request,
        Err(error) => return crate::clap_exit(&error),
    };
    let runtime = match crate::runtime() {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    let printed = runtime.block_on(async {
        let (listed, tailoring) = match &options.source {
            Sources::One(source) => {
                let tailoring = match &options.tailoring {
                    Some(path) => Tailoring::load(path)?,
                    None => Tailoring::default(),
                };
                (fetch(source).await?, tailoring)
            }
            Sources::Servers(file) => {
                let many =
                    FleetProxied::connect(file, options.tailoring.as_deref(), &[], false, |_| {
                        GatewayOptions::default()
                    })
                    .await?;
                (
                    many.listed_tools().unwrap_or_default().into(),
                    many.tailoring()?,
                )
            }
        };
        for warning in tailoring.warnings() {
            eprintln!("{warning}");
        }
        let UpstreamTools {
            tools, page_size, ..
        } = listed;
        // Listed as `proxy` serves them; read by string through their definitions.
        let defs = definitions(&tools, &tailoring);
        // `lint` also names what the file declares that the catalog lacks.
        let lacking = match request.report {
            Report::Lint { .. } => lacking(&tools, &tailoring),
            _ => Vec::new(),
        };
        let mut index =
            IndexSurface::new(IndexFinder::new(Vec::new())).default_surface(options.surface);
        if let Some(budget) = options.index_budget {
            index = budget.apply(index);
        }
        // `tokens` on the catalog shows the index surface beside it.
        let beside = matches!(request.report, Report::Tokens { json: false })
            && options.surface == Surface::Native;
        let indexed = beside.then(|| {
            let index = index.clone().default_surface(Surface::Index);
            (tailoring.clone(), tools.clone(), defs.clone(), index)
        });
        let server = wrapping_server(tailoring, page_size, Some(index))?;
        let (caller, protocol) = (request.caller.clone(), &request.protocol);
        let inspection = Inspection::of_wrapped(&server, tools, defs, caller.clone(), protocol);
        let mut printed = reports::run_with(&inspection, &request, lacking).await?;
        if let Some((tailoring, tools, defs, index)) = indexed {
            let server = wrapping_server(tailoring, page_size, Some(index))?;
            let inspection = Inspection::of_wrapped(&server, tools, defs, caller, protocol);
            let tokens = inspection.tokens().await?;
            printed.text.push_str(&format!(
                "\non the index surface (search_tools and call_tool; `--surface index`):\n{tokens}"
            ));
        }
        Ok::<_, CommandError>(printed)
    });
    reports::print(printed, "mcp-tailor: ")
}

/// The server another server's tools are listed through as `proxy` serves them: `tailoring`,
/// pages as the upstream's (`page_size`, see [`pages_of`]) and the defaults, no tools of its
/// own; on the index surface where `index` gives it.
pub(crate) fn wrapping_server(
    tailoring: Tailoring,
    page_size: Option<usize>,
    index: Option<IndexSurface>,
) -> Result<Server, BuildError> {
    let mut builder = Server::builder()
        .tailoring(tailoring)
        .page_size(pages_of(page_size));
    if let Some(index) = index {
        builder = builder.index(index);
    }
    builder.build()
}

/// The page size of a listing that pages as the upstream's own: as many tools a page as the
/// upstream's held (`UpstreamTools::page_size`), or all on one page where it listed them so.
/// A proxy that split one page in two would hide tools from a client that follows no cursor.
pub(crate) fn pages_of(upstream: Option<usize>) -> usize {
    upstream.unwrap_or(usize::MAX)
}

/// Every tool of a server (fetched through the gateway's client) and how it pages them, or
/// of a captured `tools/list` result (one page).
pub(crate) async fn fetch(source: &Source) -> Result<UpstreamTools, CommandError> {
    match source {
        Source::Catalog(path) => {
            let json = std::fs::read_to_string(path).map_err(CommandError::read(path))?;
            let tools = mcp_tailor::inspect::read_catalog(&json);
            let tools = tools.map_err(|source| CommandError::Catalog {
                path: path.into(),
                source,
            })?;
            Ok(tools.into())
        }
        Source::Upstream(upstream) => Ok(Gateway::fetch_tools(upstream).await?),
    }
}
