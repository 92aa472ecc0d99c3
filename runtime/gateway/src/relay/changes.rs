//! A 2026-07-28 upstream's list changes, heard on one subscription per connection, opened
//! with the connection. rmcp acknowledges a client's `subscriptions/listen` before the
//! handler runs, so a subscription the gateway opened upstream only then could miss a
//! change the client makes right after the acknowledgment (the conformance suite does
//! exactly that). With this one open before any client listens, every listener hears the
//! upstream's list changes from its acknowledgment on.

use crate::relay::Relay;
use rmcp::model::{ServerNotification, SubscriptionFilter};
use rmcp::service::{Peer, RoleClient};
use std::time::Duration;
use tokio::sync::broadcast;

/// How long the upstream may take to acknowledge the subscription.
const ACKNOWLEDGE: Duration = Duration::from_secs(3);

/// How many changes a slow listener may fall behind by (a list change says only that the
/// list changed: one missed among many loses nothing).
const BACKLOG: usize = 64;

/// The upstream's list changes, for every listener of one connection.
pub(crate) struct Changes {
    /// The lists the upstream acknowledged it tells changes of.
    lists: SubscriptionFilter,
    sender: broadcast::Sender<ServerNotification>,
    /// The task reading the subscription, aborted (and the subscription ended) on drop.
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Changes {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The list changes `filter` asks for, and nothing else.
pub(crate) fn lists_of(filter: &SubscriptionFilter) -> SubscriptionFilter {
    let mut lists = SubscriptionFilter::default();
    lists.tools_list_changed = filter.tools_list_changed;
    lists.prompts_list_changed = filter.prompts_list_changed;
    lists.resources_list_changed = filter.resources_list_changed;
    lists
}

/// Whether `filter` asks for `notification` (a list change).
pub(crate) fn asks_for(filter: &SubscriptionFilter, notification: &ServerNotification) -> bool {
    let on = |flag: Option<bool>| flag == Some(true);
    match notification {
        ServerNotification::ToolListChangedNotification(_) => on(filter.tools_list_changed),
        ServerNotification::PromptListChangedNotification(_) => on(filter.prompts_list_changed),
        ServerNotification::ResourceListChangedNotification(_) => on(filter.resources_list_changed),
        _ => false,
    }
}

/// What of `filter` the connection's own subscription does not hear (`heard`): the lists
/// it does not cover, and every resource to watch.
pub(crate) fn unheard(
    filter: &SubscriptionFilter,
    heard: &SubscriptionFilter,
) -> SubscriptionFilter {
    let unless =
        |asked: Option<bool>, covered: Option<bool>| asked.filter(|_| covered != Some(true));
    let mut rest = SubscriptionFilter::default();
    rest.tools_list_changed = unless(filter.tools_list_changed, heard.tools_list_changed);
    rest.prompts_list_changed = unless(filter.prompts_list_changed, heard.prompts_list_changed);
    rest.resources_list_changed =
        unless(filter.resources_list_changed, heard.resources_list_changed);
    rest.resource_subscriptions = filter.resource_subscriptions.clone();
    rest
}

/// The next list change the connection heard (one missed while behind is no loss: the
/// next says the same); `None` once the connection is gone; never, without a receiver.
pub(crate) async fn next(
    heard: &mut Option<broadcast::Receiver<ServerNotification>>,
) -> Option<ServerNotification> {
    use broadcast::error::RecvError;
    let Some(receiver) = heard else {
        return std::future::pending().await;
    };
    loop {
        match receiver.recv().await {
            Ok(change) => return Some(change),
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => return None,
        }
    }
}

impl Changes {
    /// Subscribes on `peer` to the changes of every list its capabilities say change;
    /// `None` when they name none, or the upstream does not acknowledge (each listener
    /// then subscribes on its own). Each change is also `relay`'s to act on (a tool change
    /// forgets the connection's listing; bridged 2025 sessions are told).
    pub(crate) async fn open(peer: &Peer<RoleClient>, relay: Relay) -> Option<Changes> {
        let capabilities = &peer.peer_info()?.capabilities;
        let flag = |changes: Option<bool>| (changes == Some(true)).then_some(true);
        let mut wanted = SubscriptionFilter::default();
        wanted.tools_list_changed = flag(capabilities.tools.as_ref().and_then(|t| t.list_changed));
        wanted.prompts_list_changed =
            flag(capabilities.prompts.as_ref().and_then(|p| p.list_changed));
        wanted.resources_list_changed =
            flag(capabilities.resources.as_ref().and_then(|r| r.list_changed));
        if wanted == SubscriptionFilter::default() {
            return None;
        }
        let subscription = tokio::time::timeout(ACKNOWLEDGE, peer.listen(wanted)).await;
        let mut subscription = match subscription {
            Ok(Ok(subscription)) => subscription,
            Ok(Err(error)) => {
                tracing::warn!(%error, "the upstream refused a subscription to its list changes");
                return None;
            }
            Err(_) => {
                tracing::warn!("the upstream did not acknowledge a subscription in time");
                return None;
            }
        };
        let lists = lists_of(subscription.acknowledged());
        let (sender, _) = broadcast::channel(BACKLOG);
        let heard = sender.clone();
        let task = tokio::spawn(async move {
            while let Ok(Some(notification)) = subscription.next().await {
                relay.changed(&notification).await;
                // No listener now: nobody to tell.
                let _ = heard.send(notification);
            }
        });
        Some(Changes {
            lists,
            sender,
            task,
        })
    }

    /// The lists whose changes this subscription hears.
    pub(crate) fn lists(&self) -> &SubscriptionFilter {
        &self.lists
    }

    /// Every change from now on.
    pub(crate) fn hear(&self) -> broadcast::Receiver<ServerNotification> {
        self.sender.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ToolListChangedNotification;

    #[test]
    fn a_listener_hears_only_the_lists_it_asked_for() {
        let mut tools = SubscriptionFilter::default();
        tools.tools_list_changed = Some(true);
        tools.resource_subscriptions = Some(vec!["file:///a".into()]);
        let changed =
            ServerNotification::ToolListChangedNotification(ToolListChangedNotification::default());
        assert!(asks_for(&tools, &changed));
        assert!(!asks_for(&SubscriptionFilter::default(), &changed));
        assert_eq!(lists_of(&tools).resource_subscriptions, None);
        assert_eq!(lists_of(&tools).tools_list_changed, Some(true));
    }

    #[test]
    fn what_the_connection_does_not_hear_is_subscribed_for_the_listener() {
        let mut asked = SubscriptionFilter::default();
        asked.tools_list_changed = Some(true);
        asked.prompts_list_changed = Some(true);
        asked.resource_subscriptions = Some(vec!["file:///a".into()]);
        let mut heard = SubscriptionFilter::default();
        heard.tools_list_changed = Some(true);
        let rest = unheard(&asked, &heard);
        assert_eq!(rest.tools_list_changed, None);
        assert_eq!(rest.prompts_list_changed, Some(true));
        assert_eq!(rest.resource_subscriptions, asked.resource_subscriptions);
        assert_eq!(
            unheard(&lists_of(&asked), &lists_of(&asked)),
            SubscriptionFilter::default()
        );
    }
}
