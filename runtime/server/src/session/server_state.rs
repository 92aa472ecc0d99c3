//! What every session of one built server shares: the listing's inputs, the reader policy,
//! and the session runtime (instructions, deadline, who hears tool-list changes, tasks, what
//! the wrapped handler declared). Built by the builder, read by each session.

use crate::call::subscriptions::Subscribers;
use crate::call::tasks::TaskTable;
use crate::failure::Reporter;
use crate::instructions::InstructionsSource;
use crate::listing::list::ListingInputs;
use crate::request::policy::ReaderPolicy;
use rmcp::model::Implementation;
use std::sync::Arc;
use std::time::Duration;

/// Everything every session of one server shares.
pub(crate) struct ServerState {
    /// What `tools/list` (and the eligibility of `tools/call`) reads.
    pub(crate) listing: ListingInputs,
    /// Who reads a request.
    pub(crate) readers: ReaderPolicy,
    /// The name and version set on the builder; else the wrapped handler's.
    pub(crate) server_info: Option<Implementation>,
    pub(crate) instructions: InstructionsSource,
    pub(crate) deadline: Duration,
    pub(crate) reporter: Option<Reporter>,
    /// Who hears `tools/list_changed`.
    pub(crate) subscribers: Arc<Subscribers>,
    /// The tasks registered tools run as (none unless a tool has task support).
    pub(crate) tasks: TaskTable,
    /// What the wrapped handler declared at `build`, read on every request instead of
    /// asking it again.
    pub(crate) wrapped: WrappedFacts,
    /// The index surface, for the readers that get it.
    #[cfg(feature = "index")]
    pub(crate) index: Option<crate::surface::IndexSurface>,
    /// The limits of the streamable HTTP server.
    #[cfg(feature = "http")]
    pub(crate) http: crate::http_config::HttpConfig,
}

/// The wrapped handler's declarations the layer relies on, taken once at `build`.
#[derive(Clone, Debug)]
pub(crate) struct WrappedFacts {
    /// It serves tools of its own.
    pub(crate) tools: bool,
    /// It handles `logging/setLevel` itself.
    pub(crate) logging: bool,
    /// It runs tasks of its own (declares the tasks extension).
    pub(crate) tasks: bool,
    /// The logger name of `notifications/message`: the server's name.
    pub(crate) logger: Arc<str>,
}

#[cfg(feature = "index")]
impl ServerState {
    /// The index surface, when the reader of the request `info` describes gets it (in a
    /// session that chose `session`, the file in force read); `Err` when the request names
    /// a surface that is not one.
    pub(crate) fn index_for(
        &self,
        info: &crate::request::info::RequestInfo,
        session: Option<&str>,
    ) -> Result<Option<&crate::surface::IndexSurface>, rmcp::ErrorData> {
        let Some(surface) = &self.index else {
            return Ok(None);
        };
        let file = self.listing.file.get();
        let chosen = surface.surface_for(info, session, &file.file)?;
        Ok((chosen == crate::surface::Surface::Index).then_some(surface))
    }
}
