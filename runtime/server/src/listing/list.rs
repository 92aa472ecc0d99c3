//! `tools/list` and the eligibility check of `tools/call`: visibility first (scopes,
//! `authorize`), then tailoring, then host presentation, then the page of the whole
//! presented catalog, with a bound cursor and the cache hints. The wrapped handler's tools
//! take the same path as registered ones.

use crate::callbacks::{CallbackFailure, guarded};
use crate::catalog::tailoring::{InForce, TailoringSlot};
use crate::catalog::tools::{Catalog, ToolEntry};
use crate::failure::Reporter;
use crate::failure::{
    FailureKind, INNER_TOOLS_FAILURE, TOOL_PRESENTATION_FAILURE, internal, invalid_cursor, report,
    timed_out,
};
use crate::listing::cursor::CursorSigner;
use crate::listing::cursor::{Binding, BindingBuilder};
use crate::listing::presentation::PresentationFn;
use crate::listing::presentation::{self, Presentation};
use crate::request::info::RequestInfo;
use mcp_tailor_core::ToolDef;
use rmcp::ErrorData;
use rmcp::model::{CacheScope, ListToolsResult, Tool};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::time::Instant;

/// What a listing reads: the catalog, the tailoring in force, the host's presentation, the
/// page size and cursors, and the cache hints' inputs. Fixed at `build` but for the file.
pub(crate) struct ListingInputs {
    pub(crate) catalog: Catalog,
    /// `#[mcp_tool]` definitions whose strings tailor the wrapped handler's tools of the
    /// same name (and whose scopes gate them).
    pub(crate) attached: Vec<&'static ToolDef>,
    /// The tailoring file in force, with one view per tool.
    pub(crate) file: TailoringSlot,
    pub(crate) presentation: Option<PresentationFn>,
    pub(crate) page_size: usize,
    pub(crate) cursor: CursorSigner,
    pub(crate) list_ttl: Option<Duration>,
    /// Whether a listing can differ between readers or requests beyond visibility: tailored
    /// tools, a context callback, a presentation callback, or an instructions provider.
    pub(crate) dynamic: bool,
    /// Whether a tool's existence depends on the caller (scopes or `authorize`).
    pub(crate) gated: bool,
    pub(crate) reporter: Option<Reporter>,
}

impl ListingInputs {
    /// The `#[mcp_tool]` definition attached to the wrapped handler's tool `name`, if any.
    pub(crate) fn attached(&self, name: &str) -> Option<&'static ToolDef> {
        self.attached.iter().copied().find(|d| d.name() == name)
    }
}

/// Whether the caller may see and call `entry`: every scope group satisfied, then the
/// `authorize` predicate (a failure of it means hidden).
pub(crate) async fn is_visible(
    listing: &ListingInputs,
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
                listing.reporter.as_ref(),
                FailureKind::Authorize,
                format!("authorize {failure}; the tool is hidden"),
                Some(entry.def.name().to_owned()),
            );
            false
        }
    }
}

/// Applies the presentation callback to every rendered tool, or fails the whole list.
async fn present(
    listing: &ListingInputs,
    tools: &mut [Tool],
    info: &Arc<RequestInfo>,
    deadline: Instant,
) -> Result<(), ErrorData> {
    let Some(callback) = &listing.presentation else {
        return Ok(());
    };
    for tool in tools.iter_mut() {
        let name = tool.name.to_string();
        let fail = |kind, cause: String| {
            report(listing.reporter.as_ref(), kind, cause, Some(name.clone()));
        };
        let descriptor =
            serde_json::to_value(&*tool).map_err(|_| internal(TOOL_PRESENTATION_FAILURE))?;
        let overrides = match guarded(deadline, || callback(descriptor, info.clone())).await {
            Ok(Presentation::Default) => continue,
            Ok(Presentation::Overrides(overrides)) => overrides,
            Ok(Presentation::Error(cause)) => {
                fail(FailureKind::Presentation, cause);
                return Err(internal(TOOL_PRESENTATION_FAILURE));
            }
            Err(CallbackFailure::Timeout) => {
                fail(
                    FailureKind::Timeout,
                    "the presentation callback missed the request deadline".into(),
                );
                return Err(timed_out(TOOL_PRESENTATION_FAILURE));
            }
            Err(CallbackFailure::Panic(message)) => {
                fail(
                    FailureKind::Presentation,
                    format!("the presentation callback panicked: {message}"),
                );
                return Err(internal(TOOL_PRESENTATION_FAILURE));
            }
        };
        match presentation::validate(overrides) {
            Ok(checked) => checked.apply(tool),
            Err(cause) => {
                fail(
                    FailureKind::Presentation,
                    format!("invalid override: {cause}"),
                );
                return Err(internal(TOOL_PRESENTATION_FAILURE));
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
fn binding(
    listing: &ListingInputs,
    info: &RequestInfo,
    tools: &[Tool],
    page_size: usize,
) -> Binding {
    let principal = &info.principal;
    // Every part length-prefixed, lists counted, absent told from empty: no two bindings
    // of different callers or catalogs share an encoding.
    let mut builder = BindingBuilder::default()
        .part(&principal.id)
        .optional(principal.tenant.as_deref())
        .list(principal.scopes.iter())
        .list(tools.iter().map(|t| t.name.as_ref()))
        .part(page_size.to_be_bytes())
        .optional(info.protocol_version.as_deref());
    if listing.dynamic {
        let presented = serde_json::to_vec(tools).unwrap_or_default();
        builder = builder.part(Sha256::digest(presented));
    }
    builder.finish()
}

/// Whether the caller may see and call the wrapped handler's tool `name`: the scopes of
/// the `#[mcp_tool]` type attached to it with `.tailor()`, if any. (Whether the tool
/// exists at all is the wrapped handler's own decision.)
pub(crate) fn wrapped_is_visible(listing: &ListingInputs, name: &str, info: &RequestInfo) -> bool {
    listing
        .attached(name)
        .is_none_or(|def| info.principal.satisfies(def.scopes()))
}

/// The wrapped handler's tools as this reader sees them: visible ones only, tailored by
/// their attached `#[mcp_tool]` types. A name also registered is an error, never a shadow.
fn wrapped_candidates(
    listing: &ListingInputs,
    file: &InForce,
    wrapped: Vec<Tool>,
    info: &RequestInfo,
    tools: &mut Vec<Tool>,
) -> Result<(), ErrorData> {
    let ctx = info.render_ctx();
    let file_ctx = file.file_ctx(&ctx);
    for mut tool in wrapped {
        if listing.catalog.get(&tool.name).is_some() {
            report(
                listing.reporter.as_ref(),
                FailureKind::Inner,
                "the wrapped handler lists a tool that is also registered",
                Some(tool.name.to_string()),
            );
            return Err(internal(INNER_TOOLS_FAILURE));
        }
        if !wrapped_is_visible(listing, &tool.name, info) {
            continue;
        }
        if let Some(view) = file.view(&tool.name) {
            view.tailor(&mut tool, &ctx, file_ctx.as_ref());
        }
        if !info.supports_icons() {
            tool.icons = None;
        }
        tools.push(tool);
    }
    Ok(())
}

/// The `tools/list` result for this request and cursor; `wrapped` is the wrapped handler's
/// whole tool list for this request.
pub(crate) async fn list_tools(
    listing: &ListingInputs,
    info: &Arc<RequestInfo>,
    wrapped: Vec<Tool>,
    cursor: Option<&str>,
    deadline: Instant,
) -> Result<ListToolsResult, ErrorData> {
    let tools = presented(listing, info, wrapped, deadline).await?;
    paged(listing, info, tools, cursor)
}

/// The whole catalog as this reader is presented it: visible tools only, worded for the
/// reader (and the file), then the host's presentation.
pub(crate) async fn presented(
    listing: &ListingInputs,
    info: &Arc<RequestInfo>,
    wrapped: Vec<Tool>,
    deadline: Instant,
) -> Result<Vec<Tool>, ErrorData> {
    let ctx = info.render_ctx();
    let with_icons = info.supports_icons();
    // The whole presented catalog is computed before paging: the cursor binds its digest.
    let mut tools: Vec<Tool> = Vec::with_capacity(listing.catalog.entries().len() + wrapped.len());
    // One tailoring file for the whole listing, even while another is swapped in.
    let file = listing.file.get();
    let file_ctx = file.file_ctx(&ctx);
    for entry in listing.catalog.entries() {
        if is_visible(listing, entry, info, deadline).await {
            let mut tool = entry.render(&ctx, with_icons);
            if let Some((view, file_ctx)) = file.view(entry.def.name()).zip(file_ctx.as_ref()) {
                view.overlay(&mut tool, file_ctx);
            }
            tools.push(tool);
        }
    }
    wrapped_candidates(listing, &file, wrapped, info, &mut tools)?;
    present(listing, &mut tools, info, deadline).await?;
    Ok(tools)
}

/// The visible tools in their own words, the whole of them: a registered tool at its
/// most verbose level, a wrapped handler's tool as it listed it; no file, no presentation.
/// (What a search over the catalog reads.)
#[cfg(feature = "index")]
pub(crate) async fn own_words(
    listing: &ListingInputs,
    info: &Arc<RequestInfo>,
    wrapped: Vec<Tool>,
    deadline: Instant,
) -> Vec<Tool> {
    let ctx = mcp_tailor_core::RenderCtx::new().verbosity(mcp_tailor_core::MAX_VERBOSITY);
    let mut tools = Vec::with_capacity(listing.catalog.entries().len() + wrapped.len());
    for entry in listing.catalog.entries() {
        if is_visible(listing, entry, info, deadline).await {
            tools.push(entry.render(&ctx, false));
        }
    }
    tools.extend(
        wrapped
            .into_iter()
            .filter(|tool| wrapped_is_visible(listing, &tool.name, info)),
    );
    tools
}

/// The page of `tools` (the whole presented catalog) `cursor` asks for, with the next
/// cursor and the cache hints.
pub(crate) fn paged(
    listing: &ListingInputs,
    info: &RequestInfo,
    mut tools: Vec<Tool>,
    cursor: Option<&str>,
) -> Result<ListToolsResult, ErrorData> {
    let page_size = listing.page_size.max(1);
    let paged = cursor.is_some() || tools.len() > page_size;
    let binding = paged.then(|| binding(listing, info, &tools, page_size));
    let now = SystemTime::now();
    let offset = match (cursor, &binding) {
        (Some(cursor), Some(binding)) => listing
            .cursor
            .verify(cursor, binding, now)
            .ok()
            .filter(|offset| *offset < tools.len())
            .ok_or_else(invalid_cursor)?,
        _ => 0,
    };
    let end = offset.saturating_add(page_size).min(tools.len());
    let next_cursor = match &binding {
        Some(binding) if end < tools.len() => Some(listing.cursor.issue(end, binding, now)),
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
        let private = listing.dynamic || listing.gated;
        let mut ttl = listing.list_ttl.map_or(0, |t| t.as_millis() as u64);
        if result.next_cursor.is_some() {
            ttl = ttl.min(listing.cursor.ttl().as_millis() as u64);
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
