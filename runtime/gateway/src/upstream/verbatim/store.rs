//! The upstream's answers and notifications as written, kept beside what rmcp reads of
//! them: every answer's result by request id, the handshake's, and the params of the
//! notifications passed on as written (`notifications`). Both transports fill it.

use super::notifications;
use mcp_tailor_core::seam::Locked;
use rmcp::model::RequestId;
use rmcp::service::{RoleClient, RxJsonRpcMessage};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// How many answers are kept as written until the gateway takes them (an answer nobody
/// takes — the handshake's, a page rmcp read itself — is forgotten past this).
const KEPT: usize = 1_024;

/// What the upstream wrote: its answers by request id, and notifications' params.
#[derive(Clone, Default)]
pub(crate) struct Verbatim(Arc<Mutex<Answers>>);

#[derive(Default)]
struct Answers {
    by_id: HashMap<RequestId, Value>,
    order: VecDeque<RequestId>,
    /// The first answer: the handshake's.
    handshake: Option<Value>,
    /// Notifications' params as written, by their typed form's bytes (`notifications`).
    notifications: HashMap<Vec<u8>, VecDeque<Value>>,
    /// How many params `notifications` holds.
    noted: usize,
}

impl Verbatim {
    /// Keeps `result` as the answer to `id`.
    pub(crate) fn keep(&self, id: RequestId, result: Value) {
        let mut answers = self.0.locked();
        if answers.handshake.is_none() {
            answers.handshake = Some(result.clone());
        }
        if answers.order.len() == KEPT
            && let Some(oldest) = answers.order.pop_front()
        {
            answers.by_id.remove(&oldest);
        }
        answers.order.push_back(id.clone());
        answers.by_id.insert(id, result);
    }

    /// Keeps the result of `answer` (a JSON-RPC answer as written, taken apart here) as
    /// the answer to its id; anything else is dropped.
    pub(crate) fn keep_answer(&self, mut answer: serde_json::Map<String, Value>) {
        let id = answer
            .remove("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id).ok());
        if let (Some(id), Some(result)) = (id, answer.remove("result")) {
            self.keep(id, result);
        }
    }

    /// The handshake's result (`initialize`), as written.
    pub(crate) fn handshake(&self) -> Option<Value> {
        let answers = self.0.locked();
        answers.handshake.clone()
    }

    /// Keeps `raw`'s params as written when it is a notification passed on so whose typed
    /// form, `typed`, would write them otherwise (`notifications`).
    pub(crate) fn keep_notification(&self, raw: &Value, typed: &RxJsonRpcMessage<RoleClient>) {
        let Some((key, params)) = notifications::kept(raw, typed) else {
            return;
        };
        let mut answers = self.0.locked();
        // Never taken (a notification rmcp could not read): forgotten past this.
        if answers.noted == KEPT {
            answers.notifications.clear();
            answers.noted = 0;
        }
        answers.noted += 1;
        answers
            .notifications
            .entry(key)
            .or_default()
            .push_back(params);
    }

    /// The params as written of the notification rmcp read as `typed`, when kept (once).
    pub(crate) fn take_notification(&self, typed: &RxJsonRpcMessage<RoleClient>) -> Option<Value> {
        let mut answers = self.0.locked();
        if answers.noted == 0 {
            return None;
        }
        let key = notifications::key(typed)?;
        let kept = answers.notifications.get_mut(&key)?;
        let params = kept.pop_front();
        if kept.is_empty() {
            answers.notifications.remove(&key);
        }
        answers.noted -= usize::from(params.is_some());
        params
    }

    /// The result of the answer to `id`, as written (once).
    pub(crate) fn take(&self, id: &RequestId) -> Option<Value> {
        let mut answers = self.0.locked();
        let result = answers.by_id.remove(id)?;
        answers.order.retain(|kept| kept != id);
        Some(result)
    }
}
