//! What the server knows about one request: the caller (principal), the client's
//! self-reported identity, the request's `_meta`, HTTP headers, and the resolved reader.

use super::reader::{ENV_VERBOSITY, ReaderSource};
use crate::RenderCtx;
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
    /// (`.handler(...)`), the layer's aliases, hint settings and session choice apply;
    /// elsewhere the built-in aliases, and no session choice.
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
    /// [`Server::builder`]: super::Server::builder
    pub fn from_request(context: &RequestContext<RoleServer>) -> Reader {
        let client = context.client_info();
        let client_name = client.as_ref().map(|c| c.name.as_str());
        let no_headers = http::HeaderMap::new();
        let headers = context
            .extensions
            .get::<http::request::Parts>()
            .map_or(&no_headers, |p| &p.headers);
        let meta = &context.meta.0.0;
        match context.extensions.get::<ReaderScope>() {
            Some(scope) => {
                scope
                    .source
                    .resolve_parts(client_name, headers, meta, scope.session.as_ref())
            }
            None => {
                static BUILT_IN: std::sync::LazyLock<ReaderSource> =
                    std::sync::LazyLock::new(ReaderSource::default);
                BUILT_IN.resolve_parts(client_name, headers, meta, None)
            }
        }
    }

    /// The render context for this reader, with the deployment's default verbosity
    /// (`MCP_TAILOR_VERBOSITY`, else 5) as the fallback level. (Inside the layer,
    /// [`RequestInfo::render_ctx`] uses the server's own default.)
    pub fn render_ctx(&self) -> RenderCtx<'_> {
        // The environment is read (and a bad value logged) once per process, not per call.
        static FALLBACK: std::sync::LazyLock<u8> =
            std::sync::LazyLock::new(|| env_verbosity().unwrap_or(crate::DEFAULT_VERBOSITY));
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
            fallback_verbosity: crate::DEFAULT_VERBOSITY,
        }
    }
}

/// What the layer tells a wrapped handler's requests about their reader: the layer's reader
/// settings and the session's own choice. Read by [`Reader::from_request`].
#[derive(Clone, Debug)]
pub(crate) struct ReaderScope {
    pub(crate) source: Arc<ReaderSource>,
    pub(crate) session: Option<Reader>,
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

/// `MCP_TAILOR_VERBOSITY`, when it holds a level (clamped to 0..=9); anything else is
/// logged and ignored.
pub(crate) fn env_verbosity() -> Option<u8> {
    let value = std::env::var(ENV_VERBOSITY).ok()?;
    match value.trim().parse::<u8>() {
        Ok(level) => Some(level.min(crate::MAX_VERBOSITY)),
        Err(_) => {
            tracing::warn!(value, "{ENV_VERBOSITY} is not a level 0..=9; ignored");
            None
        }
    }
}

impl Reader {
    /// Checks that the runner and model are at most [`MAX_READER_NAME`] bytes.
    ///
    /// [`MAX_READER_NAME`]: super::MAX_READER_NAME
    pub(crate) fn check_bounds(&self) -> Result<(), rmcp::ErrorData> {
        let max = super::reader::MAX_READER_NAME;
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
        let (headers, principal) = match context.extensions.get_mut::<http::request::Parts>() {
            Some(parts) => (
                Arc::new(std::mem::take(&mut parts.headers)),
                parts.extensions.get::<Principal>().cloned(),
            ),
            None => (empty_headers(), None),
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

    /// Whether the request speaks the stateless 2026-07-28 revision (or later).
    pub fn is_modern(&self) -> bool {
        self.protocol_version
            .as_deref()
            .is_some_and(|v| v >= "2026-07-28")
    }

    /// Whether the client's revision knows tool icons (2025-11-25 and later).
    pub fn supports_icons(&self) -> bool {
        self.protocol_version
            .as_deref()
            .is_none_or(|v| v >= "2025-11-25")
    }
}
