//! The upstream connection's client side: what the upstream sends is relayed to the
//! downstream clients (`downstream` says which) — its requests (sampling, elicitation,
//! roots), logging, resource updates and list changes; a tool list change also forgets the
//! connection's listing. (Progress goes with its request: `inbound`.)
#![allow(deprecated)] // rmcp marks sampling, roots and logging deprecated (SEP-2577); a proxy relays them still.

pub(crate) mod changes;
pub(crate) mod downstream;
pub(crate) mod upstream_tools;

use rmcp::model::{
    ClientConfig, ClientResult, CreateMessageRequest, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequest, ElicitRequestParams, ElicitResult, ListRootsRequest,
    ListRootsResult, LoggingMessageNotificationParam, ResourceUpdatedNotificationParam,
    ServerNotification, ServerRequest,
};
use rmcp::service::{
    NotificationContext, OriginatingRequestId, RequestContext, RoleClient, ServiceError,
};
use rmcp::{ClientHandler, ErrorData};
use std::sync::Arc;

use crate::relay::downstream::{Asked, Downstream};
use crate::relay::upstream_tools::ListingCache;

/// The client handler of one upstream connection.
#[derive(Clone)]
pub(crate) struct Relay {
    info: ClientConfig,
    /// Who its requests and notifications go to.
    downstream: Arc<Downstream>,
    /// Its listing, forgotten when the upstream says its tools changed.
    listing: Arc<ListingCache>,
}

impl Relay {
    pub(crate) fn new(info: ClientConfig) -> Self {
        Relay {
            info,
            downstream: Arc::default(),
            listing: Arc::default(),
        }
    }

    /// Who this connection's requests and notifications go to.
    pub(crate) fn downstream(&self) -> &Downstream {
        &self.downstream
    }

    /// This connection's listing.
    pub(crate) fn listing(&self) -> &ListingCache {
        &self.listing
    }

    /// The client `info` this connection was opened as.
    pub(crate) fn info(&self) -> &ClientConfig {
        &self.info
    }
}

impl Relay {
    /// Who an upstream request goes to; marks `extensions` with the session's request it
    /// came during, so streamable HTTP carries it on that request's stream.
    fn ask(
        &self,
        context: &RequestContext<RoleClient>,
        extensions: &mut rmcp::model::Extensions,
    ) -> Result<Asked, ErrorData> {
        let asked = self.downstream.asked(context)?;
        if let Some(during) = &asked.during {
            extensions.insert(OriginatingRequestId(during.clone()));
        }
        Ok(asked)
    }
}

/// Sends `request` to the session `asked` names; its answer, or its error unchanged. On a
/// task of its own: rmcp marks a request sent from a handler as sent during the request
/// that handler serves — here the upstream's, an id the session never saw — over the mark
/// `ask` set.
async fn send(asked: Asked, request: ServerRequest) -> Result<ClientResult, ErrorData> {
    let answer = tokio::spawn(async move { asked.peer.send_request(request).await }).await;
    relayed(answer.unwrap_or_else(|_| Err(ServiceError::TransportClosed)))
}

/// A client's answer of another kind than asked.
fn unexpected(result: &ClientResult) -> ErrorData {
    ErrorData::internal_error(
        format!("the client answered with another result: {result:?}"),
        None,
    )
}

/// Sends a notification to every session that hears this connection.
macro_rules! tell {
    ($relay:expr, |$peer:ident| $send:expr) => {
        tell!($relay, listeners, |$peer| $send)
    };
    ($relay:expr, $who:ident, |$peer:ident| $send:expr) => {
        for $peer in $relay.downstream.$who() {
            let _ = $send.await;
        }
    };
}

impl Relay {
    /// A 2026-07-28 upstream's list change (heard on a subscription), as its notification
    /// to this connection is (`on_tool_list_changed`): a tool change forgets the listing;
    /// the bridged 2025 sessions of this connection are told, as a 2025 server tells them.
    pub(crate) async fn changed(&self, change: &ServerNotification) {
        match change {
            ServerNotification::ToolListChangedNotification(_) => {
                self.listing.clear();
                tell!(self, bridged, |peer| peer.notify_tool_list_changed());
            }
            ServerNotification::PromptListChangedNotification(_) => {
                tell!(self, bridged, |peer| peer.notify_prompt_list_changed());
            }
            ServerNotification::ResourceListChangedNotification(_) => {
                tell!(self, bridged, |peer| peer.notify_resource_list_changed());
            }
            _ => {}
        }
    }
}

/// The downstream's answer to a relayed request, its error unchanged.
fn relayed<T>(result: Result<T, ServiceError>) -> Result<T, ErrorData> {
    result.map_err(|error| match error {
        ServiceError::McpError(error) => error,
        other => ErrorData::internal_error(format!("the client did not answer: {other}"), None),
    })
}

impl ClientHandler for Relay {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let mut request = CreateMessageRequest::new(params);
        let asked = self.ask(&context, &mut request.extensions)?;
        match send(asked, ServerRequest::CreateMessageRequest(request)).await? {
            ClientResult::CreateMessageResult(result) => Ok(*result),
            other => Err(unexpected(&other)),
        }
    }

    async fn list_roots(
        &self,
        context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let mut request = ListRootsRequest {
            method: Default::default(),
            extensions: Default::default(),
        };
        let asked = self.ask(&context, &mut request.extensions)?;
        match send(asked, ServerRequest::ListRootsRequest(request)).await? {
            ClientResult::ListRootsResult(result) => Ok(result),
            other => Err(unexpected(&other)),
        }
    }

    async fn create_elicitation(
        &self,
        params: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let mut request = ElicitRequest::new(params);
        let asked = self.ask(&context, &mut request.extensions)?;
        match send(asked, ServerRequest::ElicitRequest(request)).await? {
            ClientResult::ElicitResult(result) => Ok(result),
            other => Err(unexpected(&other)),
        }
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        tell!(self, |peer| peer.notify_logging_message(params.clone()));
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        tell!(self, |peer| peer.notify_resource_updated(params.clone()));
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        tell!(self, |peer| peer.notify_resource_list_changed());
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.listing.clear();
        tell!(self, |peer| peer.notify_tool_list_changed());
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        tell!(self, |peer| peer.notify_prompt_list_changed());
    }
}
