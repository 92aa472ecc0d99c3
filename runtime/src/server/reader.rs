//! Where the reader of a request comes from: the client's self-reported name
//! through an alias table, a session's own choice, HTTP headers, vendor `_meta` keys, and
//! — for full control — a host callback.

use super::request::{Reader, RequestInfo};

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
pub struct ReaderSource {
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
        .map(|l| l.min(crate::MAX_VERBOSITY))
}

impl ReaderSource {
    /// Adds (or replaces) an alias: a client calling itself `client_name` reads as `runner`.
    pub fn alias(&mut self, client_name: &str, runner: &str) {
        let key = client_name.to_lowercase();
        self.aliases.retain(|(name, _)| *name != key);
        self.aliases.push((key, runner.to_owned()));
    }

    /// The runner for a self-reported client name: its alias, else the name itself.
    pub fn runner_for(&self, client_name: &str) -> String {
        let key = client_name.to_lowercase();
        self.aliases
            .iter()
            .find(|(name, _)| *name == key)
            .map_or_else(|| client_name.to_owned(), |(_, runner)| runner.clone())
    }

    /// The reader of a request: client name, then the session's choice, then headers, then
    /// `_meta` — each later source overriding what it names.
    pub fn resolve(&self, info: &RequestInfo, session: Option<&Reader>) -> Reader {
        self.resolve_parts(
            info.client_name.as_deref(),
            &info.headers,
            &info.meta,
            session,
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    #[test]
    fn later_sources_override_earlier_ones() {
        let source = ReaderSource::default();
        let mut info = RequestInfo {
            client_name: Some("codex".into()),
            ..RequestInfo::default()
        };
        let session = Reader {
            verbosity: Some(2),
            ..Reader::default()
        };
        assert_eq!(
            source.resolve(&info, Some(&session)),
            Reader {
                runner: Some("codex".into()),
                model: None,
                verbosity: Some(2)
            }
        );
        let headers = std::sync::Arc::make_mut(&mut info.headers);
        headers.insert(HEADER_MODEL, "5.4".parse().unwrap());
        headers.insert(HEADER_VERBOSITY, "12".parse().unwrap());
        let meta = std::sync::Arc::make_mut(&mut info.meta);
        meta.insert(META_RUNNER.into(), json!("grok"));
        meta.insert(META_VERBOSITY.into(), json!(1));
        assert_eq!(
            source.resolve(&info, Some(&session)),
            Reader {
                runner: Some("grok".into()),
                model: Some("5.4".into()),
                verbosity: Some(1)
            }
        );
        let long = "x".repeat(MAX_READER_NAME + 1);
        std::sync::Arc::make_mut(&mut info.meta).insert(META_MODEL.into(), json!(long));
        assert_eq!(
            source.resolve(&info, None).model.as_deref(),
            Some("5.4"),
            "too long: ignored"
        );
        info.client_name = Some(long);
        std::sync::Arc::make_mut(&mut info.meta).remove(META_RUNNER);
        assert_eq!(source.resolve(&info, None).runner, None);
        info.client_name = Some("codex".into());
        let quiet = ReaderSource {
            read_meta: false,
            read_headers: false,
            ..ReaderSource::default()
        };
        assert_eq!(quiet.resolve(&info, None).runner.as_deref(), Some("codex"));
    }
}
