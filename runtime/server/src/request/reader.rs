//! The reader of a request, and where it comes from: the client's self-reported name
//! through an alias table, a session's own choice, HTTP headers, vendor `_meta` keys, and
//! — for full control — a host callback. (Resolving a whole [`RequestInfo`] sits beside
//! it, in `request`.)
//!
//! [`RequestInfo`]: crate::RequestInfo

use mcp_tailor_core::RenderCtx;
use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// The `_meta` key naming the runner.
pub const META_RUNNER: &str = "mcp-tailor.dev/runner";
/// The `_meta` key naming the model.
pub const META_MODEL: &str = "mcp-tailor.dev/model";
/// The `_meta` key naming the verbosity level.
pub const META_VERBOSITY: &str = "mcp-tailor.dev/verbosity";
/// The HTTP header naming the runner.
pub const HEADER_RUNNER: &str = "x-mcp-runner";
/// The HTTP header naming the model.
pub const HEADER_MODEL: &str = "x-mcp-model";
/// The HTTP header naming the verbosity level.
pub const HEADER_VERBOSITY: &str = "x-mcp-verbosity";
/// The longest runner or model name kept, in bytes: from any source, a longer one is
/// ignored (and logged), and `setReader` refuses it.
pub const MAX_READER_NAME: usize = 128;

/// The name if it is within [`MAX_READER_NAME`]; a longer one is logged and dropped.
fn bounded<'a>(name: &'a str, source: &str) -> Option<&'a str> {
    if name.len() <= MAX_READER_NAME {
        Some(name)
    } else {
        tracing::warn!(
            source,
            bytes = name.len(),
            "ignored a reader name over {MAX_READER_NAME} bytes"
        );
        None
    }
}

/// The environment variable that sets the server's default verbosity.
pub const ENV_VERBOSITY: &str = "MCP_TAILOR_VERBOSITY";

/// The built-in aliases: `clientInfo.name` (compared case-insensitively) → runner.
pub const DEFAULT_ALIASES: &[(&str, &str)] = &[
    ("codex", "codex"),
    ("codex-cli", "codex"),
    ("codex-mcp-client", "codex"),
    ("openai-codex", "codex"),
    ("grok", "grok"),
    ("grok-cli", "grok"),
    ("xai-grok", "grok"),
    ("claude-code", "claude-code"),
    ("claude code", "claude-code"),
    ("claude-ai", "claude"),
    ("claude", "claude"),
    ("cursor", "cursor"),
    ("cursor-vscode", "cursor"),
    ("gemini-cli", "gemini"),
    ("gemini", "gemini"),
    ("vscode", "vscode"),
    ("visual studio code", "vscode"),
    ("windsurf", "windsurf"),
    ("zed", "zed"),
];

/// How the server finds each request's reader.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub(crate) struct ReaderSource {
    aliases: Vec<(String, String)>,
    /// Whether the `mcp-tailor.dev/*` `_meta` keys are read.
    pub read_meta: bool,
    /// Whether the `X-MCP-*` headers are read.
    pub read_headers: bool,
}

impl Default for ReaderSource {
    fn default() -> Self {
        ReaderSource {
            aliases: DEFAULT_ALIASES
                .iter()
                .map(|(name, runner)| (name.to_string(), runner.to_string()))
                .collect(),
            read_meta: true,
            read_headers: true,
        }
    }
}

fn level(text: &str) -> Option<u8> {
    text.trim()
        .parse::<u8>()
        .ok()
        .map(|l| l.min(mcp_tailor_core::MAX_VERBOSITY))
}

/// Why `value`, given as a level under `name`, is not one (a whole number 0..=9); `None`
/// when it is.
fn not_a_level(name: &str, value: &serde_json::Value) -> Option<String> {
    let level = match value {
        serde_json::Value::Number(n) => n.as_u64(),
        serde_json::Value::String(s) => s.trim().parse::<u64>().ok(),
        _ => None,
    };
    match level {
        Some(level) if level <= u64::from(mcp_tailor_core::MAX_VERBOSITY) => None,
        _ => {
            let shown: String = value.to_string().chars().take(MAX_READER_NAME).collect();
            Some(format!(
                "`{name}` is {shown}: a level is a whole number 0..=9"
            ))
        }
    }
}

/// Why the `X-MCP-Verbosity` header of `headers` is not a level; `None` when it is, or is
/// absent. (The HTTP front asks it.)
#[cfg(feature = "http")]
pub(crate) fn refused_level_header(headers: &http::HeaderMap) -> Option<String> {
    let value = headers.get(HEADER_VERBOSITY)?;
    let text = String::from_utf8_lossy(value.as_bytes());
    not_a_level(
        HEADER_VERBOSITY,
        &serde_json::Value::String(text.into_owned()),
    )
}

impl ReaderSource {
    /// Why the level a request names in `_meta` is not one, when this source reads
    /// `_meta`: a request naming 12, -1 or "abc" is refused, not served the server's own
    /// words as if it named none.
    pub(crate) fn refused_level(
        &self,
        meta: &serde_json::Map<String, serde_json::Value>,
    ) -> Option<String> {
        let value = meta.get(META_VERBOSITY).filter(|_| self.read_meta)?;
        not_a_level(META_VERBOSITY, value)
    }

    /// Adds (or replaces) an alias: a client calling itself `client_name` reads as `runner`.
    pub(crate) fn alias(&mut self, client_name: &str, runner: &str) {
        let key = client_name.to_lowercase();
        self.aliases.retain(|(name, _)| *name != key);
        self.aliases.push((key, runner.to_owned()));
    }

    /// The runner for a self-reported client name: its alias, else the name itself.
    pub(crate) fn runner_for(&self, client_name: &str) -> String {
        let key = client_name.to_lowercase();
        self.aliases
            .iter()
            .find(|(name, _)| *name == key)
            .map_or_else(|| client_name.to_owned(), |(_, runner)| runner.clone())
    }

    /// [`resolve`](Self::resolve) from the parts of a request, borrowed.
    pub(crate) fn resolve_parts(
        &self,
        client_name: Option<&str>,
        headers: &http::HeaderMap,
        meta: &serde_json::Map<String, serde_json::Value>,
        session: Option<&Reader>,
    ) -> Reader {
        let mut reader = Reader {
            runner: client_name
                .and_then(|name| bounded(name, "clientInfo.name"))
                .map(|name| self.runner_for(name)),
            ..Reader::default()
        };
        if let Some(session) = session {
            reader = reader.patched(session);
        }
        if self.read_headers {
            let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
            let from_headers = Reader {
                runner: header(HEADER_RUNNER)
                    .and_then(|v| bounded(v, HEADER_RUNNER))
                    .map(str::to_owned),
                model: header(HEADER_MODEL)
                    .and_then(|v| bounded(v, HEADER_MODEL))
                    .map(str::to_owned),
                verbosity: header(HEADER_VERBOSITY).and_then(level),
            };
            reader = reader.patched(&from_headers);
        }
        if self.read_meta {
            let meta = |key: &str| meta.get(key);
            let from_meta = Reader {
                runner: meta(META_RUNNER)
                    .and_then(|v| v.as_str())
                    .and_then(|v| bounded(v, META_RUNNER))
                    .map(str::to_owned),
                model: meta(META_MODEL)
                    .and_then(|v| v.as_str())
                    .and_then(|v| bounded(v, META_MODEL))
                    .map(str::to_owned),
                verbosity: meta(META_VERBOSITY).and_then(|v| match v {
                    serde_json::Value::Number(n) => n.as_u64().map(|l| l.min(9) as u8),
                    serde_json::Value::String(s) => level(s),
                    _ => None,
                }),
            };
            reader = reader.patched(&from_meta);
        }
        reader
    }
}

/// The reader of a catalog as the server resolved it for one request: the owned form of a
/// [`RenderCtx`] (without the fallback, which is the server's default verbosity).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reader {
    /// The runner (harness), e.g. `codex`.
    pub runner: Option<String>,
    /// The model, e.g. `5.4`.
    pub model: Option<String>,
    /// An explicit verbosity level.
    pub verbosity: Option<u8>,
}

impl Reader {
    /// The render context for this reader, with `fallback` as the fallback level.
    pub fn ctx(&self, fallback: u8) -> RenderCtx<'_> {
        let mut ctx = RenderCtx::new().fallback_verbosity(fallback);
        if let Some(runner) = &self.runner {
            ctx = ctx.runner(runner);
        }
        if let Some(model) = &self.model {
            ctx = ctx.model(model);
        }
        if let Some(level) = self.verbosity {
            ctx = ctx.verbosity(level);
        }
        ctx
    }

    /// The reader of an rmcp request, for hosts that keep their own `ServerHandler`: the
    /// client's `clientInfo.name` through the alias table, the session's own choice, the
    /// `X-MCP-*` headers and the `mcp-tailor.dev/*` `_meta` keys, each later source
    /// overriding what it names. Inside a handler wrapped by [`Server::builder`]
    /// (`.handler(...)`), the reader the layer resolved for this very request — its
    /// aliases, hint settings, the session's choice and the host's `.context(...)`
    /// callback — so the handler reads what the layer's listing rendered for; elsewhere
    /// the built-in aliases, and no session choice.
    ///
    /// ```
    /// # use mcp_tailor::server::Reader;
    /// # use mcp_tailor::server::rmcp::{RoleServer, service::RequestContext};
    /// fn who_reads(context: &RequestContext<RoleServer>) -> String {
    ///     let reader = Reader::from_request(context);
    ///     format!("{:?}", reader.render_ctx())
    /// }
    /// ```
    ///
    /// [`Server::builder`]: crate::Server::builder
    pub fn from_request(context: &RequestContext<RoleServer>) -> Reader {
        if let Some(ResolvedReader(reader)) = context.extensions.get::<ResolvedReader>() {
            return reader.clone();
        }
        static BUILT_IN: std::sync::LazyLock<ReaderSource> =
            std::sync::LazyLock::new(ReaderSource::default);
        let client = context.client_info();
        let client_name = client.as_ref().map(|c| c.name.as_str());
        let no_headers = http::HeaderMap::new();
        let headers = context
            .extensions
            .get::<http::request::Parts>()
            .map_or(&no_headers, |p| &p.headers);
        BUILT_IN.resolve_parts(client_name, headers, &context.meta.0.0, None)
    }

    /// The render context for this reader, with the deployment's default verbosity
    /// (`MCP_TAILOR_VERBOSITY`, else 5) as the fallback level. (Inside the layer,
    /// [`RequestInfo::render_ctx`](crate::RequestInfo::render_ctx) uses the server's own default.)
    pub fn render_ctx(&self) -> RenderCtx<'_> {
        // The environment is read (and a bad value logged) once per process, not per call.
        static FALLBACK: std::sync::LazyLock<u8> = std::sync::LazyLock::new(|| {
            env_verbosity().unwrap_or(mcp_tailor_core::DEFAULT_VERBOSITY)
        });
        self.ctx(*FALLBACK)
    }

    /// This reader with every field `patch` sets taken from `patch`.
    #[must_use]
    pub fn patched(mut self, patch: &Reader) -> Self {
        if patch.runner.is_some() {
            self.runner.clone_from(&patch.runner);
        }
        if patch.model.is_some() {
            self.model.clone_from(&patch.model);
        }
        if patch.verbosity.is_some() {
            self.verbosity = patch.verbosity;
        }
        self
    }

    /// Checks that the runner and model are at most [`MAX_READER_NAME`] bytes.
    pub(crate) fn check_bounds(&self) -> Result<(), rmcp::ErrorData> {
        let max = MAX_READER_NAME;
        for (field, value) in [("runner", &self.runner), ("model", &self.model)] {
            if let Some(value) = value
                && value.len() > max
            {
                return Err(rmcp::ErrorData::invalid_params(
                    format!("`{field}` is {} bytes; at most {max}", value.len()),
                    Some(serde_json::json!({ "reason": "invalid_reader" })),
                ));
            }
        }
        Ok(())
    }
}

/// The reader the layer resolved for a request (its settings, the session's choice, the
/// host's context callback), carried to the wrapped handler: what
/// [`Reader::from_request`] returns there.
#[derive(Clone, Debug)]
pub(crate) struct ResolvedReader(pub(crate) Reader);

/// `MCP_TAILOR_VERBOSITY`, when it holds a level (clamped to 0..=9); anything else is
/// logged and ignored.
pub(crate) fn env_verbosity() -> Option<u8> {
    let value = std::env::var(ENV_VERBOSITY).ok()?;
    match value.trim().parse::<u8>() {
        Ok(level) => Some(level.min(mcp_tailor_core::MAX_VERBOSITY)),
        Err(_) => {
            tracing::warn!(value, "{ENV_VERBOSITY} is not a level 0..=9; ignored");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_names_map_through_aliases() {
        let source = ReaderSource::default();
        assert_eq!(source.runner_for("Codex-CLI"), "codex");
        assert_eq!(source.runner_for("grok"), "grok");
        assert_eq!(source.runner_for("my-own-client"), "my-own-client");
        let mut source = source;
        source.alias("My-Own-Client", "codex");
        assert_eq!(source.runner_for("my-own-client"), "codex");
    }
}
