//! How a session serves the index surface: its listing (the two tools, and what the
//! session found where it loads them), `search_tools`, and `call_tool` turned into a call
//! of the named tool once its arguments match the tool's schema.

use super::Session;
use crate::call::context::has_session;
use crate::failure::unknown_tool;
use crate::listing::list::{is_visible, own_words, presented, wrapped_is_visible};
use crate::request::info::RequestInfo;
use crate::surface::IndexSurface;
use crate::surface::arguments::check;
use crate::surface::index::{Named, SearchQuery, answer, index_listing};
use rmcp::model::{CallToolRequestParams, CallToolResult, ListToolsResult, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::sync::Arc;
use tokio::time::Instant;

impl<H: ServerHandler> Session<H> {
    /// The index surface, when this request's reader gets it (the session's choice read).
    pub(super) fn index_for(&self, info: &RequestInfo) -> Result<Option<&IndexSurface>, ErrorData> {
        let session = self.session.surface();
        self.shared.index_for(info, session.as_deref())
    }

    /// The index surface's `tools/list`: `search_tools` with the index's lines, `call_tool`,
    /// then (where it loads what it finds) the tools this session found, as the reader
    /// reads them natively.
    pub(super) async fn list_index(
        &self,
        surface: &IndexSurface,
        info: &Arc<RequestInfo>,
        mut context: RequestContext<RoleServer>,
        cursor: Option<&str>,
        deadline: Instant,
    ) -> Result<ListToolsResult, ErrorData> {
        let wrapped = self.wrapped_list(&mut context, info).await?;
        let found = self.session.found();
        let listing = &self.shared.listing;
        index_listing(listing, surface, info, wrapped, &found, cursor, deadline).await
    }

    /// `search_tools`: the catalog ranked by the finder over every tool's own words, the
    /// best `limit` answered as the reader reads them. Where the surface loads what it
    /// finds, the found tools join the session's listing, and the client is told.
    pub(super) async fn search_tools(
        &self,
        surface: &IndexSurface,
        request: &CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
        info: &Arc<RequestInfo>,
        deadline: Instant,
    ) -> Result<CallToolResult, ErrorData> {
        let query = SearchQuery::read(request.arguments.as_ref())?;
        let wrapped = self.wrapped_list(&mut context, info).await?;
        let listing = &self.shared.listing;
        let own = own_words(listing, info, wrapped.clone(), deadline).await;
        let best: Vec<&str> = surface
            .finder
            .rank(&own, &query.query)
            .into_iter()
            .filter_map(|i| own.get(i))
            .take(query.limit)
            .map(|tool| tool.name.as_ref())
            .collect();
        let native = presented(listing, info, wrapped, deadline).await?;
        let found: Vec<Tool> = best
            .iter()
            .filter_map(|name| native.iter().find(|tool| tool.name == *name).cloned())
            .collect();
        if surface.load_on_find
            && has_session(&context)
            && self
                .session
                .add_found(found.iter().map(|tool| tool.name.as_ref()))
            && let Err(error) = context.peer.notify_tool_list_changed().await
        {
            tracing::debug!(%error, "could not send tools/list_changed");
        }
        Ok(answer(&found))
    }

    /// The call `call_tool` names, once the named tool is one this caller may call and the
    /// arguments match its input schema: a call of the tool by its own name.
    pub(super) async fn named_call(
        &self,
        request: CallToolRequestParams,
        context: &mut RequestContext<RoleServer>,
        info: &Arc<RequestInfo>,
        deadline: Instant,
    ) -> Result<CallToolRequestParams, ErrorData> {
        let named = Named::read(request.arguments.as_ref())?;
        let listing = &self.shared.listing;
        let tool = match listing.catalog.get(&named.name) {
            Some(entry) => {
                if !is_visible(listing, entry, info, deadline).await {
                    return Err(unknown_tool(&named.name));
                }
                entry.render(&info.render_ctx(), false)
            }
            None => {
                if !self.shared.wrapped.tools || !wrapped_is_visible(listing, &named.name, info) {
                    return Err(unknown_tool(&named.name));
                }
                match self.wrapped.get_tool(&named.name) {
                    Some(tool) => tool,
                    None => self
                        .wrapped_list(context, info)
                        .await?
                        .into_iter()
                        .find(|tool| tool.name == named.name)
                        .ok_or_else(|| unknown_tool(&named.name))?,
                }
            }
        };
        check(&tool, &named.arguments)?;
        let mut call = request;
        call.name = named.name.into();
        call.arguments = Some(named.arguments);
        Ok(call)
    }
}
