//! The suite's 2026-07-28 input-required tools (SEP-2322): each answers with an
//! `InputRequiredResult` until the client retries with the input responses it asked for
//! (and, where used, the sealed `requestState` it handed out).
#![allow(deprecated)] // rmcp marks sampling and roots deprecated (SEP-2577).

use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::ErrorData;
use mcp_tailor::server::rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, CreateMessageRequest,
    CreateMessageRequestParams, ElicitRequest, ElicitRequestParams, InputRequest, InputRequests,
    InputRequiredResult, ListRootsRequest, RequestStateCodec, SamplingMessage,
};
use mcp_tailor::server::{CallContext, ServerBuilder};
use serde_json::{Map, Value, json};

/// The key sealing `requestState`. A fixed key suits a test server; a real one loads a
/// secret its clients cannot read.
const STATE_KEY: &[u8] = b"mcp-tailor-conformance-request-state-key";

/// An elicitation input request: a form with `properties`, of which `required` are.
pub fn elicitation(message: &str, properties: Value, required: Value) -> InputRequest {
    let schema = json!({"type": "object", "properties": properties, "required": required});
    InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.into(),
            requested_schema: serde_json::from_value(schema).expect("a valid elicitation schema"),
        },
    ))
}

fn sampling(prompt: &str) -> InputRequest {
    InputRequest::CreateMessage(CreateMessageRequest::new(CreateMessageRequestParams::new(
        vec![SamplingMessage::user_text(prompt)],
        100,
    )))
}

fn roots() -> InputRequest {
    InputRequest::ListRoots(ListRootsRequest::default())
}

/// An `InputRequiredResult` asking for one input.
pub fn input_required(key: &str, request: InputRequest) -> InputRequiredResult {
    let mut requests = InputRequests::new();
    requests.insert(key.into(), request);
    InputRequiredResult::from_input_requests(requests)
}

/// A tool's answer asking for one input.
pub fn ask(key: &str, request: InputRequest) -> CallToolResponse {
    input_required(key, request).into()
}

fn ask_sealed(requests: InputRequests, state: Value) -> Result<CallToolResponse, ErrorData> {
    let sealed = codec()
        .seal_json(&state)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
}

fn codec() -> RequestStateCodec {
    RequestStateCodec::new_unchecked(STATE_KEY)
}

fn tampered() -> ErrorData {
    ErrorData::invalid_params("requestState failed integrity verification", None)
}

/// A usable response (an object: an `ElicitResult`, `CreateMessageResult` or
/// `ListRootsResult`); anything else counts as missing, so it is asked for again.
fn response<'a>(call: &'a CallContext, key: &str) -> Option<&'a Map<String, Value>> {
    call.input_responses()?.get(key)?.as_object()
}

fn content_str<'a>(response: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    response.get("content")?.get(field)?.as_str()
}

fn done(text: impl Into<String>) -> Result<CallToolResponse, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}

/// Requires an elicitation input via InputRequiredResult (SEP-2322)
#[mcp_tool(name = "test_input_required_result_elicitation")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AskElicitation {}

/// Requires a sampling input via InputRequiredResult (SEP-2322)
#[mcp_tool(name = "test_input_required_result_sampling")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AskSampling {}

/// Requires a roots/list input via InputRequiredResult (SEP-2322)
#[mcp_tool(name = "test_input_required_result_list_roots")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AskRoots {}

/// Round-trips integrity-protected requestState (SEP-2322)
#[mcp_tool(name = "test_input_required_result_request_state")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct RequestState {}

/// Rejects tampered requestState with a JSON-RPC error (SEP-2322)
#[mcp_tool(name = "test_input_required_result_tampered_state")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct TamperedState {}

/// Requires elicitation + sampling + roots inputs in one round (SEP-2322)
#[mcp_tool(name = "test_input_required_result_multiple_inputs")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct MultipleInputs {}

/// Drives multiple input_required rounds with evolving requestState (SEP-2322)
#[mcp_tool(name = "test_input_required_result_multi_round")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct MultiRound {}

/// Only requests inputs for declared client capabilities (SEP-2322)
#[mcp_tool(name = "test_input_required_result_capabilities")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Capabilities {}

fn ask_name() -> InputRequest {
    elicitation(
        "What is your name?",
        json!({"name": {"type": "string"}}),
        json!(["name"]),
    )
}

/// The confirmation flow shared by the request-state and tampered-state tools.
fn confirm(call: &CallContext) -> Result<CallToolResponse, ErrorData> {
    match call.request_state() {
        None => {
            let mut requests = InputRequests::new();
            requests.insert(
                "confirm".into(),
                elicitation(
                    "Please confirm",
                    json!({"ok": {"type": "boolean"}}),
                    json!(["ok"]),
                ),
            );
            ask_sealed(requests, json!({"stage": "confirm"}))
        }
        Some(sealed) => {
            codec().open(sealed).map_err(|_| tampered())?;
            done("Confirmed: state-ok")
        }
    }
}

/// Registers every tool of this file.
async fn ask_elicitation(
    _: AskElicitation,
    call: CallContext,
) -> Result<CallToolResponse, ErrorData> {
    match response(&call, "user_name") {
        Some(r) => done(format!(
            "Hello, {}!",
            content_str(r, "name").unwrap_or("friend")
        )),
        None => Ok(ask("user_name", ask_name())),
    }
}

async fn ask_sampling(_: AskSampling, call: CallContext) -> Result<CallToolResponse, ErrorData> {
    match response(&call, "capital_question") {
        Some(r) => done(format!(
            "Sampling response: {}",
            content_str(r, "text").unwrap_or("(no sampling text)")
        )),
        None => Ok(ask(
            "capital_question",
            sampling("What is the capital of France?"),
        )),
    }
}

async fn ask_roots(_: AskRoots, call: CallContext) -> Result<CallToolResponse, ErrorData> {
    match response(&call, "client_roots") {
        Some(r) => {
            let uris: Vec<&str> = r
                .get("roots")
                .and_then(Value::as_array)
                .map(|roots| {
                    roots
                        .iter()
                        .filter_map(|r| r.get("uri")?.as_str())
                        .collect()
                })
                .unwrap_or_default();
            done(format!("Client roots: [{}]", uris.join(", ")))
        }
        None => Ok(ask("client_roots", roots())),
    }
}

async fn request_state(_: RequestState, call: CallContext) -> Result<CallToolResponse, ErrorData> {
    confirm(&call)
}

async fn tampered_state(
    _: TamperedState,
    call: CallContext,
) -> Result<CallToolResponse, ErrorData> {
    confirm(&call)
}

async fn multiple_inputs(
    _: MultipleInputs,
    call: CallContext,
) -> Result<CallToolResponse, ErrorData> {
    if let Some(sealed) = call.request_state() {
        codec().open(sealed).map_err(|_| tampered())?;
    }
    let all = ["user_name", "greeting", "client_roots"]
        .iter()
        .all(|key| response(&call, key).is_some());
    if all && call.request_state().is_some() {
        return done("All inputs received");
    }
    let mut requests = InputRequests::new();
    requests.insert("user_name".into(), ask_name());
    requests.insert("greeting".into(), sampling("Generate a greeting"));
    requests.insert("client_roots".into(), roots());
    ask_sealed(requests, json!({"stage": "gather"}))
}

async fn multi_round(_: MultiRound, call: CallContext) -> Result<CallToolResponse, ErrorData> {
    let round = match call.request_state() {
        None => 0,
        Some(sealed) => {
            let state: Value = codec().open_json(sealed).map_err(|_| tampered())?;
            state.get("round").and_then(Value::as_i64).unwrap_or(0)
        }
    };
    let (key, message, field) = match round {
        0 => ("step1", "Step 1: What is your name?", "name"),
        1 => ("step2", "Step 2: What is your favorite color?", "color"),
        _ => return done("Multi-round flow complete"),
    };
    let mut requests = InputRequests::new();
    requests.insert(
        key.into(),
        elicitation(
            message,
            json!({ field: {"type": "string"} }),
            json!([field]),
        ),
    );
    ask_sealed(requests, json!({"round": round + 1}))
}

async fn capabilities(_: Capabilities, call: CallContext) -> Result<CallToolResponse, ErrorData> {
    if call.input_responses().is_some() {
        return done("Capability-aware flow complete");
    }
    // Only ask for what the client declared it can answer.
    let declared = call.meta().client_capabilities().unwrap_or_default();
    let mut requests = InputRequests::new();
    if declared.elicitation.is_some() {
        requests.insert("user_name".into(), ask_name());
    }
    if declared.sampling.is_some() {
        requests.insert("greeting".into(), sampling("Generate a greeting"));
    }
    if declared.roots.is_some() {
        requests.insert("client_roots".into(), roots());
    }
    if requests.is_empty() {
        done("Client declared no MRTR-capable capabilities")
    } else {
        Ok(InputRequiredResult::from_input_requests(requests).into())
    }
}

pub fn register<H>(builder: ServerBuilder<H>) -> ServerBuilder<H>
where
    H: mcp_tailor::server::rmcp::ServerHandler + Clone,
{
    builder
        .tool(ask_elicitation)
        .tool(ask_sampling)
        .tool(ask_roots)
        .tool(request_state)
        .tool(tampered_state)
        .tool(multiple_inputs)
        .tool(multi_round)
        .tool(capabilities)
}
