//! The wrapped rmcp handler: [`NoHandler`] when there is none, the union of capabilities,
//! and the wrapped tool list the layer merges into its own.
#![allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); the layer still serves it.

use crate::failure::{FailureKind, INNER_TOOLS_FAILURE, Reporter, internal, report};
use rmcp::model::{Implementation, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

/// The handler a server wraps when the builder is given none: it serves nothing itself, so
/// the layer's tools, instructions and logging are the whole server.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHandler;

impl ServerHandler for NoHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::default())
            .with_server_info(Implementation::new("mcp-tailor", env!("CARGO_PKG_VERSION")))
    }
}

/// The most pages of the wrapped handler's `tools/list` the layer follows per request.
const MAX_INNER_PAGES: usize = 1_000;

/// The layer's capabilities over the wrapped handler's: tools (with `listChanged`) and
/// logging are the layer's, and the tasks extension when a registered tool runs as a task
/// (`tasks`); everything else is the handler's.
pub(crate) fn merge_capabilities(
    mut capabilities: ServerCapabilities,
    tasks: bool,
) -> ServerCapabilities {
    let ours = ServerCapabilities::builder()
        .enable_tools()
        .enable_tool_list_changed()
        .enable_logging()
        .build();
    capabilities.tools = ours.tools;
    if tasks && !capabilities.supports_tasks() {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(
                rmcp::model::TASKS_EXTENSION_ID.to_owned(),
                Default::default(),
            );
    }
    if capabilities.logging.is_none() {
        capabilities.logging = ours.logging;
    }
    capabilities
}

/// Every tool the wrapped handler lists for this request (all its pages). Call it only for
/// a handler that declares the tools capability.
pub(crate) async fn wrapped_tools<H: ServerHandler>(
    wrapped: &H,
    context: &RequestContext<RoleServer>,
    reporter: Option<&Reporter>,
) -> Result<Vec<Tool>, ErrorData> {
    let fail = |cause: String| {
        report(reporter, FailureKind::Inner, cause, None);
        internal(INNER_TOOLS_FAILURE)
    };
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_INNER_PAGES {
        let params = cursor.take().map(|cursor| {
            let mut params = PaginatedRequestParams::default();
            params.cursor = Some(cursor);
            params
        });
        // The handler's own error reaches the client as it said it (a gateway's upstream
        // answered so); it is reported all the same.
        // (Boxed, as every call into the wrapped handler: `session::handler`.)
        let page = Box::pin(wrapped.list_tools(params, context.clone()))
            .await
            .inspect_err(|e| {
                let cause = format!("the wrapped handler's tools/list failed: {e}");
                report(reporter, FailureKind::Inner, cause, None);
            })?;
        tools.extend(page.tools);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(tools),
        }
    }
    Err(fail(format!(
        "the wrapped handler's tools/list has more than {MAX_INNER_PAGES} pages"
    )))
}
