use super::*;

fn round_trip(raw: Value, typed: Value, layer: impl FnOnce(&mut Value)) -> Value {
    let mut answer = typed.clone();
    if let Some(patch) = patch(&raw, &typed) {
        let meta = answer
            .as_object_mut()
            .unwrap()
            .entry("_meta")
            .or_insert_with(|| json!({}));
        meta.as_object_mut().unwrap().insert(KEY.to_owned(), patch);
    }
    layer(&mut answer);
    let mut message = json!({"jsonrpc": "2.0", "id": 1, "result": answer});
    restore(&mut message);
    message["result"].take()
}

#[test]
fn dropped_fields_numbers_order_and_added_defaults_come_back_as_written() {
    let raw = json!({"progress": 1, "content": [{"text": "hi", "type": "text"}],
        "execution": {"taskSupport": "required"}});
    let typed = json!({"content": [{"type": "text", "text": "hi"}], "progress": 1.0,
        "isError": false});
    let served = round_trip(raw.clone(), typed, |_| {});
    assert_eq!(served.to_string(), raw.to_string());
}

#[test]
fn what_the_layer_changed_stays_changed() {
    let raw =
        json!({"name": "a", "description": "Theirs.", "execution": {"taskSupport": "forbidden"}});
    let typed = json!({"name": "a", "description": "Theirs."});
    // The layer says a terser description, and nothing for a title it had added.
    let served = round_trip(raw, typed, |tool| {
        tool["description"] = json!("Ours.");
    });
    assert_eq!(
        served,
        json!({"name": "a", "description": "Ours.", "execution": {"taskSupport": "forbidden"}})
    );
    // A description removed by the layer is not put back: the types know the field.
    let raw = json!({"name": "a", "description": "Theirs."});
    let served = round_trip(raw.clone(), raw, |tool| {
        tool.as_object_mut().unwrap().remove("description");
    });
    assert_eq!(served, json!({"name": "a"}));
}

#[test]
fn an_answer_without_a_patch_is_written_as_it_is() {
    let raw = json!({"tools": [{"name": "a"}]});
    assert_eq!(round_trip(raw.clone(), raw.clone(), |_| {}), raw);
    let mut message = json!({"jsonrpc": "2.0", "id": 1, "result": {"_meta": {"x": 1}}});
    restore(&mut message);
    assert_eq!(message["result"], json!({"_meta": {"x": 1}}));
}

/// A listing of one tool as rmcp's types read `raw`, carrying the patch back to it.
fn listing(raw: &Value) -> ServerJsonRpcMessage {
    let mut tool: rmcp::model::Tool = serde_json::from_value(raw.clone()).unwrap();
    let typed = serde_json::to_value(&tool).unwrap();
    let mut meta = Map::new();
    meta.insert(KEY.to_owned(), patch(raw, &typed).unwrap());
    tool.meta = Some(MetaObject(meta));
    let result =
        ServerResult::ListToolsResult(rmcp::model::ListToolsResult::with_all_items(vec![tool]));
    ServerJsonRpcMessage::response(result, rmcp::model::RequestId::Number(1))
}

fn result_of(message: &ServerJsonRpcMessage) -> Value {
    serde_json::to_value(message).unwrap()["result"].take()
}

#[test]
fn a_listing_is_restored_once_and_reused_while_it_is_the_same() {
    let tool = |description: &str| {
        json!({"name": "a", "description": description, "inputSchema": {"type": "object"},
            "execution": {"taskSupport": "forbidden"}})
    };
    let first = restored(&listing(&tool("A"))).unwrap();
    assert_eq!(result_of(&first)["tools"], json!([tool("A")]));
    let again = restored(&listing(&tool("A"))).unwrap();
    assert_eq!(result_of(&again), result_of(&first));
    // Another listing is restored on its own, never served one kept for another.
    let other = restored(&listing(&tool("B"))).unwrap();
    assert_eq!(result_of(&other)["tools"], json!([tool("B")]));
}

#[test]
fn capabilities_carry_theirs_in_experimental() {
    let raw = json!({"tools": {}, "tasks": {"list": {}}});
    let typed = json!({"tools": {}});
    let patch = patch(&raw, &typed).unwrap();
    let mut message = json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities":
        {"tools": {"listChanged": true}, "experimental": {KEY: {"ops": patch}}}}});
    restore(&mut message);
    assert_eq!(
        message["result"]["capabilities"],
        json!({"tools": {"listChanged": true}, "tasks": {"list": {}}})
    );
}

#[test]
fn an_empty_experimental_of_the_upstream_s_is_kept() {
    // mcp-atlassian (FastMCP) declares `"experimental": {}`; rmcp holds it as empty.
    let written = json!({"protocolVersion": "2025-11-25", "capabilities":
        {"experimental": {}, "tools": {"listChanged": true}}, "serverInfo": {"name": "a"}});
    let held = json!({"experimental": {}, "tools": {"listChanged": true}});
    let carried = handshake(&written, &held).unwrap();
    let mut message = json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion":
        "2025-11-25", "capabilities": {"experimental": {KEY: carried}, "tools":
        {"listChanged": true}}, "serverInfo": {"name": "a"}}});
    restore(&mut message);
    assert_eq!(message["result"], written);
}
