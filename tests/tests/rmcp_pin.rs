//! rmcp is pinned exactly, because the layer and the gateway depend on how it behaves.
//! Each test here names one such behaviour and what in this workspace relies on it.
//! When a new rmcp fails one, the message says what to revisit before moving the pin.

use rmcp::model::{ProgressNotificationParam, Tool};
use serde_json::{Value, json};

/// The workspace's rmcp requirement, as `Cargo.toml` writes it.
fn required() -> String {
    let manifest: toml::Table = toml::from_str(include_str!("../../Cargo.toml")).unwrap();
    manifest["workspace"]["dependencies"]["rmcp"]["version"]
        .as_str()
        .expect("rmcp has a version")
        .to_owned()
}

/// The rmcp version `Cargo.lock` resolved.
fn locked() -> String {
    let lock: toml::Table = toml::from_str(include_str!("../../Cargo.lock")).unwrap();
    let packages = lock["package"].as_array().expect("the lock's packages");
    let rmcp = packages
        .iter()
        .find(|p| p["name"].as_str() == Some("rmcp"))
        .expect("Cargo.lock holds rmcp");
    rmcp["version"].as_str().unwrap().to_owned()
}

#[test]
fn rmcp_is_pinned_exactly_and_the_lock_agrees() {
    let required = required();
    assert!(
        required.starts_with('='),
        "rmcp is required as `{required}`: pin it exactly (`=X.Y.Z`); the layer relies on \
         how its internals behave (the tests below)"
    );
    assert_eq!(
        &required[1..],
        locked(),
        "Cargo.lock resolved another rmcp than the pin"
    );
}

/// `server::verbatim` exists because rmcp's `Tool` drops fields it does not know: the
/// gateway carries them as a patch and puts them back where the answer is written.
#[test]
fn rmcp_tool_drops_fields_it_does_not_know() {
    let written = json!({
        "name": "t",
        "inputSchema": {"type": "object"},
        "x-vendor": {"kept": true}
    });
    let typed: Tool = serde_json::from_value(written).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert!(
        back.get("x-vendor").is_none(),
        "rmcp's Tool now keeps unknown fields: `server::verbatim`'s patches for tools (and \
         the gateway's `keep_tools`) may no longer be needed"
    );
}

/// The gateway passes progress on as the upstream wrote it (`verbatim::notifications`) because rmcp's
/// types hold `progress` as `f64`, and write `1` as `1.0`.
#[test]
fn rmcp_progress_writes_an_integer_as_a_float() {
    let written = json!({"progressToken": "p", "progress": 1, "total": 2});
    let typed: ProgressNotificationParam = serde_json::from_value(written).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(
        back["progress"],
        Value::from(1.0),
        "rmcp now writes progress as the upstream did: the gateway's \
         `verbatim::notifications` progress may no longer be needed"
    );
    assert_ne!(
        back.to_string(),
        r#"{"progressToken":"p","progress":1,"total":2}"#
    );
}

/// The gateway bounds the events of streams it reads itself as rmcp's client bounds its
/// own (`upstream::http::event_size`); it reads the limit from rmcp's settings.
#[test]
fn rmcp_client_bounds_an_event_by_its_settings() {
    let limits = rmcp::transport::streamable_http_client::StreamableHttpResponseLimits::default();
    assert!(
        limits.max_sse_event_size > 0,
        "rmcp's client no longer bounds an event: revisit `upstream::http::event_size`"
    );
}
