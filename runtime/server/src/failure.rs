//! Controlled failures: what the client sees (`-32603` or `-32602` with a `data.reason`)
//! and what the host's reporter and the log see (the raw cause).

use rmcp::ErrorData;
use serde_json::json;
use std::sync::Arc;

/// Which host-facing step failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The wrapped handler's tools could not be merged (a name registered on both sides,
    /// or more pages than the layer follows), or it answered `tools/list` with an error
    /// (which the client gets as it gave it).
    Inner,
}

/// One failure, with its raw cause, for the host's reporter.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Failure {
    /// What failed.
    pub kind: FailureKind,
    /// The raw cause: never sent to the client.
    pub cause: String,
    /// The tool concerned, if any.
    pub tool: Option<String>,
}

/// The host's failure reporter.
pub(crate) type Reporter = Arc<dyn Fn(&Failure) + Send + Sync>;

/// Logs a failure of `kind` (about `tool`, if any) and hands it to the reporter, if one
/// is set.
pub(super) fn report(
    reporter: Option<&Reporter>,
    kind: FailureKind,
    cause: impl Into<String>,
    tool: Option<String>,
) {
    let failure = Failure {
        kind,
        cause: cause.into(),
        tool,
    };
    let what = match kind {
        FailureKind::Inner => "the wrapped handler failed",
        FailureKind::Handler => "a tool handler failed",
        _ => "host callback failed",
    };
    tracing::warn!(kind = ?failure.kind, tool = failure.tool.as_deref(), cause = %failure.cause, "{what}");
    if let Some(reporter) = reporter {
        // A panicking reporter must not take the request down with it.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reporter(&failure)));
    }
}

/// `data.reason` of a failed instructions provider (`-32603`).
pub const INSTRUCTIONS_PROVIDER_FAILURE: &str = "instructions_provider_failure";
/// `data.reason` of a failed presentation callback or an invalid override (`-32603`).
pub const TOOL_PRESENTATION_FAILURE: &str = "tool_presentation_failure";
/// `data.reason` of a panicking tool handler (`-32603`).
pub const TOOL_HANDLER_FAILURE: &str = "tool_handler_failure";
/// `data.reason` of a wrapped handler whose tool list cannot be merged (`-32603`).
pub const INNER_TOOLS_FAILURE: &str = "inner_tools_failure";
/// `data.reason` of an unknown or hidden tool (`-32602`).
pub const UNKNOWN_TOOL: &str = "unknown_tool";
/// `data.reason` of a verbosity level that is not one of 0..=9 (`-32602`; HTTP 400 for
/// the `X-MCP-Verbosity` header).
pub const INVALID_LEVEL: &str = "invalid_level";
/// `data.reason` of a cursor that is not valid for this request (`-32602`).
pub const INVALID_CURSOR: &str = "invalid_cursor";
/// `data.reason` of a session-only request made without a session (`-32600`).
pub const NO_SESSION: &str = "no_session";
/// `data.reason` of a task-capable call from a principal already running its most tasks
/// (`-32000`).
pub const TOO_MANY_TASKS: &str = "too_many_tasks";
/// `data.cause` added when a host callback missed the request deadline.
pub const CAUSE_TIMEOUT: &str = "timeout";
/// The gateway's upstream server could not answer: it could not be started or reached, it
/// exited, or (with `data.cause: "timeout"`) it missed the request deadline.
pub const UPSTREAM_FAILURE: &str = "upstream_failure";

/// The longest tool name echoed back in an `unknown_tool` error (longer ones are cut).
const MAX_ECHOED_NAME: usize = 128;

/// `-32603` with `data.reason`: the only thing the client learns of an internal failure.
pub fn internal(reason: &'static str) -> ErrorData {
    ErrorData::internal_error(reason.replace('_', " "), Some(json!({ "reason": reason })))
}

/// `-32603` with `data.reason` and `data.cause: "timeout"`: a callback missed the deadline.
pub fn timed_out(reason: &'static str) -> ErrorData {
    ErrorData::internal_error(
        format!("{} (timeout)", reason.replace('_', " ")),
        Some(json!({ "reason": reason, "cause": CAUSE_TIMEOUT })),
    )
}

/// `-32602`, `data.reason = "unknown_tool"`: hidden and unknown tools look the same. The
/// name is echoed at most `MAX_ECHOED_NAME` (128) bytes long.
pub fn unknown_tool(name: &str) -> ErrorData {
    let mut end = name.len().min(MAX_ECHOED_NAME);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let name = &name[..end];
    ErrorData::invalid_params(
        format!("unknown tool `{name}`"),
        Some(json!({ "reason": UNKNOWN_TOOL, "name": name })),
    )
}

/// `-32602`, `data.reason = "invalid_level"`, saying which value is not a level.
pub(crate) fn invalid_level(why: String) -> ErrorData {
    ErrorData::invalid_params(why, Some(json!({ "reason": INVALID_LEVEL })))
}

/// `-32602`, `data.reason = "invalid_cursor"`.
pub(super) fn invalid_cursor() -> ErrorData {
    ErrorData::invalid_params("invalid cursor", Some(json!({ "reason": INVALID_CURSOR })))
}

/// `-32000`, `data.reason = "too_many_tasks"`: the caller runs `max` tasks already.
pub(super) fn too_many_tasks(max: usize) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode(-32000),
        format!("too many running tasks ({max} at most per caller); retry when one has ended"),
        Some(json!({ "reason": TOO_MANY_TASKS, "max": max })),
    )
}

/// `-32600`, `data.reason = "no_session"`: a session-only request on a 2026-07-28 request,
/// which has no session.
pub(super) fn no_session() -> ErrorData {
    ErrorData::invalid_request(
        "this request has no session (protocol 2026-07-28): send the reader in each \
         request's `_meta` (`mcp-tailor.dev/runner`, `mcp-tailor.dev/model`, \
         `mcp-tailor.dev/verbosity`) instead",
        Some(json!({ "reason": NO_SESSION })),
    )
}
