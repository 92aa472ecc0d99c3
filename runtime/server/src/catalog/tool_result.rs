//! What a tool handler may return, and the output schema a return type publishes.
//!
//! The conventions are rmcp's: a [`CallToolResult`] (text, image, audio, embedded
//! resources, mixed content), a [`Json<T>`](rmcp::Json) for typed structured output
//! (the tool then publishes `outputSchema`), an [`InputRequiredResult`] for 2026-07-28
//! input requests, and `Result`s whose `Err` side is a tool error the model reads.

use rmcp::ErrorData;
use rmcp::Json;
use rmcp::handler::server::common::schema_for_output;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, InputRequiredResult, JsonObject,
};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

/// What a tool handler may return.
pub trait IntoToolResult {
    /// The MCP result, or a protocol error.
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData>;

    /// The `outputSchema` a tool returning this type publishes, if any.
    fn output_schema() -> Option<Arc<JsonObject>> {
        None
    }
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(self.into())
    }
}

impl IntoToolResult for CallToolResponse {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(self)
    }
}

/// A 2026-07-28 result asking the client for input before the call can finish.
impl IntoToolResult for InputRequiredResult {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(self.into())
    }
}

/// `Err` is a protocol error (JSON-RPC), which models usually never read.
impl<T: IntoToolResult> IntoToolResult for Result<T, ErrorData> {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.and_then(T::into_tool_result)
    }

    fn output_schema() -> Option<Arc<JsonObject>> {
        T::output_schema()
    }
}

/// Structured output: the value as `structuredContent` (and as text), with `T`'s schema
/// published as the tool's `outputSchema`.
impl<T: Serialize + schemars::JsonSchema + 'static> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        let value = serde_json::to_value(self.0).map_err(|e| {
            ErrorData::internal_error(format!("could not serialize the tool's result: {e}"), None)
        })?;
        Ok(CallToolResult::structured(value).into())
    }

    fn output_schema() -> Option<Arc<JsonObject>> {
        Some(schema_for_output::<T>())
    }
}

/// `Ok(Json(value))`: structured output; `Err(message)`: a tool error the model reads.
impl<T: Serialize + schemars::JsonSchema + 'static> IntoToolResult for Result<Json<T>, String> {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Ok(json) => json.into_tool_result(),
            Err(message) => Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into()),
        }
    }

    fn output_schema() -> Option<Arc<JsonObject>> {
        Json::<T>::output_schema()
    }
}

/// `Ok(value)`: an object is structured content (also as text), anything else is text;
/// `Err(message)`: a tool error the model reads (`isError: true`), not a protocol error.
impl IntoToolResult for Result<Value, String> {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(match self {
            Ok(value) if value.is_object() => CallToolResult::structured(value),
            Ok(value) => CallToolResult::success(vec![ContentBlock::text(value.to_string())]),
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        }
        .into())
    }
}

/// `Ok(result)` as it is; `Err(message)`: a tool error the model reads.
impl IntoToolResult for Result<CallToolResult, String> {
    fn into_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(match self {
            Ok(result) => result,
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        }
        .into())
    }
}
