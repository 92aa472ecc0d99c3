//! The upstream connection's client side: what the upstream sends is relayed to the
//! downstream client — its requests (sampling, elicitation, roots), logging, resource
//! updates and list changes. (Progress goes with its request: `inbound`.)
#![allow(deprecated)] // rmcp marks sampling, roots and logging deprecated (SEP-2577); a proxy relays them still.

use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ListRootsResult, LoggingMessageNotificationParam,
    ResourceUpdatedNotificationParam,
};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleClient, RoleServer, ServiceError,
};
use rmcp::{ClientHandler, ErrorData};

/// The client handler of one upstream connection.
#[derive(Clone)]
pub(super) struct Relay {
    info: ClientConfig,
    /// The downstream session this connection serves (none for the shared connection).
    downstream: Option<Peer<RoleServer>>,
}

impl Relay {
    pub(super) fn new(info: ClientConfig, downstream: Option<Peer<RoleServer>>) -> Self {
        Relay { info, downstream }
    }

    fn downstream(&self) -> Result<&Peer<RoleServer>, ErrorData> {
        self.downstream.as_ref().ok_or_else(|| {
            ErrorData::invalid_request(
                "no client session to ask: the request came over the gateway's stateless connection",
                None,
            )
        })
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
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        relayed(self.downstream()?.create_message(params).await)
    }

    async fn list_roots(
        &self,
        _: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        relayed(self.downstream()?.list_roots().await)
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        relayed(self.downstream()?.create_elicitation(request).await)
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        if let Some(peer) = &self.downstream {
            let _ = peer.notify_logging_message(params).await;
        }
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        if let Some(peer) = &self.downstream {
            let _ = peer.notify_resource_updated(params).await;
        }
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        if let Some(peer) = &self.downstream {
            let _ = peer.notify_resource_list_changed().await;
        }
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        if let Some(peer) = &self.downstream {
            let _ = peer.notify_tool_list_changed().await;
        }
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        if let Some(peer) = &self.downstream {
            let _ = peer.notify_prompt_list_changed().await;
        }
    }
}
