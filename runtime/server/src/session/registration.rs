//! A session's handler registered with its transport as its `initialize` is answered: the
//! transport can then hand the session's requests to it itself (streamable HTTP's direct
//! requests, `server::direct`).

use futures::future::BoxFuture;
use rmcp::ErrorData;
use rmcp::model::{ClientCapabilities, ClientRequest, ServerResult};
use rmcp::service::{Peer, RequestContext, RoleServer};
use std::sync::{Arc, OnceLock};

/// A session's handler, as its transport calls it: held without keeping the session
/// (rmcp owns it, and ends it).
pub(crate) trait Handles: Send + Sync + 'static {
    /// Whether the session has ended (rmcp dropped it).
    fn ended(&self) -> bool;

    /// Answers `request` (rmcp's `Service::handle_request`); `None` once the session has
    /// ended.
    fn handle(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Option<BoxFuture<'static, Result<ServerResult, ErrorData>>>;
}

/// A registered session: its handler, its peer, and whether its client may be asked
/// something (it declared sampling, elicitation or roots).
#[derive(Clone)]
pub(crate) struct Registered {
    pub(crate) handler: Arc<dyn Handles>,
    pub(crate) peer: Peer<RoleServer>,
    pub(crate) askable: bool,
}

/// What an `initialize` carries (in its extensions) for the session's handler to fill.
#[derive(Clone, Default)]
pub(crate) struct Registration(Arc<OnceLock<Registered>>);

impl Registration {
    /// What the handler registered, if it did.
    pub(crate) fn registered(&self) -> Option<Registered> {
        self.0.get().cloned()
    }
}

/// Registers `handler` as the session of `context` is initialized, when its transport
/// asked for it; `capabilities` are its client's.
pub(crate) fn register(
    context: &RequestContext<RoleServer>,
    handler: impl Handles,
    capabilities: &ClientCapabilities,
) {
    let Some(registration) = context.extensions.get::<Registration>() else {
        return;
    };
    let askable = capabilities.sampling.is_some()
        || capabilities.elicitation.is_some()
        || capabilities.roots.is_some();
    let _ = registration.0.set(Registered {
        handler: Arc::new(handler),
        peer: context.peer.clone(),
        askable,
    });
}
