//! What the server knows about one request: the caller (principal), the client's
//! self-reported identity, the request's `_meta`, HTTP headers, and the resolved reader.

use crate::RenderCtx;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

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
    /// The request's `_meta` object.
    pub meta: Map<String, Value>,
    /// The HTTP request headers (empty on stdio).
    pub headers: http::HeaderMap,
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
            meta: Map::new(),
            headers: http::HeaderMap::new(),
            principal: Principal::default(),
            reader: Reader::default(),
            fallback_verbosity: crate::DEFAULT_VERBOSITY,
        }
    }
}

impl RequestInfo {
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
