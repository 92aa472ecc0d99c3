//! The `rmcp::ServerHandler` of each session of a built server. The layer owns
//! the handshake (instructions), `tools/list`, `tools/call` of registered tools, the
//! session's reader and logging level, and `subscriptions/listen` for tool changes; every
//! other request and notification goes to the wrapped handler unchanged.
//!
//! Every call into the wrapped handler is boxed (one allocation a request): rmcp's
//! `Service` impl matches on the request and holds a future of each handler method in one
//! frame, which in a debug build is as large as all of them together (with the gateway
//! wrapped, 754 KiB of a thread's 2 MiB stack unboxed, 117 KiB boxed).
#![allow(deprecated)] // rmcp marks logging, resource subscriptions and roots deprecated.

#[cfg(feature = "index")]
mod index;
mod serving;

use crate::call::context::SessionState;
use crate::catalog::wrapped::{NoHandler, merge_capabilities};
use crate::listing::list::list_tools;
use crate::session::passed_on::passed_on;
use crate::session::registration::{self, Handles};
use crate::session::server_state::ServerState;
use crate::session::set_reader::{SET_READER_METHOD, malformed_standard_request, set_reader};
use futures::future::BoxFuture;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    ClientRequest, CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest,
    CustomResult, DiscoverResult, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams,
    GetSkillResult, GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, ServerResult, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::borrow::Cow;
use std::sync::{Arc, Weak};

/// One session of a [`Server`](crate::Server): implements `rmcp::ServerHandler` in front of the
/// wrapped handler `H`. A clone is the same session (its state and handler shared).
pub struct Session<H = NoHandler> {
    shared: Arc<ServerState>,
    session: Arc<SessionState>,
    wrapped: Arc<H>,
}

impl<H> Clone for Session<H> {
    fn clone(&self) -> Self {
        Session {
            shared: self.shared.clone(),
            session: self.session.clone(),
            wrapped: self.wrapped.clone(),
        }
    }
}

/// A session as its transport holds it (`registration`): it ends when rmcp drops it (and
/// with it, a gateway's upstream session).
#[cfg_attr(not(feature = "http"), allow(dead_code))]
struct HeldSession<H> {
    shared: Arc<ServerState>,
    session: Weak<SessionState>,
    wrapped: Weak<H>,
}

impl<H: ServerHandler> Handles for HeldSession<H> {
    fn ended(&self) -> bool {
        self.wrapped.strong_count() == 0
    }

    fn handle(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Option<BoxFuture<'static, Result<ServerResult, ErrorData>>> {
        let session = Session {
            shared: self.shared.clone(),
            session: self.session.upgrade()?,
            wrapped: self.wrapped.upgrade()?,
        };
        Some(Box::pin(async move {
            rmcp::Service::handle_request(&session, request, context).await
        }))
    }
}

impl<H: ServerHandler> Session<H> {
    /// A session of the server `shared` describes, with its own clone of the wrapped
    /// handler.
    pub(crate) fn new(shared: Arc<ServerState>, wrapped: H) -> Self {
        Session {
            shared,
            session: Arc::new(SessionState::default()),
            wrapped: Arc::new(wrapped),
        }
    }
}

/// `ServerHandler` methods that pass a request to the wrapped handler unchanged, its
/// reader resolved (see [`passed_on`]).
macro_rules! forward_requests {
    ($($method:ident($params:ty) -> $result:ty = $variant:ident($make:expr);)*) => {$(
        async fn $method(
            &self,
            request: $params,
            context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            let context = self.resolved(context).await;
            Box::pin(self.wrapped.$method(request, context)).await
        }
    )*};
}

/// `ServerHandler` methods that pass a notification to the wrapped handler unchanged:
/// `method(Params);`.
macro_rules! forward_notifications {
    ($($method:ident($params:ty);)*) => {$(
        async fn $method(&self, notification: $params, context: NotificationContext<RoleServer>) {
            Box::pin(self.wrapped.$method(notification, context)).await;
        }
    )*};
}

impl<H: ServerHandler> ServerHandler for Session<H> {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.wrapped.get_info();
        info.capabilities =
            merge_capabilities(info.capabilities, self.shared.listing.catalog.has_tasks());
        if let Some(server_info) = &self.shared.server_info {
            info.server_info = server_info.clone();
        }
        info.instructions = None;
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.wrapped.supported_protocol_versions()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // One handshake per session: a second `initialize` would silently swap the
        // client (and so the reader) without telling anyone.
        if self.session.is_initialized() {
            return Err(ErrorData::invalid_request(
                "this session is already initialized",
                None,
            ));
        }
        self.check_level(&context)?;
        context.peer.set_peer_info(request.clone());
        let deadline = self.deadline();
        let info = self
            .request_info(&mut context, Some(request.client_info.clone()), deadline)
            .await;
        let instructions = self.instructions(&info, deadline).await?;
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = instructions;
        self.session.mark_initialized();
        self.shared.subscribers.add_session(&context.peer);
        let held = HeldSession {
            shared: self.shared.clone(),
            session: Arc::downgrade(&self.session),
            wrapped: Arc::downgrade(&self.wrapped),
        };
        registration::register(&context, held, &request.capabilities);
        Ok(result)
    }

    async fn discover(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        self.check_level(&context)?;
        let deadline = self.deadline();
        let info = self.request_info(&mut context, None, deadline).await;
        let instructions = self.instructions(&info, deadline).await?;
        let mut result = DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        );
        result.instructions = instructions;
        Ok(result)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        mut context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.check_level(&context)?;
        let deadline = self.deadline();
        let info = self.request_info(&mut context, None, deadline).await;
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        #[cfg(feature = "index")]
        if let Some(surface) = self.index_for(&info)? {
            return self
                .list_index(surface, &info, context, cursor, deadline)
                .await;
        }
        let wrapped = self.wrapped_list(&mut context, &info).await?;
        list_tools(&self.shared.listing, &info, wrapped, cursor, deadline).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let deadline = self.deadline();
        let info = self.request_info(&mut context, None, deadline).await;
        #[cfg(feature = "index")]
        {
            use crate::surface::index::{CALL_TOOL, SEARCH_TOOLS};
            let name: &str = &request.name;
            if (name == SEARCH_TOOLS || name == CALL_TOOL)
                && let Some(surface) = self.index_for(&info)?
            {
                if name == SEARCH_TOOLS {
                    let found = self
                        .search_tools(surface, &request, context, &info, deadline)
                        .await?;
                    return Ok(CallToolResponse::Complete(found));
                }
                let named = self
                    .named_call(request, &mut context, &info, deadline)
                    .await?;
                return self.call_by_name(named, context, info, deadline).await;
            }
        }
        self.call_by_name(request, context, info, deadline).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        match self.shared.listing.catalog.get(name) {
            // The schema's structure is the same for every reader; this one is cached.
            Some(entry) => Some(entry.render(&mcp_tailor_core::RenderCtx::default(), true)),
            None => self.wrapped.get_tool(name),
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = self
            .wrapped
            .accepted_subscription_filter(requested)
            .unwrap_or_default();
        if requested.tools_list_changed == Some(true) {
            accepted.tools_list_changed = Some(true);
        }
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _guard = (context.accepted().tools_list_changed == Some(true))
            .then(|| self.shared.subscribers.listen(context.sink().clone()));
        let wrapped_listens = self
            .wrapped
            .accepted_subscription_filter(context.requested())
            .is_some_and(|filter| filter != SubscriptionFilter::default());
        if wrapped_listens {
            Box::pin(self.wrapped.listen(context)).await
        } else {
            context.cancelled().await;
            Ok(())
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.set_log_level(request.level);
        if self.shared.wrapped.logging {
            let context = self.resolved(context).await;
            Box::pin(self.wrapped.set_level(request, context)).await
        } else {
            Ok(())
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if let Some(error) = malformed_standard_request(&request, &context) {
            return Err(error);
        }
        if request.method == SET_READER_METHOD {
            return set_reader(&self.session, request, &context).await;
        }
        let context = self.resolved(context).await;
        Box::pin(self.wrapped.on_custom_request(request, context)).await
    }

    // Everything below is the wrapped handler's, unchanged.

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        let context = self.resolved(context).await;
        Box::pin(self.wrapped.ping(context)).await
    }

    passed_on!(forward_requests);

    // `tasks/*`: the layer's tasks answered here, any other the wrapped handler's.

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        if self.owns_task(&request.task_id) {
            return self.shared.tasks.get(&request, &self.principal(&context));
        }
        let context = self.resolved(context).await;
        Box::pin(self.wrapped.get_task(request, context)).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.owns_task(&request.task_id) {
            let principal = self.principal(&context);
            return self.shared.tasks.update(request, &principal);
        }
        let context = self.resolved(context).await;
        Box::pin(self.wrapped.update_task(request, context)).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.owns_task(&request.task_id) {
            return self
                .shared
                .tasks
                .cancel(&request, &self.principal(&context));
        }
        let context = self.resolved(context).await;
        Box::pin(self.wrapped.cancel_task(request, context)).await
    }

    forward_notifications! {
        on_cancelled(CancelledNotificationParam);
        on_progress(ProgressNotificationParam);
        on_custom_notification(CustomNotification);
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        Box::pin(self.wrapped.on_initialized(context)).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        Box::pin(self.wrapped.on_roots_list_changed(context)).await;
    }
}
