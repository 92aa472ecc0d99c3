//! Per-session state (the reader a session chose for itself, its logging level) and what a
//! tool handler gets besides its arguments: the request, progress, logging, cancellation,
//! requests to the client, and the 2026-07-28 input responses.
#![allow(deprecated)] // rmcp marks logging, sampling and roots deprecated (SEP-2577).

use crate::call::subscriptions::Subscribers;
use crate::call::tasks::{TaskSlot, not_a_task};
use crate::failure::no_session;
use crate::request::era::Era;
use crate::request::info::RequestInfo;
use crate::request::reader::Reader;
use mcp_tailor_core::seam::Locked;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequestParams, ElicitResult, InputRequest, InputResponses, LoggingLevel,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken, ProtocolVersion,
    RequestMetaObject,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServiceError};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// The state of one MCP session (one stdio connection, one HTTP session).
#[derive(Debug, Default)]
pub(crate) struct SessionState {
    reader: Mutex<Option<Reader>>,
    /// The level set with `logging/setLevel`, if any.
    log_level: Mutex<Option<LoggingLevel>>,
    /// Whether an `initialize` succeeded on this session.
    initialized: std::sync::atomic::AtomicBool,
    /// The tools `search_tools` found in this session, listed natively on the index
    /// surface when it loads what it finds.
    found: Mutex<std::collections::BTreeSet<String>>,
    /// The surface the session chose with `setReader`, by name, if any.
    surface: Mutex<Option<String>>,
}

impl SessionState {
    /// The surface the session chose, if any.
    #[cfg_attr(not(feature = "index"), allow(dead_code))]
    pub(crate) fn surface(&self) -> Option<String> {
        self.surface.locked().clone()
    }

    /// Sets the surface the session chose.
    #[cfg_attr(not(feature = "index"), allow(dead_code))]
    pub(crate) fn set_surface(&self, surface: String) {
        *self.surface.locked() = Some(surface);
    }

    /// The tools found in this session so far.
    #[cfg_attr(not(feature = "index"), allow(dead_code))]
    pub(crate) fn found(&self) -> std::collections::BTreeSet<String> {
        self.found.locked().clone()
    }

    /// Adds `names` to the tools found; whether any was new.
    #[cfg_attr(not(feature = "index"), allow(dead_code))]
    pub(crate) fn add_found<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> bool {
        let mut found = self.found.locked();
        let before = found.len();
        found.extend(names.into_iter().map(str::to_owned));
        found.len() > before
    }

    /// The reader the session chose, if any.
    pub(crate) fn reader(&self) -> Option<Reader> {
        self.reader.locked().clone()
    }

    /// Changes the fields of the session's reader that `patch` sets, tells the client its
    /// tool list changed, and returns the session's new reader.
    pub(crate) async fn patch_reader(&self, patch: &Reader, peer: &Peer<RoleServer>) -> Reader {
        let reader = {
            let mut current = self.reader.locked();
            let reader = current.take().unwrap_or_default().patched(patch);
            *current = Some(reader.clone());
            reader
        };
        if let Err(error) = peer.notify_tool_list_changed().await {
            tracing::debug!(%error, "could not send tools/list_changed");
        }
        reader
    }

    /// Whether an `initialize` succeeded on this session.
    pub(crate) fn is_initialized(&self) -> bool {
        self.initialized.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Records a successful `initialize`.
    pub(crate) fn mark_initialized(&self) {
        self.initialized
            .store(true, std::sync::atomic::Ordering::Release);
    }

    /// Records the session's `logging/setLevel`.
    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        *self.log_level.locked() = Some(level);
    }

    fn log_level(&self) -> Option<LoggingLevel> {
        *self.log_level.locked()
    }
}

/// Marks a request's context as a direct one's (streamable HTTP, `direct`):
/// its answer is on no event stream of rmcp's, so nothing sent during it can name it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DirectRequest;

/// Whether `context` is a direct request's: what is sent during it names no request.
pub fn is_direct(context: &RequestContext<RoleServer>) -> bool {
    context.extensions.get::<DirectRequest>().is_some()
}

/// Whether a request belongs to a session (`initialize`) rather than the stateless
/// 2026-07-28 revision, where every request stands alone.
pub fn has_session(context: &RequestContext<RoleServer>) -> bool {
    let protocol = context.protocol_version();
    session_bound(
        &context.peer,
        protocol.as_ref().map(ProtocolVersion::as_str),
    )
}

/// Whether `peer` went through `initialize` and `protocol` (the request's revision) is one
/// with sessions.
fn session_bound(peer: &Peer<RoleServer>, protocol: Option<&str>) -> bool {
    peer.peer_info().is_some() && !Era::of(protocol).is_stateless()
}

/// What a tool handler gets besides its arguments.
pub struct CallContext {
    request: Arc<RequestInfo>,
    session: Arc<SessionState>,
    /// Who hears `tools/list_changed`.
    subscribers: Arc<Subscribers>,
    /// The logger name of `notifications/message`: the server's name.
    logger: Arc<str>,
    context: RequestContext<RoleServer>,
    input_responses: Option<InputResponses>,
    request_state: Option<String>,
    /// The request's `_meta` as rmcp's type, built only if a handler asks for it.
    meta: std::sync::OnceLock<RequestMetaObject>,
    /// Fires when the client cancels the call (or, for a task, the task).
    cancel: CancellationToken,
    /// The task this call may become, for a tool with task support and a client that
    /// declared the extension.
    task: Option<TaskSlot>,
}

impl std::fmt::Debug for CallContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

/// How a message's level compares: `debug` is the lowest, `emergency` the highest.
fn rank(level: LoggingLevel) -> u8 {
    level as u8
}

impl CallContext {
    /// The context of one `tools/call`; the call's input responses and request state are
    /// taken out of `call`.
    pub(crate) fn new(
        request: Arc<RequestInfo>,
        session: Arc<SessionState>,
        subscribers: Arc<Subscribers>,
        logger: Arc<str>,
        context: RequestContext<RoleServer>,
        call: &mut CallToolRequestParams,
    ) -> Self {
        CallContext {
            request,
            session,
            subscribers,
            logger,
            cancel: context.ct.clone(),
            task: None,
            context,
            input_responses: call.input_responses.take(),
            request_state: call.request_state.take(),
            meta: std::sync::OnceLock::new(),
        }
    }

    /// This call may become a task: its context reaches the handler through `slot`, and
    /// the slot's cancellation (fired by `tasks/cancel`) replaces the request's, which
    /// ends with the request.
    pub(crate) fn for_task(mut self, slot: TaskSlot) -> Self {
        self.cancel = slot.cancel.clone();
        self.task = Some(slot);
        self
    }

    fn session_bound(&self) -> bool {
        session_bound(&self.context.peer, self.request.protocol_version.as_deref())
    }

    /// The request: caller, client, `_meta`, headers, reader.
    pub fn request(&self) -> &RequestInfo {
        &self.request
    }

    /// The peer, to send notifications or requests to the client.
    pub fn peer(&self) -> &Peer<RoleServer> {
        &self.context.peer
    }

    /// The rmcp request context, for anything this type does not wrap. Its `_meta` and
    /// HTTP headers have moved to [`request`](Self::request) (shared, not copied);
    /// [`meta`](Self::meta) gives `_meta` as rmcp's type.
    pub fn rmcp_context(&self) -> &RequestContext<RoleServer> {
        &self.context
    }

    /// The request's `_meta`, as rmcp's type (built on the first call).
    pub fn meta(&self) -> &RequestMetaObject {
        self.meta
            .get_or_init(|| RequestMetaObject::from((*self.request.meta).clone()))
    }

    /// The client's capabilities (the request's own on 2026-07-28, else the session's).
    pub fn client_capabilities(&self) -> Option<ClientCapabilities> {
        self.request
            .meta_value("io.modelcontextprotocol/clientCapabilities")
            .or_else(|| {
                self.session_bound()
                    .then(|| self.context.peer.peer_info())
                    .flatten()
                    .map(|info| info.capabilities.clone())
            })
    }

    /// Changes the reader of this session (only the fields it sets) and sends
    /// `notifications/tools/list_changed`. A 2026-07-28 request has no session: that is
    /// an error, and the reader belongs in each request's `_meta` instead.
    pub async fn set_session_reader(&self, reader: Reader) -> Result<Reader, ErrorData> {
        if !self.session_bound() {
            return Err(no_session());
        }
        reader.check_bounds()?;
        Ok(self.session.patch_reader(&reader, self.peer()).await)
    }

    /// Tells every listener of this server — 2026-07-28 `subscriptions/listen` streams and
    /// session-bound clients — that the tool list changed.
    pub async fn notify_tool_list_changed(&self) {
        self.subscribers.tools_changed().await;
    }

    /// The request's `progressToken`, if the client asked for progress.
    pub fn progress_token(&self) -> Option<ProgressToken> {
        self.request.meta_value("progressToken")
    }

    /// Reports progress (`notifications/progress`) when the client asked for it; returns
    /// whether a notification was sent.
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) -> bool {
        let Some(token) = self.progress_token() else {
            return false;
        };
        let mut params = ProgressNotificationParam::new(token, progress);
        if let Some(total) = total {
            params = params.with_total(total);
        }
        if let Some(message) = message {
            params = params.with_message(message);
        }
        self.peer().notify_progress(params).await.is_ok()
    }

    /// The lowest level the client wants to hear: the request's own `logLevel`
    /// (2026-07-28), else the session's `logging/setLevel`. A 2026-07-28 request that
    /// names none wants no log messages; a session that set none hears every level.
    pub fn log_level(&self) -> Option<LoggingLevel> {
        match self.request.meta_value("io.modelcontextprotocol/logLevel") {
            Some(level) => Some(level),
            None if self.session_bound() => {
                Some(self.session.log_level().unwrap_or(LoggingLevel::Debug))
            }
            None => None,
        }
    }

    /// Sends a log message (`notifications/message`, logger: the server's name) if the
    /// client wants to hear `level`; returns whether it was sent.
    pub async fn log(&self, level: LoggingLevel, data: impl Into<serde_json::Value>) -> bool {
        match self.log_level() {
            Some(threshold) if rank(level) >= rank(threshold) => {
                let params = LoggingMessageNotificationParam::new(level, data.into())
                    .with_logger(&*self.logger);
                self.peer().notify_logging_message(params).await.is_ok()
            }
            _ => false,
        }
    }

    /// Whether the client cancelled this call (`notifications/cancelled`; for a call
    /// running as a task, `tasks/cancel`).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Resolves when the client cancels this call (for a task: `tasks/cancel`).
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await;
    }

    /// The call's cancellation token (cancelled on `notifications/cancelled`; for a task,
    /// on `tasks/cancel`).
    pub fn cancellation_token(&self) -> CancellationToken {
        self.cancel.clone()
    }

    /// Whether this call may run as a task: the tool has task support and the client
    /// declared the tasks extension.
    pub fn is_task(&self) -> bool {
        self.task.is_some()
    }

    /// The id of the task this call became; waits until it is one (at the handler's first
    /// wait), so a handler that needs the id becomes a task by asking. `None` when the
    /// call cannot run as a task.
    pub async fn task_id(&self) -> Option<String> {
        self.task.as_ref()?.task_id().await
    }

    /// Asks the client for input in a task (elicitation, sampling, roots): the task
    /// reports `input_required` with `request` under `key` (unique within the task) until
    /// the client answers with `tasks/update`; the answer. Asking makes the call a task.
    /// An error when the call cannot run as a task (see [`is_task`](Self::is_task)),
    /// or when the task is cancelled while waiting.
    pub async fn task_input(
        &self,
        key: impl Into<String>,
        request: InputRequest,
    ) -> Result<serde_json::Value, ErrorData> {
        match &self.task {
            Some(slot) => slot.input(key.into(), request).await,
            None => Err(not_a_task()),
        }
    }

    /// Sets the task's `statusMessage`, shown by `tasks/get` (set before the call becomes
    /// a task, it is the task's first); `false` when the call cannot run as a task.
    pub fn set_task_status(&self, message: impl Into<String>) -> bool {
        match &self.task {
            Some(slot) => {
                slot.set_status(message.into());
                true
            }
            None => false,
        }
    }

    /// Asks the client's model for a message (`sampling/createMessage`; session-bound
    /// revisions only — on 2026-07-28 return an `InputRequiredResult` instead).
    pub async fn sample(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ServiceError> {
        self.peer().create_message(params).await
    }

    /// Asks the user for input (`elicitation/create`; session-bound revisions only — on
    /// 2026-07-28 return an `InputRequiredResult` instead).
    pub async fn elicit(&self, params: ElicitRequestParams) -> Result<ElicitResult, ServiceError> {
        self.peer().create_elicitation(params).await
    }

    /// The client's answers to an earlier `InputRequiredResult` (2026-07-28), by key.
    pub fn input_responses(&self) -> Option<&InputResponses> {
        self.input_responses.as_ref()
    }

    /// The `requestState` the client echoed back from an earlier `InputRequiredResult`.
    /// Untrusted input: verify it (rmcp's `RequestStateCodec` seals and opens it).
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}
