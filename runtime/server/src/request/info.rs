//! What the server knows about one request: the caller (principal), the client's
//! self-reported identity, the request's `_meta`, HTTP headers, and the resolved reader.

use crate::request::era::Era;
use crate::request::reader::{Reader, ReaderSource};
use mcp_tailor_core::RenderCtx;
use rmcp::RoleServer;
use rmcp::model::Implementation;
use rmcp::service::RequestContext;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Who is calling. Set by the host: an HTTP middleware inserts one into the request's
/// extensions (`http::Request::extensions_mut().insert(principal)`); stdio connections
/// and requests without one use the server's default principal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Principal {
    /// A stable identifier of the caller.
    pub id: String,
    /// The tenant the caller acts for, if the deployment has tenants.
    pub tenant: Option<String>,
    /// The scopes granted to the caller.
    pub scopes: BTreeSet<String>,
}

impl Principal {
    /// The anonymous caller: no id, no tenant, no scopes.
    pub fn anonymous() -> Self {
        Principal::default()
    }

    /// A caller with this id and no scopes.
    pub fn new(id: impl Into<String>) -> Self {
        Principal {
            id: id.into(),
            ..Principal::default()
        }
    }

    /// Sets the tenant.
    #[must_use]
    pub fn with_tenant(mut self, tenant: impl Into<String>) -> Self {
        self.tenant = Some(tenant.into());
        self
    }

    /// Grants scopes.
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Whether the caller holds, for every group, at least one of its scopes.
    pub fn satisfies(&self, required: &[&[&str]]) -> bool {
        required
            .iter()
            .all(|group| group.iter().any(|scope| self.scopes.contains(*scope)))
    }
}

/// One request as host callbacks see it.
#[derive(Clone, Debug)]
pub struct RequestInfo {
    /// The negotiated (or per-request) protocol version, e.g. `2025-11-25`.
    pub protocol_version: Option<String>,
    /// `clientInfo.name`: self-reported, so it may tailor wording but never grant access.
    pub client_name: Option<String>,
    /// `clientInfo.version`, self-reported.
    pub client_version: Option<String>,
    /// The request's `_meta` object (shared: cloning a `RequestInfo` copies no `_meta`).
    pub meta: Arc<Map<String, Value>>,
    /// The HTTP request headers (empty on stdio; shared like `meta`).
    pub headers: Arc<http::HeaderMap>,
    /// The caller.
    pub principal: Principal,
    /// The reader the server resolved (before a host context callback, when one is set).
    pub reader: Reader,
    /// The server's default verbosity: the fallback level of this request's render context.
    pub fallback_verbosity: u8,
}

impl Default for RequestInfo {
    fn default() -> Self {
        RequestInfo {
            protocol_version: None,
            client_name: None,
            client_version: None,
            meta: empty_meta(),
            headers: empty_headers(),
            principal: Principal::default(),
            reader: Reader::default(),
            fallback_verbosity: mcp_tailor_core::DEFAULT_VERBOSITY,
        }
    }
}

/// An empty `_meta`, shared: a request without one allocates nothing for it.
fn empty_meta() -> Arc<Map<String, Value>> {
    static EMPTY: std::sync::LazyLock<Arc<Map<String, Value>>> =
        std::sync::LazyLock::new(Arc::default);
    EMPTY.clone()
}

/// No HTTP headers (stdio), shared like [`empty_meta`].
fn empty_headers() -> Arc<http::HeaderMap> {
    static EMPTY: std::sync::LazyLock<Arc<http::HeaderMap>> =
        std::sync::LazyLock::new(Arc::default);
    EMPTY.clone()
}

impl RequestInfo {
    /// The request as the layer sees it before resolving the reader: its protocol version,
    /// client (`client`, else the request's or the session's), `_meta`, HTTP headers and
    /// principal (an HTTP middleware's, else `default_principal`). `_meta` and the headers
    /// are moved out of `context`, not copied; [`restore`](Self::restore) puts copies back
    /// for a wrapped handler that is handed the request.
    pub(crate) fn take_from(
        context: &mut RequestContext<RoleServer>,
        client: Option<Implementation>,
        default_principal: Principal,
        fallback_verbosity: u8,
    ) -> RequestInfo {
        // Read what `_meta` says of the protocol and client before taking it.
        let protocol_version = context.protocol_version().map(|v| v.as_str().to_owned());
        let client = client.or_else(|| context.client_info());
        let meta = Arc::new(std::mem::take(&mut context.meta.0.0));
        let principal = principal_in(context).cloned();
        let headers = match context.extensions.get_mut::<http::request::Parts>() {
            Some(parts) => Arc::new(std::mem::take(&mut parts.headers)),
            None => empty_headers(),
        };
        RequestInfo {
            protocol_version,
            client_name: client.as_ref().map(|c| c.name.clone()),
            client_version: client.as_ref().map(|c| c.version.clone()),
            meta,
            headers,
            principal: principal.unwrap_or(default_principal),
            reader: Reader::default(),
            fallback_verbosity,
        }
    }

    /// Puts copies of `_meta` and the headers back into `context`, for a wrapped handler.
    pub(crate) fn restore(&self, context: &mut RequestContext<RoleServer>) {
        context.meta.0.0 = (*self.meta).clone();
        if let Some(parts) = context.extensions.get_mut::<http::request::Parts>() {
            parts.headers = (*self.headers).clone();
        }
    }

    /// `_meta` key `key` decoded as `T`, if present and valid.
    pub(crate) fn meta_value<T: serde::de::DeserializeOwned>(&self, key: &str) -> Option<T> {
        self.meta.get(key).and_then(|v| T::deserialize(v).ok())
    }

    /// The render context of this request: its reader, with the server's default verbosity
    /// as the fallback level.
    pub fn render_ctx(&self) -> RenderCtx<'_> {
        self.reader.ctx(self.fallback_verbosity)
    }

    /// The protocol era of the request's revision.
    pub fn era(&self) -> Era {
        Era::of(self.protocol_version.as_deref())
    }

    /// Whether the request speaks the stateless 2026-07-28 revision (or later).
    pub fn is_modern(&self) -> bool {
        self.era().is_stateless()
    }

    /// Whether the client's revision knows tool icons (2025-11-25 and later).
    pub fn supports_icons(&self) -> bool {
        self.era().has_icons()
    }
}

// Resolving a whole request lives here, beside `RequestInfo`, so that `reader` needs
// nothing of this file.
impl ReaderSource {
    /// The reader of a request: client name, then the session's choice, then headers, then
    /// `_meta` — each later source overriding what it names.
    pub(crate) fn resolve(&self, info: &RequestInfo, session: Option<&Reader>) -> Reader {
        self.resolve_parts(
            info.client_name.as_deref(),
            &info.headers,
            &info.meta,
            session,
        )
    }
}

/// The principal the host's middleware put on an HTTP request (`None` on stdio, or when
/// the host set none).
pub(crate) fn principal_in(context: &RequestContext<RoleServer>) -> Option<&Principal> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Principal>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::reader::{
        HEADER_MODEL, HEADER_VERBOSITY, MAX_READER_NAME, META_MODEL, META_RUNNER, META_VERBOSITY,
    };
    use serde_json::json;

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
        let mut quiet = ReaderSource::default();
        quiet.read_meta = false;
        quiet.read_headers = false;
        assert_eq!(quiet.resolve(&info, None).runner.as_deref(), Some("codex"));
    }
}
