//! Direct requests (streamable HTTP, 2025 revisions): a session's request served by the
//! session's handler where rmcp hands it to the session (`SessionManager::create_stream`),
//! past rmcp's session worker and service loop — a channel to the worker, another to the
//! service loop, a task spawned there, and the same way back with the answer (a call runs
//! in the connection's own task; `answer`). rmcp has checked the request by then (its
//! headers, its session, its JSON); the answer's events go out as rmcp's would, through the
//! same stream (`tagged`) and the same choice of one JSON body (`json_answer`).
//!
//! rmcp's way stays for every request the worker adds something to. A request goes
//! direct only when:
//! * it is not `initialize`, and it asks for no progress (progress rides the request's own
//!   event stream, which the worker keeps);
//! * its client can be asked nothing (it declared no sampling, elicitation or roots), or
//!   has its GET stream open: what the handler asks it during the request goes there, the
//!   stream the specification lets a server send anything on;
//! * answers given at once go as JSON (`HttpConfig::json_answers`), as rmcp's then do;
//! * the session's worker heard of the session within half its idle timeout: rmcp closes
//!   a session its worker hears nothing of, so one request in each such span goes rmcp's
//!   way.
//!
//! A direct request's answer can be resumed, as rmcp's, by a client whose connection broke
//! (`answer`); `notifications/cancelled` naming it cancels it.

mod answer;

pub(crate) use answer::DirectEvents;

use crate::session::registration::{Handles, Registration};
use answer::DirectCall;
use mcp_tailor_core::seam::Locked;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, ClientRequest, GetMeta};
use rmcp::model::{GetExtensions, JsonRpcMessage, JsonRpcRequest};
use rmcp::service::{Peer, RoleServer};
use rmcp::transport::streamable_http_server::session::SessionId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A session that serves direct requests.
struct Direct {
    handler: Arc<dyn Handles>,
    peer: Peer<RoleServer>,
    /// Whether its client may be asked something (sampling, elicitation, roots).
    askable: bool,
    /// Its GET streams open.
    streams: AtomicUsize,
    /// When rmcp's worker last heard of it.
    heard: Mutex<Instant>,
    /// Its direct requests whose answers no stream delivered yet.
    calls: Mutex<Vec<DirectCall>>,
    /// Its direct requests so far.
    seq: AtomicU64,
}

/// The sessions serving direct requests, by id.
pub(crate) struct Directory {
    sessions: Mutex<HashMap<SessionId, Arc<Direct>>>,
    /// How long the worker may hear nothing of a session (half its idle timeout); `None`:
    /// no request goes direct.
    refresh: Option<Duration>,
    /// The retry interval of rmcp's priming events.
    retry: Option<Duration>,
}

/// An open GET stream of a session; dropping it closes it.
pub(crate) struct DirectStream(Option<Arc<Direct>>);

impl Drop for DirectStream {
    fn drop(&mut self) {
        if let Some(direct) = &self.0 {
            direct.streams.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

impl Directory {
    /// A directory for sessions that close after `idle` without a message, whose event
    /// streams begin with a priming event of `retry`; `enabled` false (answers streamed,
    /// not JSON) sends every request rmcp's way.
    pub(crate) fn new(enabled: bool, idle: Option<Duration>, retry: Option<Duration>) -> Self {
        Directory {
            sessions: Mutex::default(),
            refresh: enabled.then(|| idle.map_or(Duration::MAX, |idle| idle / 2)),
            retry,
        }
    }

    fn get(&self, id: &SessionId) -> Option<Arc<Direct>> {
        self.sessions.locked().get(id).cloned()
    }

    /// The registration `message`, an `initialize`, carries to the session's handler (none
    /// when no request goes direct).
    pub(crate) fn initializing(&self, message: &mut ClientJsonRpcMessage) -> Option<Registration> {
        self.refresh?;
        let JsonRpcMessage::Request(request) = message else {
            return None;
        };
        let registration = Registration::default();
        request
            .request
            .extensions_mut()
            .insert(registration.clone());
        Some(registration)
    }

    /// Session `id` was initialized: it serves direct requests if its handler registered.
    pub(crate) fn initialized(&self, id: &SessionId, registration: &Registration) {
        let Some(registered) = registration.registered() else {
            return;
        };
        let direct = Direct {
            handler: registered.handler,
            peer: registered.peer,
            askable: registered.askable,
            streams: AtomicUsize::new(0),
            heard: Mutex::new(Instant::now()),
            calls: Mutex::default(),
            seq: AtomicU64::new(0),
        };
        let mut sessions = self.sessions.locked();
        sessions.retain(|_, d| !d.peer.is_transport_closed() && !d.handler.ended());
        sessions.insert(id.clone(), Arc::new(direct));
    }

    /// Session `id` was closed.
    pub(crate) fn closed(&self, id: &SessionId) {
        self.sessions.locked().remove(id);
    }

    /// rmcp's worker hears of session `id` (a message or stream went its way).
    pub(crate) fn heard(&self, id: &SessionId) {
        if let Some(direct) = self.get(id) {
            direct.heard();
        }
    }

    /// A GET stream of session `id` opens, until the returned guard drops.
    pub(crate) fn stream(&self, id: &SessionId) -> DirectStream {
        let direct = self.get(id);
        if let Some(direct) = &direct {
            direct.streams.fetch_add(1, Ordering::Relaxed);
        }
        DirectStream(direct)
    }

    /// A message for session `id` that rmcp accepts (no answer expected), which its worker
    /// hears: a cancellation of a direct request cancels it.
    pub(crate) fn accepted(&self, id: &SessionId, message: &ClientJsonRpcMessage) {
        let Some(direct) = self.get(id) else {
            return;
        };
        direct.heard();
        let JsonRpcMessage::Notification(notification) = message else {
            return;
        };
        let ClientNotification::CancelledNotification(cancelled) = &notification.notification
        else {
            return;
        };
        let Some(request) = &cancelled.params.request_id else {
            return;
        };
        if let Some(call) = direct.calls.locked().iter().find(|c| c.id == *request) {
            call.token.cancel();
        }
    }

    /// Session `id`'s direct request resumed after its event `last`: its answer, if a
    /// stream has not delivered it; `None` when `last` is no direct request's event.
    pub(crate) fn resume(&self, id: &SessionId, last: &str) -> Option<DirectEvents> {
        answer::resume(self.get(id)?, last)
    }

    /// Session `id`, when `message` may go direct to its handler (the module's rules);
    /// `None` when it goes rmcp's way, whose worker then hears of the session.
    pub(crate) fn taking(&self, id: &SessionId, message: &ClientJsonRpcMessage) -> Option<Taking> {
        if !plain(message) {
            self.heard(id);
            return None;
        }
        self.taking_plain(id)
    }

    /// Session `id`, when a plain request (one without a progress token, not an
    /// `initialize`) may go direct to its handler; as [`Directory::taking`] otherwise.
    pub(crate) fn taking_plain(&self, id: &SessionId) -> Option<Taking> {
        let direct = self.get(id)?;
        let Some(refresh) = self.refresh else {
            direct.heard();
            return None;
        };
        if direct.peer.is_transport_closed() || direct.handler.ended() {
            self.closed(id);
            return None;
        }
        let mut heard = direct.heard.locked();
        let asks_unheard = direct.askable && direct.streams.load(Ordering::Relaxed) == 0;
        if asks_unheard || heard.elapsed() >= refresh {
            *heard = Instant::now();
            return None;
        }
        drop(heard);
        Some(Taking {
            direct,
            retry: self.retry,
        })
    }
}

impl Direct {
    /// rmcp's worker hears of this session.
    fn heard(&self) {
        *self.heard.locked() = Instant::now();
    }
}

/// Whether `message` is a request that may go direct by itself: not `initialize`, asking
/// for no progress.
fn plain(message: &ClientJsonRpcMessage) -> bool {
    let JsonRpcMessage::Request(request) = message else {
        return false;
    };
    !matches!(request.request, ClientRequest::InitializeRequest(_))
        && request.request.get_meta().get_progress_token().is_none()
}

/// A session taking a request directly ([`Directory::taking`]), its priming events' retry
/// interval.
pub(crate) struct Taking {
    direct: Arc<Direct>,
    retry: Option<Duration>,
}

impl Taking {
    /// Starts `request` on the session's handler: its events, to come.
    pub(crate) fn answer(self, request: JsonRpcRequest<ClientRequest>) -> DirectEvents {
        answer::start(self.direct, self.retry, request.id, request.request)
    }
}
