//! A forwarded request sent upstream: on the connection's lane where it has one (`lane::stdio`,
//! `lane::http`), else through rmcp's peer; either way, what the forwarding task waits on.

use crate::pool::connection::Connection;
use crate::upstream::inbound::ProgressQueue;
use crate::upstream::lane::http::{HttpLane, by_rmcp};
use crate::upstream::lane::stdio::Lane;
use crate::upstream::open::transport_cause;
use crate::upstream::verbatim::answer::unavailable;
use futures::future::Either;
use rmcp::ErrorData;
use rmcp::model::{
    ClientRequest, JsonRpcMessage, ProgressToken, RequestId, RequestMetaObject, ServerResult,
};
use rmcp::service::{RoleClient, RxJsonRpcMessage};
use serde_json::Value;
use std::sync::Arc;

/// An answer: the result, and the result as the upstream wrote it where that is kept; or
/// the upstream's error.
pub(crate) type Answered = Result<(ServerResult, Option<Value>), ErrorData>;

/// A request sent upstream, its answer to come.
pub(crate) struct Outgoing<A> {
    /// Its id upstream.
    pub(crate) id: RequestId,
    /// Its progress token upstream, when it has one.
    pub(crate) token: Option<ProgressToken>,
    /// Its progress, for a client that asked for it.
    pub(crate) progress: Option<ProgressQueue>,
    /// Its answer.
    pub(crate) answer: A,
}

impl<A> Outgoing<A> {
    fn map<B>(self, f: impl FnOnce(A) -> B) -> Outgoing<B> {
        Outgoing {
            id: self.id,
            token: self.token,
            progress: self.progress,
            answer: f(self.answer),
        }
    }
}

/// Sends `request` with `meta`, the client's own `_meta` (its client info and
/// capabilities on a stateless request, as it came, over what the connection would set);
/// its progress routed when the client asked for it (`progress`).
pub(crate) async fn send(
    connection: &Arc<Connection>,
    request: ClientRequest,
    meta: RequestMetaObject,
    progress: bool,
) -> Result<Outgoing<impl Future<Output = Answered> + use<>>, ErrorData> {
    if let Some(lane) = connection.lane() {
        let sent = on_lane(connection, lane, request, meta, progress).await?;
        return Ok(sent.map(Either::Left));
    }
    if let Some(lane) = connection.http_lane() {
        let sent = on_http_lane(connection, lane, request, meta, progress)?;
        return Ok(sent.map(|answer| Either::Right(Either::Left(answer))));
    }
    let sent = through_rmcp(connection, request, meta, progress).await?;
    Ok(sent.map(|answer| Either::Right(Either::Right(answer))))
}

/// On the lane.
async fn on_lane(
    connection: &Connection,
    lane: &Lane,
    request: ClientRequest,
    meta: RequestMetaObject,
    progress: bool,
) -> Result<Outgoing<impl Future<Output = Answered> + use<>>, ErrorData> {
    let (token, progress) = routed(connection, progress, || lane.progress_token());
    let sent = lane.send(request, meta, token.clone()).await;
    let mut sent = sent.map_err(|e| unavailable(&e.to_string()))?;
    let id = sent.id.clone();
    let answer = async move {
        let read = sent.answer().await;
        answered(
            read.map(|(message, written)| (message, Some(written)))
                .map_err(|e| e.to_string()),
        )
    };
    Ok(Outgoing {
        id,
        token,
        progress,
        answer,
    })
}

/// On the HTTP lane: posted once its answer is awaited. (The answer is boxed: its HTTP
/// client's futures would make every forwarded request's future larger, which a debug
/// build's stack did not hold.)
fn on_http_lane(
    connection: &Arc<Connection>,
    lane: &HttpLane,
    request: ClientRequest,
    meta: RequestMetaObject,
    progress: bool,
) -> Result<Outgoing<impl Future<Output = Answered> + use<>>, ErrorData> {
    let (token, progress) = routed(connection, progress, || lane.progress_token());
    let asking = lane.prepare(request, meta, token.clone());
    let asking = asking.map_err(|e| unavailable(&format!("the request cannot be written: {e}")))?;
    let id = asking.id.clone();
    let (lane, connection) = (lane.clone(), connection.clone());
    let answer = Box::pin(async move {
        answered(
            lane.ask(asking, || by_rmcp(connection.peer().clone()))
                .await,
        )
    });
    Ok(Outgoing {
        id,
        token,
        progress,
        answer,
    })
}

/// A lane's progress token upstream (`fresh`), only for a client that asked for progress,
/// and the queue its progress is routed to.
fn routed(
    connection: &Connection,
    asked: bool,
    fresh: impl FnOnce() -> ProgressToken,
) -> (Option<ProgressToken>, Option<ProgressQueue>) {
    let token = asked.then(fresh);
    let progress = token
        .clone()
        .map(|token| connection.progress().track(token));
    (token, progress)
}

/// A lane's answer (as rmcp's types read it, and as written where it was kept), or why
/// there is none: the result and its form as written, or the upstream's error.
fn answered(answer: Result<(RxJsonRpcMessage<RoleClient>, Option<Value>), String>) -> Answered {
    match answer {
        Ok((JsonRpcMessage::Response(response), written)) => {
            let result = written.and_then(|mut written| written.get_mut("result").map(Value::take));
            Ok((response.result, result))
        }
        Ok((JsonRpcMessage::Error(error), _)) => Err(error.error),
        Ok(_) => Err(unavailable("the upstream's answer is no answer")),
        Err(why) => Err(unavailable(&why)),
    }
}

/// Through rmcp's peer, which gives every request a progress token.
async fn through_rmcp(
    connection: &Arc<Connection>,
    request: ClientRequest,
    meta: RequestMetaObject,
    progress: bool,
) -> Result<Outgoing<impl Future<Output = Answered> + use<>>, ErrorData> {
    let mut options = rmcp::service::PeerRequestOptions::no_options();
    options.meta = Some(meta);
    let handle = connection
        .peer()
        .send_cancellable_request(request, options)
        .await
        .map_err(|e| failed(&e))?;
    let token = handle.progress_token.clone();
    let progress = progress.then(|| connection.progress().track(token.clone()));
    let (id, connection) = (handle.id.clone(), connection.clone());
    let answer = async move {
        match handle.rx.await {
            Ok(Ok(result)) => Ok((result, connection.written().take(&id))),
            Ok(Err(rmcp::ServiceError::McpError(error))) => Err(error),
            Ok(Err(other)) => Err(failed(&other)),
            Err(_) => Err(unavailable(CLOSED)),
        }
    };
    Ok(Outgoing {
        id: handle.id.clone(),
        token: Some(token),
        progress,
        answer,
    })
}

/// The log's words for an upstream connection that closed (rmcp's: "Transport closed").
const CLOSED: &str = "the upstream closed the connection";

/// `-32603` for a request rmcp could not get answered; why, in the user's terms, to the
/// log (a transport's innermost cause, not rmcp's wrappings of it).
fn failed(error: &rmcp::ServiceError) -> ErrorData {
    match error {
        rmcp::ServiceError::TransportSend(error) => unavailable(&transport_cause(error)),
        rmcp::ServiceError::TransportClosed => unavailable(CLOSED),
        other => unavailable(&other.to_string()),
    }
}
