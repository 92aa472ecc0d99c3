//! A command upstream's message read into rmcp's types from its JSON, which is parsed once
//! (the same JSON is kept as written): an answer as a result of the request it answers,
//! anything else as rmcp reads it. rmcp reads a result by trying every result type in turn
//! (an untagged enum, each miss a serde error), which was a tenth of the gateway's CPU per
//! forwarded tool call; knowing what was asked, one or two types are tried, then rmcp's
//! own reading if neither fits.

use mcp_tailor_core::seam::Locked;
use rmcp::model::*;
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use serde::Deserialize as _;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A request whose answer is read as its own result type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ResultKind {
    CallTool,
    GetPrompt,
    ReadResource,
    ListTools,
    ListPrompts,
    ListResources,
    ListResourceTemplates,
    Complete,
}

impl ResultKind {
    /// What `request` asks, when its answer is read so.
    pub(crate) fn of(request: &ClientRequest) -> Option<Self> {
        Some(match request {
            ClientRequest::CallToolRequest(_) => ResultKind::CallTool,
            ClientRequest::GetPromptRequest(_) => ResultKind::GetPrompt,
            ClientRequest::ReadResourceRequest(_) => ResultKind::ReadResource,
            ClientRequest::ListToolsRequest(_) => ResultKind::ListTools,
            ClientRequest::ListPromptsRequest(_) => ResultKind::ListPrompts,
            ClientRequest::ListResourcesRequest(_) => ResultKind::ListResources,
            ClientRequest::ListResourceTemplatesRequest(_) => ResultKind::ListResourceTemplates,
            ClientRequest::CompleteRequest(_) => ResultKind::Complete,
            _ => return None,
        })
    }

    /// `result` as this request's result type: the complete result first, then the others
    /// it may answer with ("input required", a task); `None` when none fits.
    fn read(self, result: &Value) -> Option<ServerResult> {
        fn as_a<T: serde::de::DeserializeOwned>(result: &Value) -> Option<T> {
            T::deserialize(result).ok()
        }
        let input = || as_a(result).map(ServerResult::InputRequiredResult);
        match self {
            ResultKind::CallTool => as_a(result)
                .map(ServerResult::CallToolResult)
                .or_else(input)
                .or_else(|| as_a(result).map(ServerResult::CreateTaskResult)),
            ResultKind::GetPrompt => as_a(result)
                .map(ServerResult::GetPromptResult)
                .or_else(input),
            ResultKind::ReadResource => as_a(result)
                .map(ServerResult::ReadResourceResult)
                .or_else(input),
            ResultKind::ListTools => as_a(result).map(ServerResult::ListToolsResult),
            ResultKind::ListPrompts => as_a(result).map(ServerResult::ListPromptsResult),
            ResultKind::ListResources => as_a(result).map(ServerResult::ListResourcesResult),
            ResultKind::ListResourceTemplates => {
                as_a(result).map(ServerResult::ListResourceTemplatesResult)
            }
            ResultKind::Complete => as_a(result).map(ServerResult::CompleteResult),
        }
    }
}

/// How many requests in flight are remembered (past this, answers are read as rmcp reads
/// them: an upstream that never answers cannot grow it).
const REMEMBERED: usize = 1_024;

/// What each request in flight upstream asked, by id, from when it is sent until its
/// answer is read.
#[derive(Clone, Default)]
pub(crate) struct AwaitingAnswers(Arc<Mutex<HashMap<RequestId, ResultKind>>>);

impl AwaitingAnswers {
    /// Remembers what `message` asks, when it is a request whose answer is read so.
    pub(crate) fn sent(&self, message: &TxJsonRpcMessage<RoleClient>) {
        let JsonRpcMessage::Request(request) = message else {
            return;
        };
        let Some(asked) = ResultKind::of(&request.request) else {
            return;
        };
        let mut asked_by_id = self.0.locked();
        if asked_by_id.len() >= REMEMBERED {
            asked_by_id.clear();
        }
        asked_by_id.insert(request.id.clone(), asked);
    }

    /// `message` (as written) read into rmcp's types: an answer to a request remembered
    /// as that request's result, anything else as rmcp reads it.
    pub(crate) fn read(&self, message: &Value) -> serde_json::Result<RxJsonRpcMessage<RoleClient>> {
        read(message, |id| {
            let mut asked_by_id = self.0.locked();
            asked_by_id.remove(id)
        })
    }
}

/// `message` (as written) read into rmcp's types: a JSON-RPC 2.0 answer with a result as
/// the result of what the request it answers asked (`asked`, told its id), anything else
/// (or a result that fits no type asked) as rmcp reads it.
pub(crate) fn read(
    message: &Value,
    asked: impl FnOnce(&RequestId) -> Option<ResultKind>,
) -> serde_json::Result<RxJsonRpcMessage<RoleClient>> {
    if let (Some(id), Some(result)) = (message.get("id"), message.get("result"))
        && message.get("method").is_none()
        && message.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && let Ok(id) = RequestId::deserialize(id)
        && let Some(result) = asked(&id).and_then(|asked| asked.read(result))
    {
        return Ok(JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: JsonRpcVersion2_0,
            id,
            result,
        }));
    }
    RxJsonRpcMessage::<RoleClient>::deserialize(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn asked(request: ClientRequest, id: i64) -> AwaitingAnswers {
        let in_flight = AwaitingAnswers::default();
        in_flight.sent(&JsonRpcMessage::request(request, RequestId::Number(id)));
        in_flight
    }

    fn call() -> ClientRequest {
        ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("t")))
    }

    /// The answer `raw` read as rmcp reads it, and as read knowing what was asked.
    fn both(request: ClientRequest, raw: Value) -> (ServerResult, ServerResult) {
        let message = json!({"jsonrpc": "2.0", "id": 7, "result": raw});
        let theirs = match RxJsonRpcMessage::<RoleClient>::deserialize(&message).unwrap() {
            JsonRpcMessage::Response(response) => response.result,
            other => panic!("not an answer: {other:?}"),
        };
        let ours = match asked(request, 7).read(&message).unwrap() {
            JsonRpcMessage::Response(response) => response.result,
            other => panic!("not an answer: {other:?}"),
        };
        (theirs, ours)
    }

    #[test]
    fn an_answer_reads_as_rmcp_reads_it() {
        let answers = [
            json!({"content": [{"type": "text", "text": "hi"}]}),
            json!({"content": [], "isError": true, "structuredContent": null}),
            json!({"resultType": "input_required", "inputRequests": {}}),
            json!({"resultType": "task", "taskId": "1", "status": "working",
                "createdAt": "2026-01-01T00:00:00Z", "lastUpdatedAt": "2026-01-01T00:00:00Z"}),
        ];
        let mut kinds = Vec::new();
        for raw in answers {
            let (theirs, ours) = both(call(), raw);
            kinds.push(std::mem::discriminant(&ours));
            same((theirs, ours));
        }
        let kind = |result: ServerResult| std::mem::discriminant(&result);
        assert_eq!(
            kinds,
            [
                kind(ServerResult::CallToolResult(CallToolResult::default())),
                kind(ServerResult::CallToolResult(CallToolResult::default())),
                kind(ServerResult::InputRequiredResult(InputRequiredResult::new(
                    None, None
                ))),
                kind(ServerResult::CreateTaskResult(CreateTaskResult::new(
                    Task::new("1", TaskStatus::Working, "", "")
                ))),
            ]
        );
        let listing = json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]});
        let (theirs, ours) = both(ClientRequest::ListToolsRequest(Default::default()), listing);
        assert!(matches!(ours, ServerResult::ListToolsResult(_)));
        same((theirs, ours));
    }

    /// Both read as the same type, holding the same.
    fn same((theirs, ours): (ServerResult, ServerResult)) {
        assert_eq!(
            std::mem::discriminant(&ours),
            std::mem::discriminant(&theirs)
        );
        assert_eq!(
            serde_json::to_value(&ours).unwrap(),
            serde_json::to_value(&theirs).unwrap()
        );
    }

    #[test]
    fn what_fits_no_type_asked_and_everything_else_read_as_rmcp_reads_it() {
        // A call answered with what no call result is: rmcp's reading.
        same(both(call(), json!({"other": 1})));
        let in_flight = asked(call(), 1);
        let error = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no"}});
        assert!(matches!(
            in_flight.read(&error),
            Ok(JsonRpcMessage::Error(_))
        ));
        let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": 1, "progress": 1}});
        assert!(matches!(
            in_flight.read(&progress),
            Ok(JsonRpcMessage::Notification(_))
        ));
        // Not JSON-RPC 2.0: refused as rmcp refuses it, asked for or not.
        let in_flight = asked(call(), 2);
        let old = json!({"jsonrpc": "1.0", "id": 2, "result": {"content": []}});
        assert!(RxJsonRpcMessage::<RoleClient>::deserialize(&old).is_err());
        assert!(in_flight.read(&old).is_err());
        // An answer nobody asked for here (the handshake's) is rmcp's to read.
        let unasked = json!({"jsonrpc": "2.0", "id": 9, "result": {"content": []}});
        assert!(in_flight.read(&unasked).is_ok());
    }

    #[test]
    fn an_answer_is_forgotten_once_read_and_requests_never_answered_are_bounded() {
        let in_flight = asked(call(), 1);
        let answer = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}});
        in_flight.read(&answer).unwrap();
        assert!(in_flight.0.lock().unwrap().is_empty());
        for id in 0..(REMEMBERED as i64 + 10) {
            in_flight.sent(&JsonRpcMessage::request(call(), RequestId::Number(id)));
        }
        assert!(in_flight.0.lock().unwrap().len() <= REMEMBERED);
    }
}
