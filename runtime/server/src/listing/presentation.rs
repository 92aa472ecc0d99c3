//! Tool presentation: a host callback may override an already-visible tool's
//! title, description, icons and `_meta` per request. Anything else — another key, a
//! wrong type, an invalid value, an error, a panic — fails the whole `tools/list`.

use crate::callbacks::BoxFuture;
use crate::catalog::icons::validate_icons;
use crate::catalog::meta_key::validate_meta_key;
use crate::request::info::RequestInfo;
use rmcp::model::{Icon, MetaObject, Tool};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// A presentation callback's answer for one tool.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
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
pub(crate) type PresentationFn =
    Arc<dyn Fn(Value, Arc<RequestInfo>) -> BoxFuture<Presentation> + Send + Sync>;

/// The largest title override, in bytes.
pub const MAX_TITLE: usize = 1_024;
/// The largest description override, in bytes.
pub const MAX_DESCRIPTION: usize = 4_096;
/// The deepest `_meta` override.
pub const MAX_META_DEPTH: usize = 64;

/// Whether `value` nests objects and arrays deeper than `limit` (a scalar is depth 0, an
/// object of scalars depth 1). Iterative, and it stops at the first level past the limit,
/// so no host output can exhaust the stack.
fn deeper_than(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(map) => Box::new(map.values()),
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        if depth + 1 > limit {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

/// Drops `value` without recursion: serde_json drops nested values recursively, which a
/// deep enough value turns into a stack overflow.
pub(crate) fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
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
    // Refuse any value nested deeper than `_meta` may be (no other key allows as much)
    // before reading it, and take it apart without recursion: a recursive check or drop
    // of a deep enough value overflows. This is `_meta`'s depth rule too.
    if let Some(key) = overrides
        .iter()
        .find(|(_, v)| deeper_than(v, MAX_META_DEPTH))
        .map(|(k, _)| k.clone())
    {
        dismantle(Value::Object(overrides));
        return Err(format!("`{key}` is nested deeper than {MAX_META_DEPTH}"));
    }
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
mod depth_tests {
    use super::*;
    use serde_json::json;

    fn nested(depth: usize) -> Value {
        let mut value = Value::Null;
        for _ in 0..depth {
            value = Value::Array(vec![value]);
        }
        value
    }

    #[test]
    fn depth_is_measured_and_deep_values_are_dropped_without_recursion() {
        assert!(!deeper_than(&json!(1), 0));
        assert!(!deeper_than(&json!({"a": [1]}), 2));
        assert!(deeper_than(&json!({"a": [1]}), 1));
        // Deep enough to overflow a recursive check or drop on any thread stack.
        let meta = |value: Value| {
            let mut meta = Map::new();
            meta.insert("com.example/x".into(), value);
            let mut overrides = Map::new();
            overrides.insert("_meta".into(), Value::Object(meta));
            overrides
        };
        let deep = nested(1_000_000);
        assert!(deeper_than(&deep, 64));
        assert!(validate(meta(deep)).is_err());
        let mut title = Map::new();
        title.insert("title".into(), nested(1_000_000));
        assert!(validate(title).is_err());
        assert!(validate(meta(nested(MAX_META_DEPTH - 1))).is_ok());
        assert!(validate(meta(nested(MAX_META_DEPTH))).is_err());
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
