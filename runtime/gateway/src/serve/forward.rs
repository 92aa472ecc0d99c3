//! The gateway's server side: every request forwarded to the upstream connection of its
//! session (or the shared one), within the deadline, cancelled upstream when the client
//! cancels; results and errors come back unchanged.
#![allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); a proxy forwards it still.

use crate::Gateway;
use crate::UpstreamSessions;
use crate::pool::connection::Connection;
use crate::pool::sessions::Served;
use crate::relay::changes;
use crate::serve::input;
use crate::serve::outgoing::{self, Outgoing};
use crate::upstream::inbound::ProgressQueue;
use crate::upstream::open::UpstreamError;
use crate::upstream::verbatim::answer::{Answer, unavailable};
use crate::upstream::verbatim::notifications;
use mcp_tailor_core::seam::Locked;
use mcp_tailor_server::passed_on;
use mcp_tailor_server::reason::UPSTREAM_FAILURE;
use mcp_tailor_server::seam::optional;
use mcp_tailor_server::seam::verbatim;
use mcp_tailor_server::seam::{has_session, is_direct};
use mcp_tailor_server::seam::{internal, timed_out};
use rmcp::model::*;
use rmcp::service::{NotificationContext, RequestContext, RoleServer, SubscriptionContext};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;
use std::sync::Arc;

impl Gateway {
    /// The connection this request goes over: its session's (see `sessions`), or the
    /// stateless requests' one.
    async fn connection(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<Arc<Connection>, ErrorData> {
        let credential = self.credential(&context.extensions);
        let opened = if has_session(context) && !self.shared.bridges_sessions() {
            self.session_connection(&context.peer, credential, &context.extensions)
                .await
        } else {
            self.stateless_connection(credential).await
        };
        opened.map_err(|error: UpstreamError| {
            tracing::warn!("{error}");
            internal(UPSTREAM_FAILURE)
        })
    }

    /// Sends `request` upstream and waits for its answer, the deadline or the client's
    /// cancellation (then cancelled upstream too); the answer's result as the upstream
    /// wrote it, where the connection keeps it.
    async fn forward(
        &self,
        request: ClientRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<(ServerResult, Option<Value>), ErrorData> {
        let connection = self.connection(context).await?;
        // What the upstream asks meanwhile goes to this session, with this request.
        let session_bound = has_session(context) && connection.session_bound();
        // (A direct request is on no stream of rmcp's: what comes during it names none.)
        let mut tracked = session_bound.then(|| {
            let downstream = connection.relay().downstream();
            let during = (!is_direct(context)).then(|| context.id.clone());
            downstream.track(self.key, &context.peer, during)
        });
        let theirs = context.meta.get_progress_token();
        let stateless = !has_session(context);
        let mut meta = context.meta.clone();
        if has_session(context) && !session_bound {
            bridged_meta(&mut meta, &context.peer);
        }
        let outgoing = outgoing::send(&connection, request, meta, theirs.is_some()).await?;
        let Outgoing {
            id,
            token: ours,
            mut progress,
            answer,
        } = outgoing;
        if let Some(tracked) = &mut tracked {
            tracked.sent(&id);
        }
        let answer = tokio::time::timeout(self.shared.options.deadline, answer);
        tokio::pin!(answer);
        // Progress goes to the client as it comes; the answer waits for the progress the
        // upstream sent before it (already queued by then), so none is lost or late.
        let outcome = loop {
            tokio::select! {
                biased;
                Some(params) = next(&mut progress) => {
                    let token = theirs.clone().unwrap_or_else(|| params.progress_token.clone());
                    let notification = notifications::progress(params, token, stateless);
                    let _ = context.peer.send_notification(notification).await;
                }
                answer = &mut answer => break Some(answer),
                () = context.ct.cancelled() => break None,
            }
        };
        if let Some(ours) = &ours {
            connection.progress().untrack(ours);
        }
        if let (Some(queue), Some(theirs)) = (&mut progress, &theirs) {
            while let Ok(params) = queue.try_recv() {
                let notification = notifications::progress(params, theirs.clone(), stateless);
                let _ = context.peer.send_notification(notification).await;
            }
        }
        let cancel = async |reason: &str| {
            let params = CancelledNotificationParam::new(Some(id.clone()), Some(reason.to_owned()));
            let _ = connection.peer().notify_cancelled(params).await;
        };
        match outcome {
            Some(Ok(answer)) => answer,
            Some(Err(_)) => {
                cancel("the gateway's request deadline passed").await;
                tracing::warn!("the upstream missed the request deadline");
                Err(timed_out(UPSTREAM_FAILURE))
            }
            None => {
                cancel("the client cancelled the request").await;
                Err(ErrorData::internal_error("cancelled", None))
            }
        }
    }

    /// A bridged session's request (`input::carries_answers`) forwarded until the upstream
    /// needs no more input from its client (`input::answered`), at most `input::MAX_ROUNDS`
    /// times.
    async fn forward_answering(
        &self,
        mut request: ClientRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<(ServerResult, Option<Value>), ErrorData> {
        for _ in 0..input::MAX_ROUNDS {
            let answer = self.forward(request.clone(), context).await?;
            let (ServerResult::InputRequiredResult(asked), _) = answer else {
                return Ok(answer);
            };
            let (answers, state) = input::answered(asked, &context.peer).await?;
            input::with_answers(&mut request, answers, state);
        }
        Err(unavailable(&format!(
            "the upstream asked the client for input {} times without answering",
            input::MAX_ROUNDS
        )))
    }

    /// [`forward`](Self::forward), the answer read as `T`, carrying what `T` could not
    /// hold of it as written (`server::verbatim`).
    async fn ask<T: Answer>(
        &self,
        request: ClientRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<T, ErrorData> {
        let Some(observer) = &self.shared.options.observer else {
            return self.ask_unobserved(request, context).await;
        };
        let began = std::time::Instant::now();
        let method = match &request {
            ClientRequest::CustomRequest(_) => "custom",
            known => known.method(),
        };
        let method = method.to_owned();
        let answer = self.ask_unobserved(request, context).await;
        observer.served(&Served {
            method: &method,
            ok: answer.is_ok(),
            elapsed: began.elapsed(),
        });
        answer
    }

    /// [`ask`](Self::ask), told to no observer.
    async fn ask_unobserved<T: Answer>(
        &self,
        request: ClientRequest,
        context: &RequestContext<RoleServer>,
    ) -> Result<T, ErrorData> {
        let bridged = has_session(context) && self.shared.bridges_sessions();
        let (result, written) = match bridged && input::carries_answers(&request) {
            true => self.forward_answering(request, context).await?,
            false => self.forward(request, context).await?,
        };
        let mut answer = T::read(result)?;
        if let Some(written) = written {
            answer.keep_verbatim(&written);
        }
        Ok(answer)
    }
}

/// What the gateway negotiates in front of an upstream that speaks `upstream`: a 2025
/// client asking for a newer version than the upstream's is answered with the upstream's
/// (firecrawl-mcp answers 2025-06-18 to a 2025-11-25 client, server-github 2024-11-05), as
/// it would be directly; 2026-07-28, whose requests stand alone, the gateway serves over
/// any upstream. An upstream of 2026-07-28, or older than every version rmcp knows,
/// bounds nothing.
fn bridged(upstream: &ProtocolVersion) -> &'static [ProtocolVersion] {
    use ProtocolVersion as V;
    const UP_TO: [&[V]; 4] = [
        &[V::V_2024_11_05, V::V_2026_07_28],
        &[V::V_2024_11_05, V::V_2025_03_26, V::V_2026_07_28],
        &[
            V::V_2024_11_05,
            V::V_2025_03_26,
            V::V_2025_06_18,
            V::V_2026_07_28,
        ],
        &[
            V::V_2024_11_05,
            V::V_2025_03_26,
            V::V_2025_06_18,
            V::V_2025_11_25,
            V::V_2026_07_28,
        ],
    ];
    match V::known_up_to(upstream).len() {
        known @ 1..=4 if upstream.has_initialize() => UP_TO[known - 1],
        _ => V::KNOWN_VERSIONS,
    }
}

/// A 2025 session's request going upstream as a 2026-07-28 one (to an upstream that serves
/// no `initialize`, `GatewayState::bridges_sessions`): with its client's info and
/// capabilities, as the session's `initialize` named them, over the gateway's (the
/// connection's stamp). What the upstream then asks of the client comes in an
/// `input_required` result, answered by the session's client (`input`).
fn bridged_meta(meta: &mut RequestMetaObject, peer: &rmcp::service::Peer<RoleServer>) {
    if let Some(info) = peer.peer_info() {
        meta.set_client_info(info.client_info.clone());
        meta.set_client_capabilities(info.capabilities.clone());
    }
}

/// The next notification of this listener's own upstream subscription; never, without one.
async fn next_notification(
    subscription: &mut Option<rmcp::service::Subscription>,
) -> Result<Option<ServerNotification>, rmcp::ServiceError> {
    match subscription {
        Some(subscription) => subscription.next().await,
        None => std::future::pending().await,
    }
}

/// The next progress of a request that asked for it; never, for one that did not.
async fn next(queue: &mut Option<ProgressQueue>) -> Option<ProgressNotificationParam> {
    match queue {
        Some(queue) => queue.recv().await,
        None => std::future::pending().await,
    }
}

/// `ServerHandler` methods forwarded with their params: `method(Params) -> Result = Variant`.
macro_rules! forward {
    ($($method:ident($params:ty) -> $result:ty = $variant:ident($make:expr);)*) => {$(
        async fn $method(
            &self,
            request: $params,
            context: RequestContext<RoleServer>,
        ) -> Result<$result, ErrorData> {
            self.ask(ClientRequest::$variant($make(request)), &context).await
        }
    )*};
}

impl ServerHandler for Gateway {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    /// The 2025 versions up to the upstream's own, and 2026-07-28, which the gateway
    /// serves itself (`bridged`).
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(bridged(&self.shared.info.protocol_version))
    }

    passed_on!(forward);

    // What the layer owns for its own tools and tasks, but a gateway passes on.
    forward! {
        call_tool(CallToolRequestParams) -> CallToolResponse = CallToolRequest(Request::new);
        get_task(GetTaskParams) -> GetTaskResult = GetTaskRequest(Request::new);
        set_level(SetLevelRequestParams) -> () = SetLevelRequest(Request::new);
        update_task(UpdateTaskParams) -> () = UpdateTaskRequest(Request::new);
        cancel_task(CancelTaskParams) -> () = CancelTaskRequest(Request::new);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // Each page once per connection, until the upstream says its tools changed.
        let began = std::time::Instant::now();
        let cursor = request.as_ref().and_then(|r| r.cursor.clone());
        let listing = self.connection(&context).await?;
        if let Some(page) = listing.relay().listing().get(&cursor) {
            if let Some(observer) = &self.shared.options.observer {
                let elapsed = began.elapsed();
                observer.served(&Served {
                    method: "tools/list",
                    ok: true,
                    elapsed,
                });
            }
            return Ok(page);
        }
        let result: ListToolsResult = self
            .ask(ClientRequest::ListToolsRequest(optional(request)), &context)
            .await?;
        listing.relay().listing().put(cursor.clone(), &result);
        self.remember_tools(
            &result.tools,
            cursor.is_none() && result.next_cursor.is_none(),
        );
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.shared.tools.locked().get(name).cloned()
    }

    /// What a 2026-07-28 listener may hear from the upstream: what it asks for and the
    /// upstream's capabilities allow.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.shared.info.capabilities))
    }

    /// A 2026-07-28 listener: the list changes the connection already hears (its own
    /// subscription, opened with it: `changes`), and the rest of the filter (resource
    /// updates) subscribed upstream for this listener; each notification relayed, until
    /// either side ends it.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let Some(filter) = self
            .accepted_subscription_filter(context.requested())
            .filter(|f| *f != SubscriptionFilter::default())
        else {
            context.cancelled().await;
            return Ok(());
        };
        let connection = self.connection(context.request_context()).await?;
        let (mut heard, rest) = match connection.changes() {
            Some(changes) => (
                Some(changes.hear()),
                changes::unheard(&filter, changes.lists()),
            ),
            None => (None, filter.clone()),
        };
        let mut subscription = match rest == SubscriptionFilter::default() {
            true => None,
            false => Some(
                connection
                    .peer()
                    .listen(rest)
                    .await
                    .map_err(|e| unavailable(&format!("subscriptions/listen failed: {e}")))?,
            ),
        };
        loop {
            tokio::select! {
                change = changes::next(&mut heard) => match change {
                    Some(change) if changes::asks_for(&filter, &change) => {
                        if context.sink().send(change).await.is_err() {
                            break;
                        }
                    }
                    Some(_) => {}
                    None => break,
                },
                next = next_notification(&mut subscription) => match next {
                    Ok(Some(notification)) => {
                        // (A listener's stream is written as it is: the params as written
                        // go as a custom notification, `server::verbatim`.)
                        let notification =
                            verbatim::written_notification(&notification).unwrap_or(notification);
                        if context.sink().send(notification).await.is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(error) => return Err(unavailable(&format!("the upstream's subscription failed: {error}"))),
                },
                () = context.cancelled() => break,
            }
        }
        Ok(())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        self.ask(ClientRequest::CustomRequest(request), &context)
            .await
    }

    async fn ping(&self, _: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        Ok(())
    }

    /// A session opens its upstream session as soon as it is initialized, so the upstream
    /// can send it requests and notifications before its first request.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        if context.peer.peer_info().is_none() {
            return;
        }
        let credential = self.credential(&context.extensions);
        // Bridged (an upstream of 2026-07-28 alone): no upstream session of its own; the
        // list changes the stateless connection hears reach it.
        if self.shared.bridges_sessions() {
            match self.stateless_connection(credential).await {
                Ok(connection) => connection
                    .relay()
                    .downstream()
                    .bridge(self.key, &context.peer),
                Err(error) => tracing::warn!("{error}"),
            }
            return;
        }
        if let Err(error) = self
            .session_connection(&context.peer, credential, &context.extensions)
            .await
        {
            tracing::warn!("{error}");
        }
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        let connection = match self.shared.options.sessions {
            UpstreamSessions::PerClient => self.session.current(),
            UpstreamSessions::Shared => {
                let credential = self.credential(&context.extensions);
                self.shared.shared.slot(&credential).current()
            }
        };
        if let Some(connection) = connection {
            let _ = connection.peer().notify_roots_list_changed().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bridged;
    use rmcp::model::ProtocolVersion as V;

    #[test]
    fn a_2025_client_is_offered_no_newer_version_than_the_upstream_speaks() {
        assert_eq!(
            bridged(&V::V_2024_11_05),
            [V::V_2024_11_05, V::V_2026_07_28]
        );
        let june = bridged(&V::V_2025_06_18);
        assert!(june.contains(&V::V_2025_06_18) && !june.contains(&V::V_2025_11_25));
        assert!(june.contains(&V::V_2026_07_28));
        assert_eq!(bridged(&V::V_2025_11_25).len(), V::KNOWN_VERSIONS.len());
        assert_eq!(bridged(&V::V_2026_07_28), V::KNOWN_VERSIONS);
        // Older than every version rmcp knows: nothing to bound by.
        let old: V = serde_json::from_str("\"2024-01-01\"").unwrap();
        assert_eq!(bridged(&old), V::KNOWN_VERSIONS);
    }
}
