//! What the upstream sends, read in the order it was sent: each progress notification of a
//! forwarded request is routed to that request's own queue as it is read, before the
//! request's result is (rmcp runs every notification handler on a task of its own, so a
//! handler may still be sending a progress notification when the result is already back:
//! the last one was lost, or came after the result).

use rmcp::model::{ProgressNotificationParam, ProgressToken, ServerNotification};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc;

/// The progress of a request in flight upstream, in the order the upstream sent it.
pub(super) type ProgressQueue = mpsc::UnboundedReceiver<ProgressNotificationParam>;

/// Where each request in flight upstream wants its progress: the gateway's token → its queue.
#[derive(Clone, Default)]
pub(super) struct ProgressRoutes(Arc<Mutex<HashMap<ProgressToken, Route>>>);

type Route = mpsc::UnboundedSender<ProgressNotificationParam>;

impl ProgressRoutes {
    /// A queue for the progress the upstream sends on `token`, until [`untrack`](Self::untrack).
    pub(super) fn track(&self, token: ProgressToken) -> ProgressQueue {
        let (route, queue) = mpsc::unbounded_channel();
        self.routes().insert(token, route);
        queue
    }

    /// Stops routing progress on `token` (its queue keeps what was routed).
    pub(super) fn untrack(&self, token: &ProgressToken) {
        self.routes().remove(token);
    }

    fn routes(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, Route>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Routes `message` when it is progress on a tracked token (`None`); else gives it back.
    fn route(&self, message: RxJsonRpcMessage<RoleClient>) -> Option<RxJsonRpcMessage<RoleClient>> {
        let rmcp::model::JsonRpcMessage::Notification(notification) = &message else {
            return Some(message);
        };
        let ServerNotification::ProgressNotification(progress) = &notification.notification else {
            return Some(message);
        };
        let routes = self.routes();
        match routes.get(&progress.params.progress_token) {
            Some(route) => {
                // A queue whose request already ended drops it, as the client would.
                let _ = route.send(progress.params.clone());
                None
            }
            None => Some(message),
        }
    }
}

/// An upstream transport whose progress notifications go to their requests' queues as they
/// are read; everything else is read by rmcp as it came.
pub(super) struct Inbound<T> {
    inner: T,
    progress: ProgressRoutes,
}

impl<T> Inbound<T> {
    pub(super) fn new(inner: T, progress: ProgressRoutes) -> Self {
        Inbound { inner, progress }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Inbound<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let message = self.inner.receive().await?;
            if let Some(message) = self.progress.route(message) {
                return Some(message);
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
