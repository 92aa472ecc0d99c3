//! Notifications passed on as the upstream wrote them. rmcp reads a progress notification's
//! numbers as floats (`1` would go on as `1.0`) and drops the fields its types do not know,
//! of a log message's and a resource update's too. So each transport keeps what such a
//! notification's params were as written, when its typed form would write them otherwise
//! ([`kept`], into `Verbatim`),
//! under the typed form's bytes; `Inbound` puts them on the typed notification rmcp reads
//! (in its `_meta`, [`attach`]); the gateway passes it on, a progress notification on the
//! client's token ([`progress`]), and where it is written `server::verbatim` writes the
//! params as written.
#![allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); a proxy forwards it still.

use rmcp::model::{
    CustomNotification, JsonRpcMessage, NotificationMetaObject, ProgressNotification,
    ProgressNotificationParam, ProgressToken, ServerJsonRpcMessage, ServerNotification,
};
use serde_json::Value;

use mcp_tailor_server::seam::verbatim::{AS_WRITTEN as KEY, PROGRESS};

/// Whether `message` is a notification the gateway passes on as written.
pub(crate) fn passed_on(message: &ServerJsonRpcMessage) -> bool {
    matches!(
        message,
        JsonRpcMessage::Notification(n) if matches!(
            n.notification,
            ServerNotification::ProgressNotification(_)
                | ServerNotification::LoggingMessageNotification(_)
                | ServerNotification::ResourceUpdatedNotification(_)
        )
    )
}

/// The key `message` (as rmcp's types read it) is kept under: its bytes as they write it;
/// `None` for a message not passed on as written.
pub(crate) fn key(message: &ServerJsonRpcMessage) -> Option<Vec<u8>> {
    passed_on(message)
        .then(|| serde_json::to_vec(message).ok())
        .flatten()
}

/// What to keep of `raw` (a message as the upstream wrote it), read by the types as
/// `typed`: its key and its params as written, when it is a notification passed on as
/// written whose typed form would write other params.
pub(crate) fn kept(raw: &Value, typed: &ServerJsonRpcMessage) -> Option<(Vec<u8>, Value)> {
    let key = key(typed)?;
    let params = raw.get("params")?;
    let as_typed: Value = serde_json::from_slice(&key).ok()?;
    (as_typed.get("params") != Some(params)).then(|| (key, params.clone()))
}

/// Puts `params` (as written) on `message`'s typed params, for [`progress`] or
/// [`logging`] to send.
pub(crate) fn attach(message: &mut ServerJsonRpcMessage, params: Value) {
    let JsonRpcMessage::Notification(notification) = message else {
        return;
    };
    let meta = match &mut notification.notification {
        ServerNotification::ProgressNotification(n) => &mut n.params.meta,
        ServerNotification::LoggingMessageNotification(n) => &mut n.params.meta,
        ServerNotification::ResourceUpdatedNotification(n) => &mut n.params.meta,
        _ => return,
    };
    meta.get_or_insert_with(NotificationMetaObject::default)
        .0
        .0
        .insert(KEY.to_owned(), params);
}

/// The progress notification to send the client, on its `token`. Kept as written, it
/// says so in its `_meta` (for `server::verbatim` to write it as written where it is
/// written), or, on a request without a session (`stateless`), is that already: rmcp
/// routes a session's progress to its request's stream by the typed token, and a
/// stateless request's stream is its own.
pub(crate) fn progress(
    mut params: ProgressNotificationParam,
    token: ProgressToken,
    stateless: bool,
) -> ServerNotification {
    let written = params.meta.as_mut().and_then(|m| m.0.0.get_mut(KEY));
    if let Some(Value::Object(written)) = written
        && let Ok(theirs) = serde_json::to_value(&token)
    {
        written.insert("progressToken".to_owned(), theirs);
        if stateless {
            let written = Value::Object(std::mem::take(written));
            return ServerNotification::CustomNotification(CustomNotification::new(
                PROGRESS,
                Some(written),
            ));
        }
    }
    params.progress_token = token;
    ServerNotification::ProgressNotification(ProgressNotification::new(params))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_tailor_server::seam::verbatim::restored;
    use rmcp::model::{JsonRpcNotification, JsonRpcVersion2_0, NumberOrString};
    use serde_json::json;

    fn read(raw: &Value) -> ServerJsonRpcMessage {
        serde_json::from_value(raw.clone()).unwrap()
    }

    /// `raw` read by rmcp's types with what they would not write as written attached.
    fn passed_on(raw: &Value) -> ServerJsonRpcMessage {
        let mut typed = read(raw);
        let (key, params) = kept(raw, &typed).expect("the types write it otherwise");
        assert_eq!(key, super::key(&typed).unwrap());
        attach(&mut typed, params);
        typed
    }

    /// `notification` as it is written to the client.
    fn written(notification: ServerNotification) -> Value {
        let message = JsonRpcMessage::Notification(JsonRpcNotification {
            jsonrpc: JsonRpcVersion2_0,
            notification,
        });
        serde_json::to_value(restored(&message).unwrap_or(message)).unwrap()
    }

    fn progress_of(message: ServerJsonRpcMessage) -> ProgressNotificationParam {
        match message {
            JsonRpcMessage::Notification(JsonRpcNotification {
                notification: ServerNotification::ProgressNotification(p),
                ..
            }) => p.params,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn progress_goes_on_as_written_on_the_clients_token() {
        let raw = json!({"jsonrpc": "2.0", "method": PROGRESS, "params": {
            "progressToken": 7, "progress": 1, "total": 3, "future": {"x": 1}}});
        let expected = json!({"jsonrpc": "2.0", "method": PROGRESS, "params": {
            "progressToken": "theirs", "progress": 1, "total": 3, "future": {"x": 1}}});
        for stateless in [false, true] {
            let params = progress_of(passed_on(&raw));
            let token = ProgressToken(NumberOrString::String("theirs".into()));
            let notification = progress(params, token, stateless);
            // A session's stays typed, for rmcp to route by its token.
            assert_eq!(
                matches!(notification, ServerNotification::ProgressNotification(_)),
                !stateless
            );
            assert_eq!(written(notification).to_string(), expected.to_string());
        }
    }

    #[test]
    fn what_the_types_write_as_written_is_not_kept() {
        let raw = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": "info", "data": "hi"}});
        assert_eq!(kept(&raw, &read(&raw)), None);
        let raw = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"});
        assert_eq!(kept(&raw, &read(&raw)), None);
    }

    #[test]
    fn a_log_message_keeps_its_fields() {
        let raw = json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": "info", "data": {"n": 2}, "seq": 5}});
        let JsonRpcMessage::Notification(n) = passed_on(&raw) else {
            panic!()
        };
        assert_eq!(written(n.notification), raw);
    }

    #[test]
    fn a_resource_update_keeps_its_fields() {
        let raw = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
            "params": {"uri": "file:///a", "title": "A", "_meta": {"k": 1}}});
        let JsonRpcMessage::Notification(n) = passed_on(&raw) else {
            panic!()
        };
        // Written as written to a session, and to a 2026-07-28 listener (`forward`).
        assert_eq!(written(n.notification.clone()), raw);
        let custom =
            mcp_tailor_server::seam::verbatim::written_notification(&n.notification).unwrap();
        assert_eq!(written(custom), raw);
    }

    #[test]
    fn without_a_kept_form_the_typed_one_is_sent() {
        let params = ProgressNotificationParam::new(ProgressToken(NumberOrString::Number(1)), 0.5);
        let token = ProgressToken(NumberOrString::Number(9));
        let sent = written(progress(params, token, false));
        assert_eq!(sent["params"]["progressToken"], 9);
        assert_eq!(sent["params"]["progress"], 0.5);
    }
}
