//! The immutable state every session of one built server shares (its subscribers aside,
//! which come and go). Built by the builder, read by the handler, the listing and calls.

use crate::ToolDef;
use crate::server::callbacks::{BoxFuture, guarded};
use crate::server::failure::{FailureKind, Reporter, report};
use crate::server::instructions::InstructionsSource;
use crate::server::listing::cursor::CursorSigner;
use crate::server::listing::presentation::PresentationFn;
use crate::server::registry::catalog::Catalog;
use crate::server::registry::file::FileTailoring;
use crate::server::request::info::{Principal, RequestInfo};
use crate::server::request::reader::{Reader, ReaderSource};
use crate::server::session::subscriptions::Subscribers;
use crate::server::session::tasks::Tasks;
use rmcp::model::Implementation;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

pub(crate) type ContextFn = Arc<dyn Fn(Arc<RequestInfo>) -> BoxFuture<Reader> + Send + Sync>;

/// Everything every session of one server shares.
pub(crate) struct Shared {
    pub(crate) catalog: Catalog,
    /// `#[mcp_tool]` definitions whose strings tailor the wrapped handler's tools of the
    /// same name.
    pub(crate) tailored: Vec<&'static ToolDef>,
    /// The tailoring file in force (empty without one).
    pub(crate) file: FileTailoring,
    /// The name and version set on the builder; else the wrapped handler's.
    pub(crate) server_info: Option<Implementation>,
    pub(crate) instructions: InstructionsSource,
    pub(crate) presentation: Option<PresentationFn>,
    pub(crate) context: Option<ContextFn>,
    pub(crate) reader_source: Arc<ReaderSource>,
    pub(crate) default_verbosity: u8,
    pub(crate) page_size: usize,
    pub(crate) cursor: CursorSigner,
    pub(crate) list_ttl: Option<Duration>,
    pub(crate) deadline: Duration,
    pub(crate) reporter: Option<Reporter>,
    pub(crate) default_principal: Principal,
    /// Whether a listing can differ between readers or requests beyond visibility: tailored
    /// tools, a context callback, a presentation callback, or an instructions provider.
    /// Fixed at `build`, so listings do not recompute it.
    pub(crate) dynamic: bool,
    /// Whether a tool's existence depends on the caller (scopes or `authorize`).
    pub(crate) gated: bool,
    /// Who hears `tools/list_changed`.
    pub(crate) subscribers: Arc<Subscribers>,
    /// The tasks registered tools run as (none unless a tool has task support).
    pub(crate) tasks: Tasks,
    /// What the wrapped handler declared at `build`, read on every request instead of
    /// asking it again.
    pub(crate) inner: InnerFacts,
    /// The limits of the streamable HTTP server.
    #[cfg(feature = "http")]
    pub(crate) http: crate::server::limits::HttpConfig,
}

/// The wrapped handler's declarations the layer relies on, taken once at `build`.
#[derive(Clone, Debug)]
pub(crate) struct InnerFacts {
    /// It serves tools of its own.
    pub(crate) tools: bool,
    /// It handles `logging/setLevel` itself.
    pub(crate) logging: bool,
    /// It runs tasks of its own (declares the tasks extension).
    pub(crate) tasks: bool,
    /// The logger name of `notifications/message`: the server's name.
    pub(crate) logger: Arc<str>,
}

impl Shared {
    /// Resolves the reader of a request (client name, session, headers, `_meta`), then
    /// lets the host context callback, if any, decide under the deadline.
    pub(crate) async fn resolve_reader(
        &self,
        mut info: RequestInfo,
        session: Option<&Reader>,
        deadline: Instant,
    ) -> Arc<RequestInfo> {
        info.reader = self.reader_source.resolve(&info, session);
        info.fallback_verbosity = self.default_verbosity;
        let info = Arc::new(info);
        let Some(callback) = &self.context else {
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
                    self.reporter.as_ref(),
                    FailureKind::Context,
                    format!("the context callback {failure}; using the resolved reader"),
                    None,
                );
                info
            }
        }
    }

    /// The tailoring attached to the wrapped handler's tool `name`, if any.
    pub(crate) fn tailoring(&self, name: &str) -> Option<&'static ToolDef> {
        self.tailored.iter().copied().find(|d| d.name() == name)
    }
}
