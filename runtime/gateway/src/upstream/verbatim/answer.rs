//! How a forwarded request's answer is read from the upstream's result: as the type the
//! layer's handler method returns, carrying what that type could not hold of the result
//! as written (`server::verbatim`).

use mcp_tailor_server::reason::UPSTREAM_FAILURE;
use mcp_tailor_server::seam::internal;
use mcp_tailor_server::seam::verbatim;
use rmcp::ErrorData;
use rmcp::model::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// What a forwarded request is answered with, read from the upstream's result.
pub(crate) trait Answer: Sized {
    fn read(result: ServerResult) -> Result<Self, ErrorData>;

    /// Carries what this answer could not hold of `written` (the result as the upstream
    /// wrote it) in its `_meta`, to be put back where it is written.
    fn keep_verbatim(&mut self, _written: &Value) {}
}

/// A plain result: taken as it came when rmcp parsed it as the one asked for; else (rmcp
/// parses an answer as the first shape it fits) read again as that one.
macro_rules! plain_answers {
    ($($result:ident),*) => {$(
        impl Answer for $result {
            fn read(result: ServerResult) -> Result<Self, ErrorData> {
                match result {
                    ServerResult::$result(result) => Ok(result),
                    other => reread(other),
                }
            }

            fn keep_verbatim(&mut self, written: &Value) {
                verbatim::keep_in_meta(self, written, |result| &mut result.meta);
            }
        }
    )*};
}

// (`ReadResourceDirectoryResult` is `ListResourcesResult`.)
plain_answers!(
    CompleteResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    GetTaskResult,
    ListSkillsResult,
    GetSkillResult
);

/// A custom result is the upstream's JSON as it came.
impl Answer for CustomResult {
    fn read(result: ServerResult) -> Result<Self, ErrorData> {
        match result {
            ServerResult::CustomResult(result) => Ok(result),
            other => reread(other),
        }
    }
}

/// A listing: each tool carries what it lost (the layer lists, filters and tailors tools
/// one by one), found by its name.
impl Answer for ListToolsResult {
    fn read(result: ServerResult) -> Result<Self, ErrorData> {
        match result {
            ServerResult::ListToolsResult(result) => Ok(result),
            other => reread(other),
        }
    }

    fn keep_verbatim(&mut self, written: &Value) {
        if let Some(tools) = written.get("tools").and_then(Value::as_array) {
            verbatim::keep_tools(&mut self.tools, tools);
        }
    }
}

/// An empty result (`subscribe`, `logging/setLevel`, task updates): whatever came back.
impl Answer for () {
    fn read(_: ServerResult) -> Result<Self, ErrorData> {
        Ok(())
    }
}

/// A result that may also be "input required" (or, for a tool call, a task).
macro_rules! mrtr_answers {
    ($($response:ident($complete:ident) $(task $task:ident)?;)*) => {$(
        impl Answer for $response {
            fn read(result: ServerResult) -> Result<Self, ErrorData> {
                match result {
                    ServerResult::InputRequiredResult(input) => Ok($response::InputRequired(input)),
                    $(ServerResult::CreateTaskResult(task) => Ok($response::$task(task)),)?
                    ServerResult::$complete(result) => Ok($response::Complete(result)),
                    other => reread(other).map($response::Complete),
                }
            }

            fn keep_verbatim(&mut self, written: &Value) {
                if let $response::Complete(result) = self {
                    verbatim::keep_in_meta(result, written, |result| &mut result.meta);
                }
            }
        }
    )*};
}

mrtr_answers! {
    CallToolResponse(CallToolResult) task Task;
    GetPromptResponse(GetPromptResult);
    ReadResourceResponse(ReadResourceResult);
}

fn reread<T: DeserializeOwned>(result: ServerResult) -> Result<T, ErrorData> {
    serde_json::to_value(result)
        .and_then(serde_json::from_value)
        .map_err(|e| {
            unavailable(&format!(
                "the upstream answered with an unexpected result: {e}"
            ))
        })
}

/// `-32603`, `data.reason = "upstream_failure"`; the cause goes to the log.
pub(crate) fn unavailable(cause: &str) -> ErrorData {
    tracing::warn!("upstream failure: {cause}");
    internal(UPSTREAM_FAILURE)
}
