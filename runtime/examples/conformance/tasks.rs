//! The suite's task fixtures (the tasks extension, SEP-2663): `#[mcp_tool]` types
//! registered with task support, so that a client declaring the extension gets a task for
//! each call that waits, and polls, updates and cancels it through the layer.

use crate::mrtr::{ask, elicitation};
use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::ErrorData;
use mcp_tailor::server::rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use mcp_tailor::server::{CallContext, ServerBuilder, TaskSupport, ToolRegistration};
use serde_json::{Value, json};
use std::time::Duration;

/// Greets someone (no task: answers at once)
#[mcp_tool(name = "greet")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Greet {
    /// Who to greet.
    name: String,
}

/// Sleeps `seconds`, then answers; stops when the task is cancelled
#[mcp_tool(name = "slow_compute")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SlowCompute {
    /// How long the work takes.
    seconds: f64,
    /// A label echoed in the answer.
    #[serde(default)]
    label: Option<String>,
}

/// Fails with a tool execution error after about a second (task support: required)
#[mcp_tool(name = "failing_job")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct FailingJob {}

/// Fails with a protocol-level error (a panic in the handler)
#[mcp_tool(name = "protocol_error_job")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ProtocolErrorJob {}

/// Asks the user to confirm, in the task, then deletes (task support: required)
#[mcp_tool(name = "confirm_delete")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ConfirmDelete {
    /// The file to delete.
    #[serde(default)]
    filename: Option<String>,
}

/// Asks for two values at once, in the task (task support: required)
#[mcp_tool(name = "multi_input")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct MultiInput {}

/// Asks for a name (input-required round), then greets as a task (task support: required)
#[mcp_tool(name = "test_tool_with_task")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ToolWithTask {}

fn text(text: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

/// The string `field` of an elicitation answer's `content`.
fn answered(answer: &Value, field: &str) -> Option<String> {
    answer
        .get("content")?
        .get(field)?
        .as_str()
        .map(str::to_owned)
}

async fn greet(args: Greet, _: CallContext) -> CallToolResult {
    text(format!("Hello, {}!", args.name))
}

async fn slow_compute(args: SlowCompute, call: CallContext) -> Result<CallToolResult, String> {
    let label = args.label.unwrap_or_else(|| "compute".into());
    tokio::select! {
        () = call.cancelled() => Err(format!("slow_compute({label}) cancelled")),
        () = tokio::time::sleep(Duration::from_secs_f64(args.seconds.max(0.0))) => {
            Ok(text(format!("slow_compute({label}) done after {}s", args.seconds)))
        }
    }
}

async fn failing_job(_: FailingJob, _: CallContext) -> Result<CallToolResult, String> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err("failing_job: intentional tool execution error".into())
}

async fn protocol_error_job(_: ProtocolErrorJob, _: CallContext) -> CallToolResult {
    tokio::time::sleep(Duration::from_millis(200)).await;
    panic!("protocol_error_job: intentional protocol-level failure")
}

async fn confirm_delete(
    args: ConfirmDelete,
    call: CallContext,
) -> Result<CallToolResult, ErrorData> {
    let filename = args.filename.unwrap_or_else(|| "file.txt".into());
    let question = elicitation(
        &format!("Delete {filename}?"),
        json!({"confirm": {"type": "boolean"}}),
        json!(["confirm"]),
    );
    let answer = call.task_input("confirm", question).await?;
    let confirmed = answer
        .get("content")
        .and_then(|c| c.get("confirm"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(text(format!(
        "confirm_delete({filename}): confirmed = {confirmed}"
    )))
}

async fn multi_input(_: MultiInput, call: CallContext) -> Result<CallToolResult, ErrorData> {
    let value = |message: &str| {
        elicitation(
            message,
            json!({"value": {"type": "string"}}),
            json!(["value"]),
        )
    };
    let (a, b) = tokio::join!(
        call.task_input("input-a", value("Provide value A")),
        call.task_input("input-b", value("Provide value B")),
    );
    let (a, b) = (a?, b?);
    let get = |answer: &Value| answered(answer, "value").unwrap_or_else(|| "(none)".into());
    Ok(text(format!(
        "multi_input: a = {}, b = {}",
        get(&a),
        get(&b)
    )))
}

async fn tool_with_task(_: ToolWithTask, call: CallContext) -> CallToolResponse {
    let name = call
        .input_responses()
        .and_then(|responses| responses.get("user_name"))
        .and_then(|answer| answered(answer, "name"));
    let Some(name) = name else {
        let question = elicitation(
            "What is your name?",
            json!({"name": {"type": "string"}}),
            json!(["name"]),
        );
        return ask("user_name", question);
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    text(format!("Hello, {name}! (async)")).into()
}

/// Registers the task fixtures.
pub fn register<H>(builder: ServerBuilder<H>) -> ServerBuilder<H>
where
    H: mcp_tailor::server::rmcp::ServerHandler + Clone,
{
    let optional = TaskSupport::Optional;
    let required = TaskSupport::Required;
    builder
        .tool(greet)
        .register(ToolRegistration::new(slow_compute).tasks(optional))
        .register(ToolRegistration::new(failing_job).tasks(required))
        .register(ToolRegistration::new(protocol_error_job).tasks(optional))
        .register(ToolRegistration::new(confirm_delete).tasks(required))
        .register(ToolRegistration::new(multi_input).tasks(required))
        .register(ToolRegistration::new(tool_with_task).tasks(required))
}
