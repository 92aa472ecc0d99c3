//! What the upstream sends, read in the order it was sent: each progress notification of a
//! forwarded request is routed to that request's own queue as it is read, before the
//! request's result is (rmcp runs every notification handler on a task of its own, so a
//! handler may still be sending a progress notification when the result is already back:
//! the last one was lost, or came after the result).

use crate::upstream::verbatim::notifications;
use crate::upstream::verbatim::store::Verbatim;
use mcp_tailor_core::seam::Locked;
use rmcp::model::{ProgressNotificationParam, ProgressToken, ServerNotification};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The progress of a request in flight upstream, in the order the upstream sent it.
pub(crate) type ProgressQueue = mpsc::UnboundedReceiver<ProgressNotificationParam>;

/// Where each request in flight upstream wants its progress: the gateway's token → its queue.
#[derive(Clone, Default)]
pub(crate) struct ProgressRoutes(Arc<Mutex<Routes>>);

type Route = mpsc::UnboundedSender<ProgressNotificationParam>;

/// How much progress on tokens no request tracks (yet) is kept.
const UNCLAIMED: usize = 256;

#[derive(Default)]
struct Routes {
    by_token: HashMap<ProgressToken, Route>,
    /// Progress read before its request was tracked (rmcp names a request's token only once
    /// it is sent, and a quick upstream answers first), oldest first.
    unclaimed: VecDeque<ProgressNotificationParam>,
}

impl ProgressRoutes {
    /// A queue for the progress the upstream sends on `token`, until [`untrack`](Self::untrack);
    /// what it already sent is in it.
    pub(crate) fn track(&self, token: ProgressToken) -> ProgressQueue {
        let (route, queue) = mpsc::unbounded_channel();
        let mut routes = self.routes();
        let unclaimed = std::mem::take(&mut routes.unclaimed);
        let (early, others): (VecDeque<_>, VecDeque<_>) = unclaimed
            .into_iter()
            .partition(|p| p.progress_token == token);
        routes.unclaimed = others;
        for progress in early {
            let _ = route.send(progress);
        }
        routes.by_token.insert(token, route);
        queue
    }

    /// Stops routing progress on `token` (its queue keeps what was routed).
    pub(crate) fn untrack(&self, token: &ProgressToken) {
        self.routes().by_token.remove(token);
    }

    fn routes(&self) -> std::sync::MutexGuard<'_, Routes> {
        self.0.locked()
    }

    /// Routes `message` when it is progress (`None`): to its request's queue, or kept until
    /// its request is tracked; else gives it back.
    pub(crate) fn route(
        &self,
        message: RxJsonRpcMessage<RoleClient>,
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        let rmcp::model::JsonRpcMessage::Notification(notification) = &message else {
            return Some(message);
        };
        let ServerNotification::ProgressNotification(progress) = &notification.notification else {
            return Some(message);
        };
        let mut routes = self.routes();
        match routes.by_token.get(&progress.params.progress_token) {
            // A queue whose request already ended drops it, as the client would.
            Some(route) => {
                let _ = route.send(progress.params.clone());
            }
            None => {
                if routes.unclaimed.len() == UNCLAIMED {
                    routes.unclaimed.pop_front();
                }
                routes.unclaimed.push_back(progress.params.clone());
            }
        }
        None
    }
}

/// An upstream transport whose progress notifications go to their requests' queues as they
/// are read, each notification with its params as written where they were kept so
/// (`verbatim::notifications`); everything else is read by rmcp as it came — and what a
/// lane read on the way to its answer that is rmcp's to read (`lane::http`), as if it came
/// so.
pub(crate) struct Inbound<T> {
    inner: T,
    progress: ProgressRoutes,
    written: Verbatim,
    from_lane: Option<FromLane>,
}

/// What a lane passes on to rmcp, in the order it read it.
pub(crate) type FromLane = mpsc::UnboundedReceiver<RxJsonRpcMessage<RoleClient>>;

impl<T> Inbound<T> {
    pub(crate) fn new(
        inner: T,
        progress: ProgressRoutes,
        written: Verbatim,
        from_lane: Option<FromLane>,
    ) -> Self {
        Inbound {
            inner,
            progress,
            written,
            from_lane,
        }
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
            // (Both receives lose nothing when the other comes first.)
            let mut message = match &mut self.from_lane {
                None => self.inner.receive().await?,
                Some(from_lane) => tokio::select! {
                    message = self.inner.receive() => message?,
                    Some(message) = from_lane.recv() => message,
                },
            };
            if let Some(params) = self.written.take_notification(&message) {
                notifications::attach(&mut message, params);
            }
            if let Some(message) = self.progress.route(message) {
                return Some(message);
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
