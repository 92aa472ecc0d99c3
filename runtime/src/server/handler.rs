//! A built server and the `rmcp::ServerHandler` of each of its sessions: every request
//! resolves its `RequestInfo` (caller, client, reader), then lists, calls or answers the
//! handshake with the shared configuration.

use super::builder::Shared;
use super::callbacks::guarded;
use super::failure::{Failure, FailureKind, internal, report, unknown_tool};
use super::listing::{is_visible, list_tools};
use super::request::{Principal, Reader, RequestInfo};
use super::session::{CallContext, SessionState};
use crate::ToolDef;
use futures::FutureExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, DiscoverResult,
    ErrorCode, Implementation, InitializeRequestParams, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use tokio::time::Instant;

/// The custom request a session sends to change its own reader:
/// `{"runner"?: string, "model"?: string, "verbosity"?: 0..=9}`.
pub const SET_READER_METHOD: &str = "mcp-tailor/setReader";

/// A built server. Cheap to clone; each connection or HTTP session gets its own
/// [`TailorSession`] from [`TailorServer::session`].
#[derive(Clone)]
pub struct TailorServer {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for TailorServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TailorServer")
            .field("name", &self.shared.server_info.name)
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

impl TailorServer {
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        TailorServer { shared }
    }

    /// The `tools/list` result a request described by `info` gets (its `reader` is resolved
    /// here, from its client name, headers and `_meta`), without a transport: for tests,
    /// prerendering and benchmarks. `info.principal` is used as given.
    pub async fn list_tools_for(
        &self,
        info: RequestInfo,
        cursor: Option<&str>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = Instant::now() + self.shared.deadline;
        let info = resolve_reader(&self.shared, info, None, deadline).await;
        list_tools(&self.shared, &info, cursor, deadline).await
    }

    /// A fresh session: the `rmcp::ServerHandler` of one connection.
    pub fn session(&self) -> TailorSession {
        TailorSession {
            shared: self.shared.clone(),
            session: Arc::new(SessionState::default()),
        }
    }

    /// The server's default verbosity.
    pub fn default_verbosity(&self) -> u8 {
        self.shared.default_verbosity
    }

    /// The registered tools' definitions, in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &'static ToolDef> + '_ {
        self.shared.catalog.entries().iter().map(|e| e.def())
    }
}

/// One session of a [`TailorServer`]: implements `rmcp::ServerHandler`.
#[derive(Clone)]
pub struct TailorSession {
    shared: Arc<Shared>,
    session: Arc<SessionState>,
}

impl TailorSession {
    /// Everything the server knows about this request, with the reader resolved (and the
    /// host context callback applied, under the deadline).
    async fn request_info(
        &self,
        context: &RequestContext<RoleServer>,
        client: Option<Implementation>,
        deadline: Instant,
    ) -> Arc<RequestInfo> {
        let shared = &self.shared;
        let parts = context.extensions.get::<http::request::Parts>();
        let client = client.or_else(|| context.client_info());
        let info = RequestInfo {
            protocol_version: context.protocol_version().map(|v| v.as_str().to_owned()),
            client_name: client.as_ref().map(|c| c.name.clone()),
            client_version: client.as_ref().map(|c| c.version.clone()),
            meta: context.meta.0.0.clone(),
            headers: parts.map(|p| p.headers.clone()).unwrap_or_default(),
            principal: parts
                .and_then(|p| p.extensions.get::<Principal>().cloned())
                .unwrap_or_else(|| shared.default_principal.clone()),
            reader: Reader::default(),
            fallback_verbosity: shared.default_verbosity,
        };
        resolve_reader(shared, info, self.session.reader().as_ref(), deadline).await
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.shared.deadline
    }
}

impl ServerHandler for TailorSession {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(self.shared.server_info.clone())
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let deadline = self.deadline();
        let info = self
            .request_info(&context, Some(request.client_info.clone()), deadline)
            .await;
        let instructions = self
            .shared
            .instructions
            .resolve(&info, deadline, self.shared.reporter.as_ref())
            .await?;
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = instructions;
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let deadline = self.deadline();
        let info = self.request_info(&context, None, deadline).await;
        let instructions = self
            .shared
            .instructions
            .resolve(&info, deadline, self.shared.reporter.as_ref())
            .await?;
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
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let deadline = self.deadline();
        let info = self.request_info(&context, None, deadline).await;
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        list_tools(&self.shared, &info, cursor, deadline).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let deadline = self.deadline();
        let info = self.request_info(&context, None, deadline).await;
        let shared = &self.shared;
        // Eligibility is checked here on its own; presented descriptors play no part.
        let entry = shared
            .catalog
            .get(&request.name)
            .ok_or_else(|| unknown_tool(&request.name))?;
        if !is_visible(shared, entry, &info, deadline).await {
            return Err(unknown_tool(&request.name));
        }
        let call = CallContext::new(info, self.session.clone(), context.peer.clone());
        let arguments = request.arguments.unwrap_or_default();
        match AssertUnwindSafe(entry.call(arguments, call))
            .catch_unwind()
            .await
        {
            Ok(result) => result.map(CallToolResponse::from),
            Err(_) => {
                report(
                    shared.reporter.as_ref(),
                    Failure {
                        kind: FailureKind::Handler,
                        cause: "the tool handler panicked".into(),
                        tool: Some(request.name.to_string()),
                    },
                );
                Err(internal("tool_handler_failure"))
            }
        }
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != SET_READER_METHOD {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
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
        let reader = self.session.patch_reader(&patch, &context.peer).await;
        Ok(CustomResult::new(json!({
            "runner": reader.runner,
            "model": reader.model,
            "verbosity": reader.verbosity,
        })))
    }
}
