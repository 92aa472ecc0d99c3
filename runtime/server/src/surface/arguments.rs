//! `call_tool`'s arguments, checked against the named tool's input schema before anything
//! is sent on (`jsonschema`, every draft an MCP schema declares). A call that fails is
//! answered with invalid params naming each failing path and carrying the schema, so a
//! model can retry right; a schema the validator cannot read checks nothing (the tool's
//! own server still checks its call).

use rmcp::ErrorData;
use rmcp::model::{JsonObject, Tool};
use serde_json::{Value, json};

/// `data.reason` of `call_tool` arguments that do not match the tool's input schema
/// (`-32602`).
pub const INVALID_ARGUMENTS: &str = "invalid_arguments";

/// The most failures one answer names.
const MAX_NAMED: usize = 8;

/// `Ok` when `arguments` match `tool`'s input schema (or the schema cannot be read).
pub(crate) fn check(tool: &Tool, arguments: &JsonObject) -> Result<(), ErrorData> {
    let schema = Value::Object((*tool.input_schema).clone());
    let validator = match jsonschema::validator_for(&schema) {
        Ok(validator) => validator,
        Err(error) => {
            tracing::debug!(tool = %tool.name, %error, "an input schema the validator cannot read; arguments unchecked");
            return Ok(());
        }
    };
    let instance = Value::Object(arguments.clone());
    let failures: Vec<Value> = validator
        .iter_errors(&instance)
        .take(MAX_NAMED)
        .map(|error| {
            let path = error.instance_path().to_string();
            json!({
                "path": if path.is_empty() { "/".to_owned() } else { path },
                "message": error.to_string(),
            })
        })
        .collect();
    let Some(first) = failures.first() else {
        return Ok(());
    };
    let message = format!(
        "the arguments of `{}` do not match its input schema: at {}: {}",
        tool.name,
        first["path"].as_str().unwrap_or("/"),
        first["message"].as_str().unwrap_or("")
    );
    Err(ErrorData::invalid_params(
        message,
        Some(json!({
            "reason": INVALID_ARGUMENTS,
            "name": tool.name,
            "errors": failures,
            "inputSchema": schema,
        })),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn tool(schema: Value) -> Tool {
        let Value::Object(schema) = schema else {
            unreachable!()
        };
        Tool::new("move_file", "Move a file.", Arc::new(schema))
    }

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn arguments_are_held_to_the_schema_and_each_failing_path_is_named() {
        let tool = tool(json!({
            "type": "object",
            "properties": {
                "source": {"type": "string"},
                "options": {"type": "object", "properties": {"overwrite": {"type": "boolean"}}},
            },
            "required": ["source"],
        }));
        assert!(check(&tool, &object(json!({"source": "a.txt"}))).is_ok());
        let missing = check(&tool, &object(json!({}))).unwrap_err();
        assert_eq!(missing.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        let data = missing.data.unwrap();
        assert_eq!(data["reason"], INVALID_ARGUMENTS);
        assert_eq!(data["errors"][0]["path"], "/");
        assert!(
            data["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains("source")
        );
        assert_eq!(data["inputSchema"]["required"], json!(["source"]));
        let nested = check(
            &tool,
            &object(json!({"source": "a", "options": {"overwrite": "yes"}})),
        )
        .unwrap_err();
        assert!(
            nested.message.contains("at /options/overwrite"),
            "{}",
            nested.message
        );
    }

    #[test]
    fn a_schema_the_validator_cannot_read_checks_nothing() {
        let tool = tool(
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
        );
        assert!(check(&tool, &object(json!({"a": 1}))).is_ok());
    }
}
