//! A built server and the `rmcp::ServerHandler` of each of its sessions. The layer owns
//! the handshake (instructions), `tools/list`, `tools/call` of registered tools, the
//! session's reader and logging level, and `subscriptions/listen` for tool changes; every
//! other request and notification goes to the wrapped handler unchanged.
#![allow(deprecated)] // rmcp marks logging, resource subscriptions and roots deprecated.

use super::callbacks::guarded;
use super::failure::{
    Failure, FailureKind, TOOL_HANDLER_FAILURE, internal, no_session, report, unknown_tool,
};
use super::inner::{NoHandler, inner_tools, merge_capabilities};
use super::listing::{inner_is_visible, is_visible, list_tools};
use super::request::{Reader, ReaderScope, RequestInfo};
use super::session::{CallContext, SessionState, has_session};
use super::shared::Shared;
use crate::ToolDef;
use futures::FutureExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    DiscoverResult, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams,
    GetSkillResult, GetTaskParams, GetTaskResult, Implementation, InitializeRequestParams,
    InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListSkillsResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProtocolVersion, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use tokio::time::Instant;

/// The custom request a session sends to change its own reader:
/// `{"runner"?: string, "model"?: string, "verbosity"?: 0..=9}`.
pub const SET_READER_METHOD: &str = "mcp-tailor/setReader";

/// The client requests of MCP: one of them reaching `on_custom_request` had params rmcp
/// could not parse.
const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
];

/// The requests 2026-07-28 removed: on such a request they are unknown methods (`-32601`),
/// not malformed ones.
const REMOVED_IN_2026_07_28: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A built server, wrapping the rmcp handler `H` (none by default). Cheap to clone; each
/// connection or HTTP session gets its own [`TailorSession`] from [`TailorServer::session`].
#[derive(Clone)]
pub struct TailorServer<H = NoHandler> {
    shared: Arc<Shared>,
    inner: H,
}

impl<H> std::fmt::Debug for TailorServer<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TailorServer")
            .field("name", &self.shared.server_info.as_ref().map(|i| &i.name))
            .field("tools", &self.shared.catalog.entries().len())
            .finish_non_exhaustive()
    }
}

/// Resolves the reader of a request (client name, session, headers, `_meta`), then lets
/// the host context callback, if any, decide under the deadline.
async fn resolve_reader(
    shared: &Shared,
    mut info: RequestInfo,
    session: Option<&Reader>,
    deadline: Instant,
) -> Arc<RequestInfo> {
    info.reader = shared.reader_source.resolve(&info, session);
    info.fallback_verbosity = shared.default_verbosity;
    let info = Arc::new(info);
    let Some(callback) = &shared.context else {
        return info;
    };
    match guarded(deadline, || callback(info.clone())).await {
        Ok(reader) => {
            let mut updated = (*info).clone();
            updated.reader = reader;
            Arc::new(updated)
        }
        Err(failure) => {
            report(
                shared.reporter.as_ref(),
                Failure {
                    kind: FailureKind::Context,
                    cause: format!("the context callback {failure}; using the resolved reader"),
                    tool: None,
                },
            );
            info
        }
    }
}

impl<H: ServerHandler + Clone> TailorServer<H> {
    pub(crate) fn new(shared: Arc<Shared>, inner: H) -> Self {
        TailorServer { shared, inner }
    }

    /// The `tools/list` result a request described by `info` gets from the registered
    /// tools (its `reader` is resolved here, from its client name, headers and `_meta`),
    /// without a transport: for tests, prerendering and benchmarks. `info.principal` is
    /// used as given. The wrapped handler's tools need a request context, so they are not
    /// included.
    pub async fn list_tools_for(
        &self,
        info: RequestInfo,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = Instant::now() + self.shared.deadline;
        let info = resolve_reader(&self.shared, info, None, deadline).await;
        list_tools(&self.shared, &info, Vec::new(), cursor, deadline).await
    }

    /// The first `tools/list` page `reader` gets, as the caller `principal` on `protocol`:
    /// visibility, tailoring, presentation, paging and cache hints as on the wire, with the
    /// reader given rather than resolved (no context callback). For inspection tools.
    pub async fn list_tools_as(
        &self,
        reader: Reader,
        principal: super::Principal,
        protocol: &str,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = Instant::now() + self.shared.deadline;
        let info = Arc::new(RequestInfo {
            protocol_version: Some(protocol.to_owned()),
            principal,
            reader,
            fallback_verbosity: self.shared.default_verbosity,
            ..RequestInfo::default()
        });
        list_tools(&self.shared, &info, Vec::new(), cursor, deadline).await
    }

    /// A fresh session: the `rmcp::ServerHandler` of one connection, with its own clone of
    /// the wrapped handler.
    pub fn session(&self) -> TailorSession<H> {
        TailorSession {
            shared: self.shared.clone(),
            session: Arc::new(SessionState::default()),
            inner: self.inner.clone(),
        }
    }

    /// The limits of the streamable HTTP server.
    #[cfg(feature = "http")]
    pub fn http_config(&self) -> &super::HttpConfig {
        &self.shared.http
    }

    /// The server's default verbosity.
    pub fn default_verbosity(&self) -> u8 {
        self.shared.default_verbosity
    }

    /// The registered tools' definitions, in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        self.shared.catalog.entries().iter().map(|e| e.def())
    }

    /// The wrapped handler (the template each session clones).
    pub fn inner(&self) -> &H {
        &self.inner
    }

    /// Tells every client of this server that its tool list changed: 2026-07-28
    /// `subscriptions/listen` streams that asked for `toolsListChanged`, and session-bound
    /// clients. Call it when what a tool's visibility depends on changes.
    pub async fn notify_tool_list_changed(&self) {
        self.shared.subscribers.tools_changed().await;
    }

    /// The number of clients that would hear [`notify_tool_list_changed`](Self::notify_tool_list_changed).
    pub fn listeners(&self) -> usize {
        self.shared.subscribers.len()
    }
}

/// One session of a [`TailorServer`]: implements `rmcp::ServerHandler` in front of the
/// wrapped handler `H`.
#[derive(Clone)]
pub struct TailorSession<H = NoHandler> {
    shared: Arc<Shared>,
    session: Arc<SessionState>,
    inner: H,
}

impl<H: ServerHandler> TailorSession<H> {
    /// Everything the server knows about this request, with the reader resolved (and the
    /// host context callback applied, under the deadline).
    async fn request_info(
        &self,
        context: &mut RequestContext<RoleServer>,
        client: Option<Implementation>,
        deadline: Instant,
    ) -> Arc<RequestInfo> {
        let shared = &self.shared;
        let info = RequestInfo::take_from(
            context,
            client,
            shared.default_principal.clone(),
            shared.default_verbosity,
        );
        resolve_reader(shared, info, self.session.reader().as_ref(), deadline).await
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.shared.deadline
    }

    /// `context` with what [`Reader::from_request`] needs, for the wrapped handler.
    fn scoped(&self, mut context: RequestContext<RoleServer>) -> RequestContext<RoleServer> {
        context.extensions.insert(ReaderScope {
            source: self.shared.reader_source.clone(),
            session: self.session.reader(),
        });
        context
    }

    /// The server's instructions for this request: the layer's own, else the wrapped
    /// handler's static ones.
    async fn instructions(
        &self,
        info: &Arc<RequestInfo>,
        deadline: Instant,
    ) -> Result<Option<String>, ErrorData> {
        let fallback = self.inner.get_info().instructions;
        self.shared
            .instructions
            .resolve(info, deadline, self.shared.reporter.as_ref(), fallback)
            .await
    }

    async fn call_registered(
        &self,
        entry: &super::catalog::ToolEntry,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        info: Arc<RequestInfo>,
    ) -> Result<CallToolResponse, ErrorData> {
        let shared = &self.shared;
        let logger = shared.inner.logger.clone();
        let call = CallContext::new(
            info,
            self.session.clone(),
            self.shared.clone(),
            self.scoped(context),
            request.input_responses,
            request.request_state,
            logger,
        );
        let arguments = request.arguments.unwrap_or_default();
        match AssertUnwindSafe(entry.call(arguments, call))
            .catch_unwind()
            .await
        {
            Ok(result) => result,
            Err(_) => {
                report(
                    shared.reporter.as_ref(),
                    Failure {
                        kind: FailureKind::Handler,
                        cause: "the tool handler panicked".into(),
                        tool: Some(request.name.to_string()),
                    },
                );
                Err(internal(TOOL_HANDLER_FAILURE))
            }
        }
    }
}

impl<H: ServerHandler> ServerHandler for TailorSession<H> {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.inner.get_info();
        info.capabilities = merge_capabilities(info.capabilities);
        if let Some(server_info) = &self.shared.server_info {
            info.server_info = server_info.clone();
        }
        info.instructions = None;
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.inner.supported_protocol_versions()
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
        Ok(result)
    }

    async fn discover(
        &self,
        mut context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
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
        let deadline = self.deadline();
        let info = self.request_info(&mut context, None, deadline).await;
        let inner = if self.shared.inner.tools {
            info.restore(&mut context);
            inner_tools(
                &self.inner,
                &self.scoped(context),
                self.shared.reporter.as_ref(),
            )
            .await?
        } else {
            Vec::new()
        };
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        list_tools(&self.shared, &info, inner, cursor, deadline).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let deadline = self.deadline();
        let info = self.request_info(&mut context, None, deadline).await;
        let shared = &self.shared;
        // Eligibility is checked here on its own; presented descriptors play no part.
        if let Some(entry) = shared.catalog.get(&request.name) {
            if !is_visible(shared, entry, &info, deadline).await {
                return Err(unknown_tool(&request.name));
            }
            return self.call_registered(entry, request, context, info).await;
        }
        if !shared.inner.tools || !inner_is_visible(shared, &request.name, &info) {
            return Err(unknown_tool(&request.name));
        }
        info.restore(&mut context);
        self.inner.call_tool(request, self.scoped(context)).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        match self.shared.catalog.get(name) {
            // The schema's structure is the same for every reader.
            Some(entry) => Some(entry.def().tool(&crate::RenderCtx::default())),
            None => self.inner.get_tool(name),
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = self
            .inner
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
        let inner_listens = self
            .inner
            .accepted_subscription_filter(context.requested())
            .is_some_and(|filter| filter != SubscriptionFilter::default());
        if inner_listens {
            self.inner.listen(context).await
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
        if self.shared.inner.logging {
            self.inner.set_level(request, self.scoped(context)).await
        } else {
            Ok(())
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let removed =
            REMOVED_IN_2026_07_28.contains(&request.method.as_str()) && !has_session(&context);
        if MCP_METHODS.contains(&request.method.as_str()) && !removed {
            // rmcp hands a standard request whose params did not parse on as a custom one.
            return Err(ErrorData::invalid_params(
                format!("invalid params for `{}`", request.method),
                None,
            ));
        }
        if request.method != SET_READER_METHOD {
            return self
                .inner
                .on_custom_request(request, self.scoped(context))
                .await;
        }
        if !has_session(&context) {
            return Err(no_session());
        }
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Params {
            runner: Option<String>,
            model: Option<String>,
            verbosity: Option<u8>,
        }
        let params: Params = serde_json::from_value(request.params.unwrap_or_else(|| json!({})))
            .map_err(|e| ErrorData::invalid_params(format!("{SET_READER_METHOD}: {e}"), None))?;
        let patch = Reader {
            runner: params.runner,
            model: params.model,
            verbosity: params.verbosity.map(|l| l.min(crate::MAX_VERBOSITY)),
        };
        patch.check_bounds()?;
        let reader = self.session.patch_reader(&patch, &context.peer).await;
        Ok(CustomResult::new(json!({
            "runner": reader.runner,
            "model": reader.model,
            "verbosity": reader.verbosity,
        })))
    }

    // Everything below is the wrapped handler's, unchanged.

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.inner.ping(self.scoped(context)).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.inner.complete(request, self.scoped(context)).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.inner.get_prompt(request, self.scoped(context)).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.inner.list_prompts(request, self.scoped(context)).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.inner
            .list_resources(request, self.scoped(context))
            .await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.inner
            .list_resource_templates(request, self.scoped(context))
            .await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.inner
            .read_resource(request, self.scoped(context))
            .await
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.subscribe(request, self.scoped(context)).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.unsubscribe(request, self.scoped(context)).await
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.inner.get_task(request, self.scoped(context)).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.update_task(request, self.scoped(context)).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.cancel_task(request, self.scoped(context)).await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.inner.list_skills(request, self.scoped(context)).await
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.inner.get_skill(request, self.scoped(context)).await
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.inner
            .read_resource_directory(request, self.scoped(context))
            .await
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_cancelled(notification, context).await;
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner.on_progress(notification, context).await;
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_initialized(context).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.inner.on_roots_list_changed(context).await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.inner
            .on_custom_notification(notification, context)
            .await;
    }
}
