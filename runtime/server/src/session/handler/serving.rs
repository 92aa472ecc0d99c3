//! How a session serves what the layer answers itself: each request's information and
//! reader (for the layer, and carried to the wrapped handler), the instructions, the call
//! of a registered tool, and whose tasks a request may see.

use super::Session;
use crate::call::context::{CallContext, has_session};
use crate::call::tasks::{Call, TaskSupport};
use crate::catalog::wrapped::wrapped_tools;
use crate::failure::{FailureKind, TOOL_HANDLER_FAILURE, internal, report, unknown_tool};
use crate::listing::list::{is_visible, wrapped_is_visible};
use crate::request::info::{RequestInfo, principal_in};
use crate::request::reader::ResolvedReader;
use futures::FutureExt as _;
use rmcp::model::{CallToolRequestParams, CallToolResponse, ClientCapabilities, Implementation};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use tokio::time::Instant;

impl<H: ServerHandler> Session<H> {
    /// Everything the server knows about this request, with the reader resolved (and the
    /// host context callback applied, under the deadline).
    pub(super) async fn request_info(
        &self,
        context: &mut RequestContext<RoleServer>,
        client: Option<Implementation>,
        deadline: Instant,
    ) -> Arc<RequestInfo> {
        let shared = &self.shared;
        let info = RequestInfo::take_from(
            context,
            client,
            shared.readers.default_principal.clone(),
            shared.readers.fallback_verbosity,
        );
        shared
            .readers
            .resolve(info, self.session.reader().as_ref(), deadline)
            .await
    }

    /// `Err` (invalid params, `invalid_level`) when `context`'s `_meta` names a level that
    /// is not one: a request that names a wording gets it or is told why not.
    pub(super) fn check_level(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        match self.shared.readers.source.refused_level(&context.meta.0.0) {
            Some(why) => Err(crate::failure::invalid_level(why)),
            None => Ok(()),
        }
    }

    /// When a request begun now must be answered by.
    pub(super) fn deadline(&self) -> Instant {
        Instant::now() + self.shared.deadline
    }

    /// `context` for the wrapped handler, carrying the reader the layer resolved for it
    /// (what [`Reader::from_request`](crate::Reader::from_request) returns there).
    pub(super) fn scoped(
        &self,
        mut context: RequestContext<RoleServer>,
        info: &RequestInfo,
    ) -> RequestContext<RoleServer> {
        context
            .extensions
            .insert(ResolvedReader(info.reader.clone()));
        context
    }

    /// Every tool the wrapped handler lists for this request (none when it serves none),
    /// asked with `context` restored and scoped to the request's reader, in place.
    pub(super) async fn wrapped_list(
        &self,
        context: &mut RequestContext<RoleServer>,
        info: &RequestInfo,
    ) -> Result<Vec<rmcp::model::Tool>, ErrorData> {
        if !self.shared.wrapped.tools {
            return Ok(Vec::new());
        }
        info.restore(context);
        context
            .extensions
            .insert(ResolvedReader(info.reader.clone()));
        wrapped_tools(&self.wrapped, context, self.shared.reporter.as_ref()).await
    }

    /// `context` for the wrapped handler of a request the layer does not answer: its reader
    /// resolved once, host callback included, as for the requests the layer answers.
    pub(super) async fn resolved(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> RequestContext<RoleServer> {
        let info = self.request_info(&mut context, None, self.deadline()).await;
        info.restore(&mut context);
        self.scoped(context, &info)
    }

    /// The server's instructions for this request: the layer's own, else the tailoring
    /// file's (resolved for the reader), else the wrapped handler's static ones.
    pub(super) async fn instructions(
        &self,
        info: &Arc<RequestInfo>,
        deadline: Instant,
    ) -> Result<Option<String>, ErrorData> {
        // The file's instructions overlay the wrapped handler's: what the file's table
        // does not cover reads the handler's own.
        let file = self.shared.listing.file.get();
        let fallback = match file
            .file
            .instructions()
            .zip(file.file_ctx(&info.render_ctx()))
            .and_then(|(f, ctx)| f.resolve(&ctx))
        {
            Some(text) => Some(text.to_owned()),
            None => self.wrapped.get_info().instructions,
        };
        self.shared
            .instructions
            .resolve(info, deadline, self.shared.reporter.as_ref(), fallback)
            .await
    }

    /// Calls the registered tool `entry` with `request` (as a task where the tool and the
    /// client support one; a panicking handler answered with an error).
    pub(super) async fn call_registered(
        &self,
        entry: &crate::catalog::tools::ToolEntry,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        info: Arc<RequestInfo>,
    ) -> Result<CallToolResponse, ErrorData> {
        let principal = info.principal.id.clone();
        let session = has_session(&context).then(|| context.peer.clone());
        let context = self.scoped(context, &info);
        let call = CallContext::new(
            info,
            self.session.clone(),
            Arc::clone(&self.shared.subscribers),
            Arc::clone(&self.shared.wrapped.logger),
            context,
            &mut request,
        );
        let declared = call
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        let arguments = request.arguments.unwrap_or_default();
        let reporter = self.shared.reporter.clone();
        let name = request.name.to_string();
        let guarded = |call: CallContext| -> Call {
            let run = entry.call(arguments, call);
            Box::pin(async move {
                AssertUnwindSafe(run)
                    .catch_unwind()
                    .await
                    .unwrap_or_else(|_| {
                        report(
                            reporter.as_ref(),
                            FailureKind::Handler,
                            "the tool handler panicked",
                            Some(name),
                        );
                        Err(internal(TOOL_HANDLER_FAILURE))
                    })
            })
        };
        match (entry.tasks, declared) {
            (None, _) | (Some(TaskSupport::Optional), false) => guarded(call).await,
            (Some(TaskSupport::Required), false) => {
                Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                ))
            }
            (Some(_), true) => {
                let slot = self.shared.tasks.slot(session);
                let call = guarded(call.for_task(slot.clone()));
                self.shared.tasks.run(&principal, call, slot).await
            }
        }
    }

    /// Calls the tool `request` names, when this caller may see it: a registered tool here,
    /// else the wrapped handler's. Eligibility is checked on its own; presented descriptors
    /// play no part.
    pub(super) async fn call_by_name(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
        info: Arc<RequestInfo>,
        deadline: Instant,
    ) -> Result<CallToolResponse, ErrorData> {
        let shared = &self.shared;
        if let Some(entry) = shared.listing.catalog.get(&request.name) {
            if !is_visible(&shared.listing, entry, &info, deadline).await {
                return Err(unknown_tool(&request.name));
            }
            return self.call_registered(entry, request, context, info).await;
        }
        if !shared.wrapped.tools || !wrapped_is_visible(&shared.listing, &request.name, &info) {
            return Err(unknown_tool(&request.name));
        }
        info.restore(&mut context);
        Box::pin(self.wrapped.call_tool(request, self.scoped(context, &info))).await
    }

    /// The principal of a request, for the tasks it may see.
    pub(super) fn principal(&self, context: &RequestContext<RoleServer>) -> String {
        principal_in(context).map_or_else(
            || self.shared.readers.default_principal.id.clone(),
            |principal| principal.id.clone(),
        )
    }

    /// Whether a `tasks/*` request for `id` is the layer's: a task of its own, or any
    /// task when the wrapped handler runs none.
    pub(super) fn owns_task(&self, id: &str) -> bool {
        !self.shared.wrapped.tasks || self.shared.tasks.knows(id)
    }
}
