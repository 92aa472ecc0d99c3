//! Tool presentation (SPEC B3): a host callback may override an already-visible tool's
//! title, description, icons and `_meta` per request. Anything else — another key, a
//! wrong type, an invalid value, an error, a panic — fails the whole `tools/list`.

use super::callbacks::BoxFuture;
use super::icons::validate_icons;
use super::meta_key::validate_meta_key;
use super::request::RequestInfo;
use rmcp::model::{Icon, MetaObject, Tool};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// A presentation callback's answer for one tool.
#[derive(Clone, Debug, PartialEq)]
pub enum Presentation {
    /// Leave the tool as tailoring rendered it.
    Default,
    /// Override some of `title`, `description`, `icons`, `_meta` (`{}` changes nothing).
    Overrides(Map<String, Value>),
    /// Fail the listing.
    Error(String),
}

/// A host presentation callback: the tool's public descriptor (JSON, after tailoring) and
/// the request.
pub type PresentationFn =
    Arc<dyn Fn(Value, Arc<RequestInfo>) -> BoxFuture<Presentation> + Send + Sync>;

/// The largest title override, in bytes.
pub const MAX_TITLE: usize = 1_024;
/// The largest description override, in bytes.
pub const MAX_DESCRIPTION: usize = 4_096;
/// The deepest `_meta` override.
pub const MAX_META_DEPTH: usize = 64;

fn depth(value: &Value) -> usize {
    match value {
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Checked overrides, ready to apply.
#[derive(Debug, Default)]
pub(crate) struct Overrides {
    title: Option<String>,
    description: Option<String>,
    icons: Option<Vec<Icon>>,
    meta: Option<Map<String, Value>>,
}

/// Validates an override object; the error is the raw cause (for the reporter only).
pub(crate) fn validate(overrides: Map<String, Value>) -> Result<Overrides, String> {
    let mut out = Overrides::default();
    for (key, value) in overrides {
        match key.as_str() {
            "title" => {
                let title = value.as_str().ok_or("`title` must be a string")?;
                if title.is_empty() || title.len() > MAX_TITLE {
                    return Err(format!("`title` must be 1..={MAX_TITLE} bytes"));
                }
                out.title = Some(title.to_owned());
            }
            "description" => {
                let description = value.as_str().ok_or("`description` must be a string")?;
                if description.len() > MAX_DESCRIPTION {
                    return Err(format!(
                        "`description` must be at most {MAX_DESCRIPTION} bytes"
                    ));
                }
                if description.chars().all(char::is_whitespace) {
                    return Err("`description` must not be blank".into());
                }
                out.description = Some(description.to_owned());
            }
            "icons" => {
                validate_icons(&value)?;
                out.icons = Some(serde_json::from_value(value).map_err(|e| e.to_string())?);
            }
            "_meta" => {
                let Value::Object(meta) = value else {
                    return Err("`_meta` must be an object".into());
                };
                for key in meta.keys() {
                    validate_meta_key(key).map_err(|e| format!("`_meta` key `{key}`: {e}"))?;
                }
                // The object itself is one level; measured without copying it.
                if 1 + meta.values().map(depth).max().unwrap_or(0) > MAX_META_DEPTH {
                    return Err(format!("`_meta` is nested deeper than {MAX_META_DEPTH}"));
                }
                out.meta = Some(meta);
            }
            "meta" => return Err("`meta` is not a presentation key; write `_meta`".into()),
            other => {
                return Err(format!(
                    "`{other}` cannot be overridden; only `title`, `description`, `icons` and `_meta`"
                ));
            }
        }
    }
    Ok(out)
}

impl Overrides {
    /// Applies the overrides to a rendered tool (never to the registered definition).
    pub(crate) fn apply(self, tool: &mut Tool) {
        if let Some(title) = self.title {
            tool.title = Some(title);
        }
        if let Some(description) = self.description {
            tool.description = Some(Cow::Owned(description));
        }
        if let Some(icons) = self.icons {
            tool.icons = (!icons.is_empty()).then_some(icons);
        }
        if let Some(meta) = self.meta {
            let merged = tool.meta.get_or_insert_with(MetaObject::default);
            for (key, value) in meta {
                merged.0.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(value: Value) -> Result<Overrides, String> {
        validate(value.as_object().unwrap().clone())
    }

    #[test]
    fn accepted_overrides() {
        assert!(check(json!({})).is_ok());
        assert!(
            check(json!({
                "title": "T",
                "description": "D",
                "icons": [{"src": "https://example.com/i.png"}],
                "_meta": {"com.example/request-purpose": {"nested": [1, 2]}},
            }))
            .is_ok()
        );
        assert!(check(json!({"icons": []})).is_ok());
    }

    #[test]
    fn rejected_overrides_of_spec_c4() {
        let deep = (0..70).fold(json!(1), |inner, _| json!({ "a": inner }));
        for value in [
            json!({"name": "x"}),
            json!({"inputSchema": {}}),
            json!({"outputSchema": {}}),
            json!({"annotations": {}}),
            json!({"execution": {}}),
            json!({"handler": "x"}),
            json!({"scopes": []}),
            json!({"com.example/unknown": 1}),
            json!({"meta": {}}),
            json!({"_meta": {"io.modelcontextprotocol/serverInfo": 1}}),
            json!({"_meta": {"dev.mcp/flag": true}}),
            json!({"_meta": {"progressToken": 1}}),
            json!({"_meta": {"traceparent": "x"}}),
            json!({"_meta": {"_private": 1}}),
            json!({"_meta": [1]}),
            json!({"_meta": {"com.example/deep": deep}}),
            json!({"icons": [{"src": "javascript:alert(1)"}]}),
            json!({"icons": [{"src": "ftp://example.com/i.png"}]}),
            json!({"icons": [{"src": "https://example.com/i.png", "mimeType": "text/html"}]}),
            json!({"title": ""}),
            json!({"title": "x".repeat(1025)}),
            json!({"title": 5}),
            json!({"description": "   "}),
            json!({"description": "\u{3000}\n"}),
            json!({"description": "x".repeat(4097)}),
        ] {
            assert!(
                check(value.clone()).is_err(),
                "{}",
                value.to_string().chars().take(60).collect::<String>()
            );
        }
    }
}
