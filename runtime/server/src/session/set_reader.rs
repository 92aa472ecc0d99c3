//! Custom requests the layer answers itself: `mcp-tailor/setReader`, and standard MCP
//! requests that reach `on_custom_request` because rmcp could not parse their params.

use crate::call::context::{SessionState, has_session};
use crate::failure::no_session;
use crate::request::reader::Reader;
use rmcp::model::{CustomRequest, CustomResult};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

/// The custom request a session sends to change its own reader:
/// `{"runner"?: string, "model"?: string, "verbosity"?: 0..=9, "surface"?: "native" | "index"}`
/// (a surface where the server offers the index surface).
pub const SET_READER_METHOD: &str = "mcp-tailor/setReader";

/// The client requests of MCP: one of them reaching `on_custom_request` had params rmcp
/// could not parse.
const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
];

/// The requests 2026-07-28 removed: on such a request they are unknown methods (`-32601`),
/// not malformed ones.
const REMOVED_IN_2026_07_28: &[&str] = &[
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// `-32602` when `request` is a standard MCP request (its params did not parse) — unless
/// the request's revision removed that method, which leaves it an unknown method.
pub(crate) fn malformed_standard_request(
    request: &CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Option<ErrorData> {
    let method = request.method.as_str();
    let removed = REMOVED_IN_2026_07_28.contains(&method) && !has_session(context);
    (MCP_METHODS.contains(&method) && !removed)
        .then(|| ErrorData::invalid_params(format!("invalid params for `{method}`"), None))
}

/// Answers `mcp-tailor/setReader`: patches the session's reader (names bounded) and tells
/// the client its tool list changed. A request without a session is `no_session`.
pub(crate) async fn set_reader(
    session: &SessionState,
    request: CustomRequest,
    context: &RequestContext<RoleServer>,
) -> Result<CustomResult, ErrorData> {
    if !has_session(context) {
        return Err(no_session());
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SetReaderParams {
        runner: Option<String>,
        model: Option<String>,
        verbosity: Option<u8>,
        surface: Option<String>,
    }
    let params: SetReaderParams =
        serde_json::from_value(request.params.unwrap_or_else(|| json!({})))
            .map_err(|e| ErrorData::invalid_params(format!("{SET_READER_METHOD}: {e}"), None))?;
    let patch = Reader {
        runner: params.runner,
        model: params.model,
        verbosity: params
            .verbosity
            .map(|l| l.min(mcp_tailor_core::MAX_VERBOSITY)),
    };
    patch.check_bounds()?;
    if let Some(surface) = params.surface {
        session.set_surface(chosen_surface(surface)?);
    }
    let reader = session.patch_reader(&patch, &context.peer).await;
    Ok(CustomResult::new(json!({
        "runner": reader.runner,
        "model": reader.model,
        "verbosity": reader.verbosity,
        "surface": session.surface(),
    })))
}

/// The surface a `setReader` names, when it is one this server offers.
fn chosen_surface(named: String) -> Result<String, ErrorData> {
    #[cfg(feature = "index")]
    {
        let surface: crate::surface::Surface = named.parse().map_err(|why: String| {
            ErrorData::invalid_params(
                format!("{SET_READER_METHOD}: {why}"),
                Some(json!({ "reason": crate::surface::choice::INVALID_SURFACE })),
            )
        })?;
        Ok(surface.name().to_owned())
    }
    #[cfg(not(feature = "index"))]
    Err(ErrorData::invalid_params(
        format!(
            "{SET_READER_METHOD}: this server offers no surface but the catalog (`{named}` asked)"
        ),
        None,
    ))
}
