//! `tools/list` and the eligibility check of `tools/call`: visibility first (scopes,
//! `authorize`), then tailoring, then host presentation, then the page of the whole
//! presented catalog, with a bound cursor and the cache hints.

use super::builder::Shared;
use super::callbacks::{CallbackFailure, guarded};
use super::catalog::ToolEntry;
use super::cursor::{Binding, BindingBuilder};
use super::failure::{Failure, FailureKind, internal, invalid_cursor, report};
use super::presentation::{self, Presentation};
use super::request::RequestInfo;
use rmcp::ErrorData;
use rmcp::model::{CacheScope, ListToolsResult, Tool};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::SystemTime;
use tokio::time::Instant;

/// Whether the caller may see and call `entry`: every scope group satisfied, then the
/// `authorize` predicate (a failure of it means hidden).
pub(crate) async fn is_visible(
    shared: &Shared,
    entry: &ToolEntry,
    info: &Arc<RequestInfo>,
    deadline: Instant,
) -> bool {
    if !info.principal.satisfies(entry.def.scopes()) {
        return false;
    }
    let Some(authorize) = &entry.authorize else {
        return true;
    };
    match guarded(deadline, || authorize(entry.def, info.clone())).await {
        Ok(allowed) => allowed,
        Err(failure) => {
            report(
                shared.reporter.as_ref(),
                Failure {
                    kind: FailureKind::Authorize,
                    cause: format!("authorize {failure}; the tool is hidden"),
                    tool: Some(entry.def.name().to_owned()),
                },
            );
            false
        }
    }
}

/// Applies the presentation callback to every rendered tool, or fails the whole list.
async fn present(
    shared: &Shared,
    tools: &mut [Tool],
    info: &Arc<RequestInfo>,
    deadline: Instant,
) -> Result<(), ErrorData> {
    let Some(callback) = &shared.presentation else {
        return Ok(());
    };
    for tool in tools.iter_mut() {
        let name = tool.name.to_string();
        let fail = |kind, cause: String| {
            report(
                shared.reporter.as_ref(),
                Failure {
                    kind,
                    cause,
                    tool: Some(name.clone()),
                },
            );
        };
        let descriptor =
            serde_json::to_value(&*tool).map_err(|_| internal("tool_presentation_failure"))?;
        let overrides = match guarded(deadline, || callback(descriptor, info.clone())).await {
            Ok(Presentation::Default) => continue,
            Ok(Presentation::Overrides(overrides)) => overrides,
            Ok(Presentation::Error(cause)) => {
                fail(FailureKind::Presentation, cause);
                return Err(internal("tool_presentation_failure"));
            }
            Err(CallbackFailure::Timeout) => {
                fail(
                    FailureKind::Timeout,
                    "the presentation callback missed the request deadline".into(),
                );
                return Err(internal("timeout"));
            }
            Err(CallbackFailure::Panic(message)) => {
                fail(
                    FailureKind::Presentation,
                    format!("the presentation callback panicked: {message}"),
                );
                return Err(internal("tool_presentation_failure"));
            }
        };
        match presentation::validate(overrides) {
            Ok(checked) => checked.apply(tool),
            Err(cause) => {
                fail(
                    FailureKind::Presentation,
                    format!("invalid override: {cause}"),
                );
                return Err(internal("tool_presentation_failure"));
            }
        }
        if !info.supports_icons() {
            tool.icons = None;
        }
    }
    Ok(())
}

/// What a cursor binds: the caller, the visible catalog, the page size, the protocol
/// revision and — when wording can vary — a digest of the presented catalog.
fn binding(shared: &Shared, info: &RequestInfo, tools: &[Tool], page_size: usize) -> Binding {
    let principal = &info.principal;
    let joined = |items: &mut dyn Iterator<Item = &str>| items.collect::<Vec<_>>().join(" ");
    let mut builder = BindingBuilder::default()
        .part(&principal.id)
        .part(principal.tenant.as_deref().unwrap_or(""))
        .part(joined(&mut principal.scopes.iter().map(String::as_str)))
        .part(joined(&mut tools.iter().map(|t| t.name.as_ref())))
        .part(page_size.to_be_bytes())
        .part(info.protocol_version.as_deref().unwrap_or(""));
    if shared.dynamic {
        let presented = serde_json::to_vec(tools).unwrap_or_default();
        builder = builder.part(Sha256::digest(presented));
    }
    builder.finish()
}

/// The `tools/list` result for this request and cursor.
pub(crate) async fn list_tools(
    shared: &Shared,
    info: &Arc<RequestInfo>,
    cursor: Option<&str>,
    deadline: Instant,
) -> Result<ListToolsResult, ErrorData> {
    let ctx = info.render_ctx();
    let with_icons = info.supports_icons();
    // The whole presented catalog is computed before paging: the cursor binds its digest.
    let mut tools: Vec<Tool> = Vec::with_capacity(shared.catalog.entries().len());
    for entry in shared.catalog.entries() {
        if is_visible(shared, entry, info, deadline).await {
            tools.push(entry.render(&ctx, with_icons));
        }
    }
    present(shared, &mut tools, info, deadline).await?;

    let page_size = shared.page_size.max(1);
    let paged = cursor.is_some() || tools.len() > page_size;
    let binding = paged.then(|| binding(shared, info, &tools, page_size));
    let now = SystemTime::now();
    let offset = match (cursor, &binding) {
        (Some(cursor), Some(binding)) => shared
            .cursor
            .verify(cursor, binding, now)
            .ok()
            .filter(|offset| *offset < tools.len())
            .ok_or_else(invalid_cursor)?,
        _ => 0,
    };
    let end = (offset + page_size).min(tools.len());
    let next_cursor = match &binding {
        Some(binding) if end < tools.len() => Some(shared.cursor.issue(end, binding, now)),
        _ => None,
    };
    let page: Vec<Tool> = if offset == 0 && end == tools.len() {
        tools
    } else {
        tools.drain(offset..end).collect()
    };
    let mut result = ListToolsResult::with_all_items(page);
    result.next_cursor = next_cursor;
    if info.is_modern() {
        // Anything that makes the listing depend on who asks makes it private.
        let private = shared.dynamic || shared.gated;
        let mut ttl = shared.list_ttl.map_or(0, |t| t.as_millis() as u64);
        if result.next_cursor.is_some() {
            ttl = ttl.min(shared.cursor.ttl().as_millis() as u64);
        }
        result.ttl_ms = Some(ttl);
        result.cache_scope = Some(if private {
            CacheScope::Private
        } else {
            CacheScope::Public
        });
    }
    Ok(result)
}
