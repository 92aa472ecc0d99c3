//! A bridged 2025 session's answers (`GatewayState::bridges_sessions`) to an upstream of
//! 2026-07-28 alone that needs input: such an upstream answers `tools/call`,
//! `prompts/get` or `resources/read` with an `input_required` result, which a 2025 client
//! cannot read. Its requests (sampling, elicitation, roots) go to the session's client as
//! the 2025 requests they are, during the client's request, and that request goes upstream
//! again with each answer under its key and the upstream's state.
#![allow(deprecated)] // rmcp marks sampling and roots deprecated (SEP-2577); a proxy relays them still.

use rmcp::ErrorData;
use rmcp::model::{
    ClientRequest, InputRequest, InputRequiredResult, InputResponses, ServerRequest,
};
use rmcp::service::{Peer, RoleServer, ServiceError};

/// How many `input_required` rounds one request may take, as rmcp's own client allows.
pub(crate) const MAX_ROUNDS: usize = rmcp::model::DEFAULT_MRTR_MAX_ROUNDS;

/// Whether `request` can carry a client's answers (`tools/call`, `prompts/get`,
/// `resources/read`).
pub(crate) fn carries_answers(request: &ClientRequest) -> bool {
    matches!(
        request,
        ClientRequest::CallToolRequest(_)
            | ClientRequest::GetPromptRequest(_)
            | ClientRequest::ReadResourceRequest(_)
    )
}

/// `request` (one that [`carries_answers`]) with `answers` and the upstream's `state`, to
/// send again.
pub(crate) fn with_answers(
    request: &mut ClientRequest,
    answers: Option<InputResponses>,
    state: Option<String>,
) {
    match request {
        ClientRequest::CallToolRequest(r) => {
            (r.params.input_responses, r.params.request_state) = (answers, state);
        }
        ClientRequest::GetPromptRequest(r) => {
            (r.params.input_responses, r.params.request_state) = (answers, state);
        }
        ClientRequest::ReadResourceRequest(r) => {
            (r.params.input_responses, r.params.request_state) = (answers, state);
        }
        _ => {}
    }
}

/// The answers of `peer`'s client to what `asked` asks, each under its key, and the state
/// the upstream gave to send back; a request the client refuses is the error it answers.
pub(crate) async fn answered(
    asked: InputRequiredResult,
    peer: &Peer<RoleServer>,
) -> Result<(Option<InputResponses>, Option<String>), ErrorData> {
    let mut answers = InputResponses::new();
    for (key, request) in asked.input_requests.unwrap_or_default() {
        let request = match request {
            InputRequest::CreateMessage(r) => ServerRequest::CreateMessageRequest(r),
            InputRequest::Elicitation(r) => ServerRequest::ElicitRequest(r),
            InputRequest::ListRoots(r) => ServerRequest::ListRootsRequest(r),
            _ => {
                let why = format!("the upstream asked for input `{key}` of a kind not relayed");
                return Err(ErrorData::internal_error(why, None));
            }
        };
        let answer = peer
            .send_request(request)
            .await
            .map_err(|error| match error {
                ServiceError::McpError(error) => error,
                other => {
                    ErrorData::internal_error(format!("the client did not answer: {other}"), None)
                }
            })?;
        let answer = serde_json::to_value(answer)
            .map_err(|e| ErrorData::internal_error(format!("the client's answer: {e}"), None))?;
        answers.insert(key, answer);
    }
    Ok((
        (!answers.is_empty()).then_some(answers),
        asked.request_state,
    ))
}
