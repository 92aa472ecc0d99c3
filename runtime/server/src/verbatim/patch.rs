//! What rmcp's types could not hold of an answer the layer passes on — fields they do not
//! know (a tool's `execution`, a capability of another revision), numbers as the upstream
//! wrote them (`1`, not `1.0`), fields it did not send — carried with the answer as a patch
//! under a `_meta` key of its own ([`KEY`]) and applied where the answer is written
//! ([`restore`]), so the client reads what the upstream sent.
//!
//! A patch is a list of operations, each at a path (keys and array indexes) relative to
//! where the patch sits: `{"p": PATH, "v": VALUE}` puts back a field the types dropped
//! (unless the layer has set one there since), `{"p": PATH, "n": NUMBER}` writes a number
//! as the upstream did (while it is still that number), `{"p": PATH, "r": VALUE}` removes
//! a field the types added (while it still holds what they added), `{"p": PATH, "k": KEYS}`
//! puts an object's fields back in the upstream's order (the layer's own after them).
//! What the layer changed on purpose — a tailored description, a title said as nothing —
//! is a field the types know, so no patch touches it.

use super::kept::{KeptListing, Restoration, restoration};
use rmcp::model::{
    CustomNotification, CustomResult, JsonRpcMessage, JsonRpcNotification, JsonRpcResponse,
    MetaObject, ServerJsonRpcMessage, ServerNotification, ServerResult,
};
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicBool, Ordering};

/// The `_meta` key a patch travels under, from the wrapped handler to the edge.
pub const KEY: &str = "mcp-tailor.dev/verbatim";

/// The `_meta` key a notification's params as written travel under (a progress
/// notification's or a log message's, which the gateway passes on): where it is written,
/// those params are.
pub const AS_WRITTEN: &str = "mcp-tailor.dev/as-written";

/// The method of a progress notification.
pub const PROGRESS: &str = "notifications/progress";

/// Whether any patch was ever made: until then, writing an answer looks for none.
static MADE: AtomicBool = AtomicBool::new(false);

/// Whether an answer may carry a patch (one was made in this process).
pub fn patches_made() -> bool {
    MADE.load(Ordering::Relaxed)
}

/// The patch that turns `typed` (an answer as rmcp's types hold it) back into `raw` (as
/// it was written); `None` when they agree. (The gateway keeps answers as written, and
/// `inspect` a captured catalog.)
pub(crate) fn patch(raw: &Value, typed: &Value) -> Option<Value> {
    let mut ops = Vec::new();
    differences(raw, typed, &mut Vec::new(), &mut ops);
    if ops.is_empty() {
        return None;
    }
    MADE.store(true, Ordering::Relaxed);
    Some(Value::Array(ops))
}

fn differences(raw: &Value, typed: &Value, path: &mut Vec<Value>, ops: &mut Vec<Value>) {
    match (raw, typed) {
        (Value::Object(raw), Value::Object(typed)) => {
            for (key, value) in raw {
                path.push(json!(key));
                match typed.get(key) {
                    None => ops.push(json!({"p": path, "v": value})),
                    Some(held) => differences(value, held, path, ops),
                }
                path.pop();
            }
            for (key, value) in typed {
                if !raw.contains_key(key) && key != "_meta" {
                    path.push(json!(key));
                    ops.push(json!({"p": path, "r": value}));
                    path.pop();
                }
            }
            // Last, once the fields the types dropped are back in: the upstream's order.
            let held = typed.keys().filter(|k| raw.contains_key(*k));
            let dropped = raw.keys().any(|k| !typed.contains_key(k));
            if dropped || !held.eq(raw.keys().filter(|k| typed.contains_key(*k))) {
                ops.push(json!({"p": path, "k": raw.keys().collect::<Vec<_>>()}));
            }
        }
        (Value::Array(raw), Value::Array(typed)) if raw.len() == typed.len() => {
            for (i, (raw, typed)) in raw.iter().zip(typed).enumerate() {
                path.push(json!(i));
                differences(raw, typed, path, ops);
                path.pop();
            }
        }
        (Value::Number(written), Value::Number(held))
            if written != held && written.as_f64() == held.as_f64() =>
        {
            ops.push(json!({"p": path, "n": written}));
        }
        _ => {}
    }
}

/// What the gateway's `initialize` answers carry of the upstream's `handshake` result as
/// written (to go under [`KEY`] in the capabilities' `experimental`): the patch from the
/// capabilities as held (`capabilities`) back to theirs, and the order of its fields.
pub fn handshake(handshake: &Value, capabilities: &Value) -> Option<Map<String, Value>> {
    // `restore` drops an `experimental` the patch leaves empty: diffed as absent, the
    // upstream's own `{}` is put back by the patch.
    let mut held = capabilities.clone();
    if let Some(held) = held.as_object_mut()
        && held
            .get("experimental")
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
    {
        held.shift_remove("experimental");
    }
    let mut carried = Map::new();
    if let Some(patch) = handshake.get("capabilities").and_then(|c| patch(c, &held)) {
        carried.insert("ops".to_owned(), patch);
    }
    let order = handshake
        .as_object()?
        .keys()
        .map(|key| json!(key))
        .collect();
    carried.insert("order".to_owned(), Value::Array(order));
    MADE.store(true, Ordering::Relaxed);
    Some(carried)
}

/// Puts in `value`'s `_meta` (`meta` finds it) the patch from `value` as held to
/// `written`, if they differ.
pub fn keep_in_meta<T: serde::Serialize>(
    value: &mut T,
    written: &Value,
    meta: impl FnOnce(&mut T) -> &mut Option<MetaObject>,
) {
    let Ok(held) = serde_json::to_value(&*value) else {
        return;
    };
    if let Some(patch) = patch(written, &held) {
        let meta = meta(value).get_or_insert_with(MetaObject::default);
        meta.0.insert(KEY.to_owned(), patch);
    }
}

/// Each of `tools` (as rmcp's types read them) carrying what it lost of its form in
/// `written` (the same tools as written), found by its name: the layer lists, filters and
/// tailors tools one by one.
pub fn keep_tools(tools: &mut [rmcp::model::Tool], written: &[Value]) {
    for tool in tools {
        if let Some(theirs) = written.iter().find(|t| t["name"] == *tool.name) {
            keep_in_meta(tool, theirs, |tool| &mut tool.meta);
        }
    }
}

/// `message` about to be written with its result's patches applied (as a custom result:
/// the JSON as restored), or a notification with its params as written ([`AS_WRITTEN`]),
/// read in place; `None` when it carries neither, to be written as it is.
pub fn restored(message: &ServerJsonRpcMessage) -> Option<ServerJsonRpcMessage> {
    restored_as(message, |kept| kept.value.clone())
}

/// [`restored`], a listing kept restored (`verbatim::kept`) put in as `listing` makes
/// it: its JSON, or what stands in for the text it was written as (`verbatim::splice`).
pub(crate) fn restored_as(
    message: &ServerJsonRpcMessage,
    listing: impl FnOnce(&KeptListing) -> Value,
) -> Option<ServerJsonRpcMessage> {
    let response = match message {
        JsonRpcMessage::Response(response) => response,
        JsonRpcMessage::Notification(notification) => return as_written(notification),
        _ => return None,
    };
    if !patches_made() || !carries(&response.result) {
        return None;
    }
    let result = match restoration(&response.result, restore_result)? {
        Restoration::Kept(kept) => listing(&kept),
        Restoration::Fresh(result) => result,
    };
    Some(JsonRpcMessage::Response(JsonRpcResponse {
        jsonrpc: response.jsonrpc,
        id: response.id.clone(),
        result: ServerResult::CustomResult(CustomResult(result)),
    }))
}

/// `notification` with the params as written it carries (as a custom notification: the
/// JSON as written); `None` when it carries none.
fn as_written(
    notification: &JsonRpcNotification<ServerNotification>,
) -> Option<ServerJsonRpcMessage> {
    Some(JsonRpcMessage::Notification(JsonRpcNotification {
        jsonrpc: notification.jsonrpc,
        notification: written_notification(&notification.notification)?,
    }))
}

/// `notification` as the custom notification of the params as written it carries
/// ([`AS_WRITTEN`]: a progress notification, a log message or a resource update);
/// `None` when it carries none.
#[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); a proxy forwards it still.
pub fn written_notification(notification: &ServerNotification) -> Option<ServerNotification> {
    let (method, meta) = match notification {
        ServerNotification::ProgressNotification(n) => (PROGRESS, &n.params.meta),
        ServerNotification::LoggingMessageNotification(n) => {
            ("notifications/message", &n.params.meta)
        }
        ServerNotification::ResourceUpdatedNotification(n) => {
            ("notifications/resources/updated", &n.params.meta)
        }
        _ => return None,
    };
    let written = meta.as_ref()?.0.0.get(AS_WRITTEN)?;
    let custom = CustomNotification::new(method, Some(written.clone()));
    Some(ServerNotification::CustomNotification(custom))
}

/// `result` restored as JSON; `None` when it carries no patch.
fn restore_result(result: &ServerResult) -> Option<Value> {
    let mut restored = json!({ "result": serde_json::to_value(result).ok()? });
    restore(&mut restored).then(|| restored["result"].take())
}

/// [`restored`], or `message` itself.
pub(crate) fn restore_message(message: ServerJsonRpcMessage) -> ServerJsonRpcMessage {
    restored(&message).unwrap_or(message)
}

/// Whether `result` carries a patch where [`restore`] looks (read without writing it out).
fn carries(result: &ServerResult) -> bool {
    let has = |meta: &Option<MetaObject>| meta.as_ref().is_some_and(|m| m.0.contains_key(KEY));
    match result {
        ServerResult::ListToolsResult(listing) => {
            has(&listing.meta) || listing.tools.iter().any(|tool| has(&tool.meta))
        }
        ServerResult::CallToolResult(result) => has(&result.meta),
        ServerResult::GetPromptResult(result) => has(&result.meta),
        ServerResult::CompleteResult(result) => has(&result.meta),
        ServerResult::ListPromptsResult(result) => has(&result.meta),
        ServerResult::ListResourcesResult(result) => has(&result.meta),
        ServerResult::ListResourceTemplatesResult(result) => has(&result.meta),
        ServerResult::ReadResourceResult(result) => has(&result.meta),
        ServerResult::GetTaskResult(result) => has(&result.meta),
        ServerResult::ListSkillsResult(result) => has(&result.meta),
        ServerResult::GetSkillResult(result) => has(&result.meta),
        ServerResult::InitializeResult(result) => result
            .capabilities
            .experimental
            .as_ref()
            .is_some_and(|e| e.contains_key(KEY)),
        _ => false,
    }
}

/// Applies and removes every patch in a JSON-RPC message about to be written: on its
/// result, on each tool of a listing, on an `initialize` result's capabilities; whether
/// there was one.
pub fn restore(message: &mut Value) -> bool {
    let Some(result) = message.get_mut("result") else {
        return false;
    };
    let mut found = apply_at(result);
    if let Some(Value::Array(tools)) = result.get_mut("tools") {
        for tool in tools {
            found |= apply_at(tool);
        }
    }
    let Some(capabilities) = result
        .get_mut("capabilities")
        .and_then(Value::as_object_mut)
    else {
        return found;
    };
    let patch = capabilities
        .get_mut("experimental")
        .and_then(Value::as_object_mut)
        .and_then(|e| e.shift_remove(KEY));
    if capabilities
        .get("experimental")
        .and_then(Value::as_object)
        .is_some_and(Map::is_empty)
    {
        capabilities.shift_remove("experimental");
    }
    let Some(mut patch) = patch else {
        return found;
    };
    // (`experimental` holds objects: the patch is its `ops`, and the result's `order`.)
    if let Some(Value::Array(ops)) = patch.get_mut("ops").map(Value::take) {
        let mut target = Value::Object(std::mem::take(capabilities));
        ops.iter().for_each(|op| apply(&mut target, op));
        if let Value::Object(restored) = target {
            *capabilities = restored;
        }
    }
    if let (Some(Value::Array(order)), Some(result)) = (patch.get("order"), result.as_object_mut())
    {
        reorder(result, order);
    }
    true
}

/// Applies and removes the patch in `target`'s `_meta`, if any; whether there was one.
fn apply_at(target: &mut Value) -> bool {
    let Some(meta) = target.get_mut("_meta").and_then(Value::as_object_mut) else {
        return false;
    };
    let Some(Value::Array(ops)) = meta.shift_remove(KEY) else {
        return false;
    };
    if meta.is_empty()
        && let Some(object) = target.as_object_mut()
    {
        object.shift_remove("_meta");
    }
    ops.iter().for_each(|op| apply(target, op));
    true
}

/// One operation of a patch, where its path still leads.
fn apply(target: &mut Value, op: &Value) {
    let Some(path) = op.get("p").and_then(Value::as_array) else {
        return;
    };
    if let Some(Value::Array(order)) = op.get("k") {
        if let Some(Value::Object(object)) = walk(target, path) {
            reorder(object, order);
        }
        return;
    }
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let Some(at) = walk(target, parents) else {
        return;
    };
    match (last, at) {
        (Value::String(key), Value::Object(object)) => {
            if let Some(value) = op.get("v") {
                object.entry(key.clone()).or_insert_with(|| value.clone());
            } else if let Some(number) = op.get("n") {
                if let Some(held) = object.get_mut(key) {
                    put_number(held, number);
                }
            } else if let Some(added) = op.get("r")
                && object.get(key) == Some(added)
            {
                object.shift_remove(key);
            }
        }
        (Value::Number(i), Value::Array(items)) => {
            let held = i.as_u64().and_then(|i| items.get_mut(i as usize));
            if let (Some(held), Some(number)) = (held, op.get("n")) {
                put_number(held, number);
            }
        }
        _ => {}
    }
}

/// The value at `path` in `target`, if it still leads somewhere.
fn walk<'a>(target: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut at = target;
    for step in path {
        at = match (step, at) {
            (Value::String(key), Value::Object(object)) => object.get_mut(key)?,
            (Value::Number(i), Value::Array(items)) => {
                items.get_mut(usize::try_from(i.as_u64()?).ok()?)?
            }
            _ => return None,
        };
    }
    Some(at)
}

/// `object`'s keys in the upstream's `order`, then those it did not write (the layer's).
fn reorder(object: &mut Map<String, Value>, order: &[Value]) {
    let mut rest = std::mem::take(object);
    for key in order.iter().filter_map(Value::as_str) {
        if let Some(value) = rest.shift_remove(key) {
            object.insert(key.to_owned(), value);
        }
    }
    object.extend(rest);
}

/// `held` written as `number`, while it is that number.
fn put_number(held: &mut Value, number: &Value) {
    if held.as_f64().is_some() && held.as_f64() == number.as_f64() {
        *held = number.clone();
    }
}

#[cfg(test)]
mod tests;
