//! The suite's content, logging, progress, sampling, elicitation and notification tools,
//! each an `#[mcp_tool]` type with its handler.
#![allow(deprecated)] // rmcp marks logging and sampling deprecated (SEP-2577).

use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::ErrorData;
use mcp_tailor::server::rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, CreateMessageRequestParams,
    ElicitRequestParams, ElicitationAction, ElicitationSchema, LoggingLevel, ResourceContents,
    SamplingMessage,
};
use mcp_tailor::server::{CallContext, ServerBuilder};
use serde_json::{Value, json};
use std::time::Duration;

/// A 1×1 red PNG.
pub const IMAGE: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";
/// A short silent WAV.
const AUDIO: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

/// The one tool every reader reads differently: terse, rich, and a wording for codex.
#[mcp_tool(
    name = "test_simple_text",
    title = [(verbosity(0..=4), "Simple text"), (verbosity(5..=9), "Simple text response")],
    description = [
        (verbosity(0..=2), "Returns text."),
        (verbosity(3..=6), "Returns simple text content"),
        (verbosity(7..=9), "Returns one text content block, the same on every call; no arguments."),
    ],
    descriptions = [codex_text = "test_simple_text() -> text"],
    runners = [((codex, _), [default = codex_text])],
    annotations(read_only_hint = true, idempotent_hint = true),
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SimpleText {}

/// Returns image content
#[mcp_tool(name = "test_image_content")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ImageContent {}

/// Returns audio content
#[mcp_tool(name = "test_audio_content")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AudioContent {}

/// Returns embedded resource content
#[mcp_tool(name = "test_embedded_resource")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EmbeddedResource {}

/// Returns multiple content types
#[mcp_tool(name = "test_multiple_content_types")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct MultipleContentTypes {}

/// Sends logging notifications during execution
#[mcp_tool(name = "test_tool_with_logging")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ToolWithLogging {}

/// Always returns an error
#[mcp_tool(name = "test_error_handling")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ErrorHandling {}

/// Reports progress notifications
#[mcp_tool(name = "test_tool_with_progress")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ToolWithProgress {}

/// Requests LLM sampling from client
#[mcp_tool(name = "test_sampling")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Sampling {
    #[mcp(description = [(verbosity(0..=3), "prompt"), (verbosity(4..=9), "The prompt to send")])]
    prompt: String,
}

/// Requests user input from client
#[mcp_tool(name = "test_elicitation")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Elicitation {
    /// The message to show
    message: String,
}

/// Tests elicitation with default values (SEP-1034)
#[mcp_tool(name = "test_elicitation_sep1034_defaults")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ElicitationDefaults {}

/// Tests enum schema improvements (SEP-1330)
#[mcp_tool(name = "test_elicitation_sep1330_enums")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ElicitationEnums {}

/// Tests SSE reconnection behavior
#[mcp_tool(name = "test_reconnection")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Reconnection {}

/// Validates SEP-2243 custom parameter headers
#[mcp_tool(name = "test_custom_header")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct CustomHeader {
    /// The value, also sent as the `Mcp-Param-Value` header.
    #[schemars(extend("x-mcp-header" = "Value"))]
    value: String,
}

/// Triggers a tools/list_changed notification on matching subscriptions
#[mcp_tool(name = "test_trigger_tool_change")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct TriggerToolChange {}

/// Requires the sampling client capability
#[mcp_tool(name = "test_missing_capability")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct MissingCapability {}

/// Returns an input_required result containing an elicitation request
#[mcp_tool(name = "test_streaming_elicitation")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct StreamingElicitation {}

/// Emits notifications/message only when logLevel is requested
#[mcp_tool(name = "test_logging_tool")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct LoggingTool {}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn text_resource(uri: &str, mime: &str, text: &str) -> ContentBlock {
    ContentBlock::resource(ResourceContents::TextResourceContents {
        uri: uri.into(),
        mime_type: Some(mime.into()),
        text: text.into(),
        meta: None,
    })
}

/// An elicitation form for `schema`; answered as "User response: action=…, content=…".
async fn elicit(call: &CallContext, message: &str, schema: Value, label: &str) -> CallToolResult {
    let schema: ElicitationSchema = match serde_json::from_value(schema) {
        Ok(schema) => schema,
        Err(e) => return CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
    };
    let params = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.into(),
        requested_schema: schema,
    };
    match call.elicit(params).await {
        Ok(result) => {
            let action = match result.action {
                ElicitationAction::Accept => "accept",
                ElicitationAction::Decline => "decline",
                ElicitationAction::Cancel => "cancel",
                _ => "unknown",
            };
            text(format!(
                "{label}: action={action}, content={:?}",
                result.content
            ))
        }
        Err(e) => {
            CallToolResult::error(vec![ContentBlock::text(format!("Elicitation error: {e}"))])
        }
    }
}

/// Registers every tool of this file.
async fn simple_text(_: SimpleText, _: CallContext) -> CallToolResult {
    text("This is a simple text response for testing.")
}

async fn image_content(_: ImageContent, _: CallContext) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::image(IMAGE, "image/png")])
}

async fn audio_content(_: AudioContent, _: CallContext) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::audio(AUDIO, "audio/wav")])
}

async fn embedded_resource(_: EmbeddedResource, _: CallContext) -> CallToolResult {
    CallToolResult::success(vec![text_resource(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )])
}

async fn multiple_content_types(_: MultipleContentTypes, _: CallContext) -> CallToolResult {
    CallToolResult::success(vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(IMAGE, "image/png"),
        text_resource(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ])
}

async fn tool_with_logging(_: ToolWithLogging, call: CallContext) -> CallToolResult {
    for message in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ] {
        call.log(LoggingLevel::Info, message).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    text("Logging test completed")
}

async fn error_handling(_: ErrorHandling, _: CallContext) -> Result<Value, String> {
    Err::<Value, _>("This tool intentionally returns an error for testing".to_owned())
}

async fn tool_with_progress(_: ToolWithProgress, call: CallContext) -> CallToolResult {
    for (progress, message) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Complete")] {
        call.progress(progress, Some(100.0), Some(message)).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    text("Progress test completed")
}

async fn sampling(args: Sampling, call: CallContext) -> CallToolResult {
    let params =
        CreateMessageRequestParams::new(vec![SamplingMessage::user_text(args.prompt)], 100);
    match call.sample(params).await {
        Ok(result) => {
            let answer = result
                .message
                .content
                .first()
                .and_then(|c| c.as_text())
                .map_or_else(|| "No text response".to_owned(), |t| t.text.clone());
            text(format!("LLM response: {answer}"))
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("Sampling error: {e}"))]),
    }
}

async fn elicitation(args: Elicitation, call: CallContext) -> CallToolResult {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    });
    elicit(&call, &args.message, schema, "User response").await
}

async fn elicitation_defaults(_: ElicitationDefaults, call: CallContext) -> CallToolResult {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User's name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User's age", "default": 30},
            "score": {"type": "number", "description": "User's score", "default": 95.5},
            "status": {
                "type": "string", "description": "User's status",
                "enum": ["active", "inactive", "pending"], "default": "active"
            },
            "verified": {"type": "boolean", "description": "Whether user is verified", "default": true}
        }
    });
    elicit(
        &call,
        "Please provide values (all have defaults)",
        schema,
        "Elicitation completed",
    )
    .await
}

async fn elicitation_enums(_: ElicitationEnums, call: CallContext) -> CallToolResult {
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"}
            ]},
            "legacyEnum": {
                "type": "string", "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": [
                {"const": "value1", "title": "First Choice"},
                {"const": "value2", "title": "Second Choice"},
                {"const": "value3", "title": "Third Choice"}
            ]}}
        }
    });
    elicit(
        &call,
        "Test enum schema improvements",
        schema,
        "Enum elicitation completed",
    )
    .await
}

async fn reconnection(_: Reconnection, _: CallContext) -> CallToolResult {
    tokio::time::sleep(Duration::from_millis(100)).await;
    text("Reconnection test completed")
}

async fn custom_header(args: CustomHeader, _: CallContext) -> CallToolResult {
    text(args.value)
}

async fn trigger_tool_change(_: TriggerToolChange, call: CallContext) -> CallToolResult {
    call.notify_tool_list_changed().await;
    text("Tool list change triggered")
}

async fn missing_capability(
    _: MissingCapability,
    call: CallContext,
) -> Result<CallToolResult, ErrorData> {
    let declared = call.meta().client_capabilities().unwrap_or_default();
    if declared.sampling.is_none() {
        return Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_sampling().build(),
        ));
    }
    Ok(text("Required capability declared"))
}

async fn streaming_elicitation(_: StreamingElicitation, _: CallContext) -> CallToolResponse {
    crate::mrtr::ask(
        "streaming_elicitation",
        crate::mrtr::elicitation(
            "Provide a value",
            json!({"value": {"type": "string"}}),
            json!(["value"]),
        ),
    )
}

async fn logging_tool(_: LoggingTool, call: CallContext) -> CallToolResult {
    if let Some(level) = call.meta().log_level() {
        call.log(level, "logLevel was requested").await;
    }
    text("Logging tool completed")
}

pub fn register<H>(builder: ServerBuilder<H>) -> ServerBuilder<H>
where
    H: mcp_tailor::server::rmcp::ServerHandler + Clone,
{
    builder
        .tool(simple_text)
        .tool(image_content)
        .tool(audio_content)
        .tool(embedded_resource)
        .tool(multiple_content_types)
        .tool(tool_with_logging)
        .tool(error_handling)
        .tool(tool_with_progress)
        .tool(sampling)
        .tool(elicitation)
        .tool(elicitation_defaults)
        .tool(elicitation_enums)
        .tool(reconnection)
        .tool(custom_header)
        .tool(trigger_tool_change)
        .tool(missing_capability)
        .tool(streaming_elicitation)
        .tool(logging_tool)
}
