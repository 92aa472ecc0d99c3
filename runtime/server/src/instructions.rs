//! Server instructions: a static text, or a provider that answers per request
//! with text, *omit*, or an error. A configured provider is always used — the static text
//! is never a fallback — and every way it can fail becomes one controlled error.

use crate::callbacks::{BoxFuture, CallbackFailure, guarded};
use crate::failure::{
    FailureKind, INSTRUCTIONS_PROVIDER_FAILURE, Reporter, internal, report, timed_out,
};
use crate::request::info::RequestInfo;
use rmcp::ErrorData;
use std::sync::Arc;
use tokio::time::Instant;

/// The largest instructions text, in bytes.
pub const MAX_INSTRUCTIONS: usize = 65_536;

/// A provider's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Instructions {
    /// Send this text (non-empty, at most 65,536 bytes).
    Text(String),
    /// Send no instructions for this request.
    Omit,
    /// Fail the request; the cause goes to the reporter and the log, never to the client.
    Error(String),
}

/// A host instructions provider.
pub(super) type InstructionsFn =
    Arc<dyn Fn(Arc<RequestInfo>) -> BoxFuture<Instructions> + Send + Sync>;

/// Where instructions come from.
#[derive(Clone, Default)]
#[non_exhaustive]
pub(crate) enum InstructionsSource {
    /// No instructions.
    #[default]
    None,
    /// The same text for every request.
    Static(String),
    /// A provider, asked per request.
    Provider(InstructionsFn),
}

impl InstructionsSource {
    /// The instructions for this request, or the controlled error. Without instructions of
    /// its own, the server sends `fallback` (the wrapped handler's).
    pub(crate) async fn resolve(
        &self,
        info: &Arc<RequestInfo>,
        deadline: Instant,
        reporter: Option<&Reporter>,
        fallback: Option<String>,
    ) -> Result<Option<String>, ErrorData> {
        let provider = match self {
            InstructionsSource::None => return Ok(fallback),
            InstructionsSource::Static(text) => return Ok(Some(text.clone())),
            InstructionsSource::Provider(provider) => provider,
        };
        let fail = |kind, cause: String| {
            report(reporter, kind, cause, None);
        };
        match guarded(deadline, || provider(info.clone())).await {
            Ok(Instructions::Text(text)) if text.is_empty() => {
                fail(
                    FailureKind::Instructions,
                    "the provider returned an empty text".into(),
                );
                Err(internal(INSTRUCTIONS_PROVIDER_FAILURE))
            }
            Ok(Instructions::Text(text)) if text.len() > MAX_INSTRUCTIONS => {
                fail(
                    FailureKind::Instructions,
                    format!(
                        "the provider returned {} bytes; at most {MAX_INSTRUCTIONS}",
                        text.len()
                    ),
                );
                Err(internal(INSTRUCTIONS_PROVIDER_FAILURE))
            }
            Ok(Instructions::Text(text)) => Ok(Some(text)),
            Ok(Instructions::Omit) => Ok(None),
            Ok(Instructions::Error(cause)) => {
                fail(FailureKind::Instructions, cause);
                Err(internal(INSTRUCTIONS_PROVIDER_FAILURE))
            }
            Err(CallbackFailure::Timeout) => {
                fail(
                    FailureKind::Timeout,
                    "the instructions provider missed the request deadline".into(),
                );
                Err(timed_out(INSTRUCTIONS_PROVIDER_FAILURE))
            }
            Err(CallbackFailure::Panic(message)) => {
                fail(
                    FailureKind::Instructions,
                    format!("the provider panicked: {message}"),
                );
                Err(internal(INSTRUCTIONS_PROVIDER_FAILURE))
            }
        }
    }
}
