//! How a server decides who reads a request: the reader resolved from the client's name,
//! the session's choice, headers and `_meta`, then the host's context callback, under the
//! request's deadline. Done once per request; the result is what the listing renders for
//! and what [`Reader::from_request`] returns inside a wrapped handler.

use crate::callbacks::{BoxFuture, guarded};
use crate::failure::{FailureKind, Reporter, report};
use crate::request::info::{Principal, RequestInfo};
use crate::request::reader::{Reader, ReaderSource};
use std::sync::Arc;
use tokio::time::Instant;

/// The host's context callback: the reader a request gets, given what it carries.
pub(crate) type ContextFn = Arc<dyn Fn(Arc<RequestInfo>) -> BoxFuture<Reader> + Send + Sync>;

/// A server's reader policy, fixed at `build`.
pub(crate) struct ReaderPolicy {
    /// Aliases of client names, and which hints (headers, `_meta`) are read.
    pub(crate) source: Arc<ReaderSource>,
    /// The host's context callback, if any.
    pub(crate) context: Option<ContextFn>,
    /// The level of a reader that names none.
    pub(crate) fallback_verbosity: u8,
    /// The principal of a request that carries none.
    pub(crate) default_principal: Principal,
    pub(crate) reporter: Option<Reporter>,
}

impl ReaderPolicy {
    /// Resolves the reader of a request (client name, session, headers, `_meta`), then
    /// lets the host context callback, if any, decide under the deadline.
    pub(crate) async fn resolve(
        &self,
        mut info: RequestInfo,
        session: Option<&Reader>,
        deadline: Instant,
    ) -> Arc<RequestInfo> {
        info.reader = self.source.resolve(&info, session);
        info.fallback_verbosity = self.fallback_verbosity;
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
}
