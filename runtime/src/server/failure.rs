//! Controlled failures: what the client sees (`-32603` or `-32602` with a `data.reason`)
//! and what the host's reporter and the log see (the raw cause).

use rmcp::ErrorData;
use serde_json::json;
use std::sync::Arc;

/// Which host-facing step failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The instructions provider failed (error, panic, invalid value).
    Instructions,
    /// The presentation callback failed or returned an invalid override.
    Presentation,
    /// A callback missed the request deadline.
    Timeout,
    /// The context callback failed; the server's own reader was used instead.
    Context,
    /// An authorize predicate failed; the tool was hidden.
    Authorize,
    /// A tool handler panicked.
    Handler,
}

/// One failure, with its raw cause, for the host's reporter.
#[derive(Clone, Debug)]
pub struct Failure {
    /// What failed.
    pub kind: FailureKind,
    /// The raw cause: never sent to the client.
    pub cause: String,
    /// The tool concerned, if any.
    pub tool: Option<String>,
}

/// The host's failure reporter.
pub type Reporter = Arc<dyn Fn(&Failure) + Send + Sync>;

/// Logs a failure and hands it to the reporter, if one is set.
pub fn report(reporter: Option<&Reporter>, failure: Failure) {
    tracing::warn!(kind = ?failure.kind, tool = failure.tool.as_deref(), cause = %failure.cause, "host callback failed");
    if let Some(reporter) = reporter {
        // A panicking reporter must not take the request down with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reporter(&failure)));
    }
}

/// `-32603` with `data.reason`: the only thing the client learns of an internal failure.
pub fn internal(reason: &'static str) -> ErrorData {
    ErrorData::internal_error(reason.replace('_', " "), Some(json!({ "reason": reason })))
}

/// `-32602`, `data.reason = "unknown_tool"`: hidden and unknown tools look the same.
pub fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`"),
        Some(json!({ "reason": "unknown_tool", "name": name })),
    )
}

/// `-32602`, `data.reason = "invalid_cursor"`.
pub fn invalid_cursor() -> ErrorData {
    ErrorData::invalid_params(
        "invalid cursor",
        Some(json!({ "reason": "invalid_cursor" })),
    )
}
