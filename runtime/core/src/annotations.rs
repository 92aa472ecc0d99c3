//! The MCP tool annotations a tool declares with `annotations(...)`, as `rmcp`'s type and
//! as JSON.

use serde_json::{Map, Value};

/// The MCP tool annotations declared with `annotations(...)`; hints, never guarantees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// A human-readable title.
    pub title: Option<&'static str>,
    /// The tool does not modify its environment.
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    pub destructive_hint: Option<bool>,
    /// Repeating a call with the same arguments has no additional effect.
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    pub open_world_hint: Option<bool>,
}

impl Annotations {
    /// The `rmcp` tool annotations.
    #[cfg(feature = "rmcp")]
    pub fn to_rmcp(&self) -> rmcp::model::ToolAnnotations {
        let mut out = rmcp::model::ToolAnnotations::default();
        out.title = self.title.map(str::to_owned);
        out.read_only_hint = self.read_only_hint;
        out.destructive_hint = self.destructive_hint;
        out.idempotent_hint = self.idempotent_hint;
        out.open_world_hint = self.open_world_hint;
        out
    }

    /// The MCP `ToolAnnotations` JSON object (camelCase keys, absent hints omitted).
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        if let Some(title) = self.title {
            out.insert("title".into(), title.into());
        }
        let hints = [
            ("readOnlyHint", self.read_only_hint),
            ("destructiveHint", self.destructive_hint),
            ("idempotentHint", self.idempotent_hint),
            ("openWorldHint", self.open_world_hint),
        ];
        for (key, hint) in hints {
            if let Some(hint) = hint {
                out.insert(key.into(), hint.into());
            }
        }
        Value::Object(out)
    }
}
