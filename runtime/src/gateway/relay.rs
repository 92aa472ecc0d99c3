//! The upstream connection's client side: what the upstream sends is relayed to the
//! downstream client — its requests (sampling, elicitation, roots), progress (the token
//! mapped back to the one the client gave), logging, resource updates and list changes.
#![allow(deprecated)] // rmcp marks sampling, roots and logging deprecated (SEP-2577); a proxy relays them still.

use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ListRootsResult, LoggingMessageNotificationParam, ProgressNotificationParam,
    ProgressToken, ResourceUpdatedNotificationParam,
};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleClient, RoleServer, ServiceError,
};
use rmcp::{ClientHandler, ErrorData};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// A request in flight upstream that asked for progress: where its progress goes.
struct Progress {
    token: ProgressToken,
    peer: Peer<RoleServer>,
}

/// The client handler of one upstream connection.
#[derive(Clone)]
pub(super) struct Relay {
    info: ClientConfig,
    /// The downstream session this connection serves (none for the shared connection).
    downstream: Option<Peer<RoleServer>>,
    /// Progress tokens of requests in flight: the gateway's token → the client's.
    progress: Arc<Mutex<HashMap<ProgressToken, Progress>>>,
}

impl Relay {
    pub(super) fn new(info: ClientConfig, downstream: Option<Peer<RoleServer>>) -> Self {
        Relay {
            info,
            downstream,
            progress: Arc::default(),
        }
    }

    /// Routes the upstream's progress on `ours` to `theirs` at `peer` until [`untrack`](Self::untrack).
    pub(super) fn track(&self, ours: ProgressToken, theirs: ProgressToken, peer: Peer<RoleServer>) {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(
                ours,
                Progress {
                    token: theirs,
                    peer,
                },
            );
    }

    /// Stops routing progress on `ours`.
    pub(super) fn untrack(&self, ours: &ProgressToken) {
        self.progress
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(ours);
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

    async fn on_progress(
        &self,
        mut params: ProgressNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let target = {
            let progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
            progress
                .get(&params.progress_token)
                .map(|p| (p.token.clone(), p.peer.clone()))
        };
        if let Some((token, peer)) = target {
            params.progress_token = token;
            let _ = peer.notify_progress(params).await;
        }
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
