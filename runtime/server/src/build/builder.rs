//! The server's configuration: `Server::builder()`, optionally wrapping an rmcp handler.

use super::error::BuildError;
use crate::build::env::env_secret;
#[cfg(feature = "http")]
use crate::build::env::{check_replica_tag, env_trusted_proxies};
use crate::build::server::Server;
use crate::call::context::CallContext;
use crate::call::tasks::TaskTable;
use crate::catalog::tailoring::{TailoringSlot, log_findings};
use crate::catalog::tool_result::IntoToolResult;
use crate::catalog::tools::{Catalog, ToolRegistration};
use crate::catalog::wrapped::NoHandler;
use crate::failure::{Failure, Reporter};
use crate::instructions::{Instructions, InstructionsSource};
use crate::listing::cursor::CursorSigner;
use crate::listing::list::ListingInputs;
use crate::listing::presentation::{Presentation, PresentationFn};
use crate::request::info::{Principal, RequestInfo};
use crate::request::policy::{ContextFn, ReaderPolicy};
use crate::request::reader::{Reader, ReaderSource, env_verbosity};
use crate::session::server_state::{ServerState, WrappedFacts};
use mcp_tailor_core::{Description, McpTool, Tailoring, ToolDef};
use rmcp::ServerHandler;
use rmcp::model::Implementation;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// Builds a [`Server`].
///
/// ```
/// use mcp_tailor::server::{Server, Instructions};
/// # use mcp_tailor::mcp_tool;
/// # /// Ping.
/// # #[mcp_tool] #[derive(serde::Deserialize, schemars::JsonSchema)] struct Ping {}
/// let server = Server::builder()
///     .name("notes", "1.0.0")
///     .instructions("Notes live in memory.")
///     .tool(|_: Ping, _| async { Ok::<_, String>(serde_json::json!({"pong": true})) })
///     .build()
///     .unwrap();
/// ```
pub struct ServerBuilder<H = NoHandler> {
    wrapped: H,
    settings: Settings,
}

/// Everything a builder holds besides the wrapped handler: what `handler()` carries over.
struct Settings {
    registrations: Vec<ToolRegistration>,
    attached: Vec<&'static ToolDef>,
    file: Option<Tailoring>,
    server_info: Option<Implementation>,
    instructions: InstructionsSource,
    presentation: Option<PresentationFn>,
    context: Option<ContextFn>,
    reader_source: ReaderSource,
    fallback_verbosity: Option<u8>,
    page_size: usize,
    cursor_secrets: Option<(Vec<u8>, Vec<Vec<u8>>)>,
    cursor_ttl: Duration,
    list_ttl: Option<Duration>,
    deadline: Duration,
    reporter: Option<Reporter>,
    default_principal: Principal,
    max_tasks_per_principal: usize,
    #[cfg(feature = "index")]
    index: Option<crate::surface::IndexSurface>,
    #[cfg(feature = "http")]
    http: crate::http_config::HttpConfig,
}

impl Server {
    /// A builder with the defaults: no wrapped handler, no instructions, page size 100,
    /// cursors valid for 300 s under the secret in `MCP_TAILOR_CURSOR_SECRET` (hex, at least
    /// 32 bytes) or else a random per-process one, a 10 s request
    /// deadline, verbosity from `MCP_TAILOR_VERBOSITY` or 5.
    pub fn builder() -> ServerBuilder {
        ServerBuilder {
            wrapped: NoHandler,
            settings: Settings {
                registrations: Vec::new(),
                attached: Vec::new(),
                file: None,
                server_info: None,
                instructions: InstructionsSource::None,
                presentation: None,
                context: None,
                reader_source: ReaderSource::default(),
                fallback_verbosity: None,
                page_size: 100,
                cursor_secrets: None,
                cursor_ttl: Duration::from_secs(300),
                list_ttl: None,
                deadline: Duration::from_secs(10),
                reporter: None,
                default_principal: Principal::anonymous(),
                max_tasks_per_principal: 100,
                #[cfg(feature = "index")]
                index: None,
                #[cfg(feature = "http")]
                http: crate::http_config::HttpConfig::default(),
            },
        }
    }
}

impl<H: ServerHandler + Clone> ServerBuilder<H> {
    /// Wraps an rmcp handler: every request the layer does not own — prompts, resources,
    /// completion, ping, custom requests, notifications, tasks — goes to `wrapped`
    /// unchanged, and capabilities are the union. `wrapped`'s own tools are listed beside the
    /// registered ones through the same visibility, presentation, paging and cache hints;
    /// a name on both sides is an error. Each session gets its own clone of `wrapped`.
    pub fn handler<I: ServerHandler + Clone>(self, wrapped: I) -> ServerBuilder<I> {
        ServerBuilder {
            wrapped,
            settings: self.settings,
        }
    }

    /// Attaches the `#[mcp_tool]` type `T`'s tailored title, description and argument
    /// descriptions (and its scopes) to the wrapped handler's tool named `T::NAME` — an
    /// rmcp `#[tool]` taking `Parameters<T>` is the natural pairing. `build` fails when
    /// the wrapped handler has no such tool.
    #[must_use]
    pub fn tailor<T: McpTool>(mut self) -> Self {
        self.settings.attached.push(T::def());
        self
    }

    /// Applies a tailoring file by tool name to the registered tools and the wrapped
    /// handler's: each title, description and argument description the file declares,
    /// resolved per reader. Where a tool's `#[mcp_tool]` table (registered, or attached
    /// with [`tailor`](Self::tailor)) declares the same item, the table wins and `build`
    /// logs a warning. The file's `[instructions]` replace the wrapped handler's, unless
    /// the builder sets instructions of its own. A file naming a tool the server lacks is
    /// no error (an upstream may add it later). Swap it while serving with
    /// [`Server::set_tailoring`](crate::Server::set_tailoring).
    #[must_use]
    pub fn tailoring(mut self, tailoring: Tailoring) -> Self {
        self.settings.file = Some(tailoring);
        self
    }

    /// The server's name and version (`serverInfo`); else the wrapped handler's.
    #[must_use]
    pub fn name(mut self, name: &str, version: &str) -> Self {
        self.settings.server_info = Some(Implementation::new(name, version));
        self
    }

    /// Registers a `#[mcp_tool]` type with its handler.
    #[must_use]
    pub fn tool<T, F, Fut, R>(self, handler: F) -> Self
    where
        T: McpTool + DeserializeOwned + Send + 'static,
        F: Fn(T, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoToolResult,
    {
        self.register(ToolRegistration::new::<T, F, Fut, R>(handler))
    }

    /// Registers a tool with its `authorize` predicate, icons or `_meta`.
    #[must_use]
    pub fn register(mut self, registration: ToolRegistration) -> Self {
        self.settings.registrations.push(registration);
        self
    }

    /// Static instructions, the same for every request.
    #[must_use]
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.settings.instructions = InstructionsSource::Static(text.into());
        self
    }

    /// An instructions provider, asked on every `initialize` and `server/discover`. It
    /// replaces static instructions: they are never a fallback.
    #[must_use]
    pub fn instructions_provider<F, Fut>(mut self, provider: F) -> Self
    where
        F: Fn(Arc<RequestInfo>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Instructions> + Send + 'static,
    {
        self.settings.instructions =
            InstructionsSource::Provider(Arc::new(move |info| Box::pin(provider(info))));
        self
    }

    /// Tailored instructions: `description` resolved for each request's reader (nothing
    /// resolved → no instructions).
    #[must_use]
    pub fn instructions_table(self, description: &'static Description) -> Self {
        self.instructions_provider(move |info| {
            let text = description.resolve(&info.render_ctx());
            async move { text.map_or(Instructions::Omit, |t| Instructions::Text(t.to_owned())) }
        })
    }

    /// A presentation callback for `tools/list` (see [`Presentation`]).
    #[must_use]
    pub fn presentation<F, Fut>(mut self, callback: F) -> Self
    where
        F: Fn(serde_json::Value, Arc<RequestInfo>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Presentation> + Send + 'static,
    {
        self.settings.presentation =
            Some(Arc::new(move |tool, info| Box::pin(callback(tool, info))));
        self
    }

    /// Full control of the reader: the callback receives the request (with the reader the
    /// server resolved) and returns the reader to use. A failure keeps the resolved reader.
    #[must_use]
    pub fn context<F, Fut>(mut self, callback: F) -> Self
    where
        F: Fn(Arc<RequestInfo>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Reader> + Send + 'static,
    {
        self.settings.context = Some(Arc::new(move |info| Box::pin(callback(info))));
        self
    }

    /// A client calling itself `client_name` (case-insensitive) reads as `runner`.
    #[must_use]
    pub fn runner_alias(mut self, client_name: &str, runner: &str) -> Self {
        self.settings.reader_source.alias(client_name, runner);
        self
    }

    /// Whether the `mcp-tailor.dev/{runner,model,verbosity}` `_meta` keys and the
    /// `X-MCP-{Runner,Model,Verbosity}` headers are read (both on by default).
    #[must_use]
    pub fn reader_hints(mut self, meta: bool, headers: bool) -> Self {
        self.settings.reader_source.read_meta = meta;
        self.settings.reader_source.read_headers = headers;
        self
    }

    /// The server's fallback level (`RenderCtx::fallback_verbosity`): a request's level
    /// when neither its reader nor the description names one; else `MCP_TAILOR_VERBOSITY`,
    /// else 5.
    #[must_use]
    pub fn fallback_verbosity(mut self, level: u8) -> Self {
        self.settings.fallback_verbosity = Some(level.min(mcp_tailor_core::MAX_VERBOSITY));
        self
    }

    /// The server's fallback level.
    #[deprecated(
        note = "renamed `fallback_verbosity`: a table's own `default_verbosity` is another thing"
    )]
    #[must_use]
    pub fn default_verbosity(self, level: u8) -> Self {
        self.fallback_verbosity(level)
    }

    /// The tasks one principal may run at once (at least 1; default 100). A task outlives
    /// its request (rmcp keeps it 5 minutes); past this, a call that could become a task is
    /// refused with `-32000` ([`reason::TOO_MANY_TASKS`](crate::reason::TOO_MANY_TASKS))
    /// before its handler runs, until one of the principal's tasks ends.
    #[must_use]
    pub fn max_tasks_per_principal(mut self, max: usize) -> Self {
        self.settings.max_tasks_per_principal = max.max(1);
        self
    }

    /// Tools per `tools/list` page (at least 1; default 100; `usize::MAX`: one page).
    #[must_use]
    pub fn page_size(mut self, size: usize) -> Self {
        self.settings.page_size = size.max(1);
        self
    }

    /// The cursor signing secret, at least 32 bytes (shorter fails `build`); give every
    /// replica behind a load balancer the same one. Without it, the secret comes from
    /// `MCP_TAILOR_CURSOR_SECRET` (hex) when the deployment sets it, so replicas share it
    /// without code; else each process draws a random one.
    #[must_use]
    pub fn cursor_secret(self, secret: impl Into<Vec<u8>>) -> Self {
        self.cursor_secrets(secret, Vec::<Vec<u8>>::new())
    }

    /// Rotates the cursor secret: sign with `current`, still accept cursors signed with any
    /// of `previous` (keep the old secret there for one cursor lifetime). Each at least 32
    /// bytes.
    #[must_use]
    pub fn cursor_secrets<S: Into<Vec<u8>>>(
        mut self,
        current: impl Into<Vec<u8>>,
        previous: impl IntoIterator<Item = S>,
    ) -> Self {
        self.settings.cursor_secrets = Some((
            current.into(),
            previous.into_iter().map(Into::into).collect(),
        ));
        self
    }

    /// How long a cursor stays valid (default 300 s).
    #[must_use]
    pub fn cursor_ttl(mut self, ttl: Duration) -> Self {
        self.settings.cursor_ttl = ttl;
        self
    }

    /// An explicit `ttlMs` for 2026-07-28 `tools/list` results (capped by the cursor's
    /// lifetime on a page with a `nextCursor`).
    #[must_use]
    pub fn list_ttl(mut self, ttl: Duration) -> Self {
        self.settings.list_ttl = Some(ttl);
        self
    }

    /// The deadline of every request's host callbacks (default 10 s).
    #[must_use]
    pub fn request_deadline(mut self, deadline: Duration) -> Self {
        self.settings.deadline = deadline;
        self
    }

    /// Receives the raw cause of every controlled failure (also logged, never sent).
    #[must_use]
    pub fn reporter(mut self, reporter: impl Fn(&Failure) + Send + Sync + 'static) -> Self {
        self.settings.reporter = Some(Arc::new(reporter));
        self
    }

    /// The limits of the streamable HTTP server (sessions, connections, timeouts, body
    /// size); see [`HttpConfig`](crate::http_config::HttpConfig) for each default.
    #[cfg(feature = "http")]
    #[must_use]
    pub fn http_config(mut self, config: crate::http_config::HttpConfig) -> Self {
        self.settings.http = config;
        self
    }

    /// The principal of requests that carry none (stdio, or HTTP without a middleware).
    #[must_use]
    pub fn default_principal(mut self, principal: Principal) -> Self {
        self.settings.default_principal = principal;
        self
    }

    /// Offers the index surface (`search_tools` and `call_tool` in place of the catalog) to
    /// the readers `index` gives it; every other reader keeps the catalog (feature `index`).
    #[cfg(feature = "index")]
    pub fn index(mut self, index: crate::surface::IndexSurface) -> Self {
        self.settings.index = Some(index);
        self
    }

    /// Builds the server, rejecting duplicate tool names (registered twice, or registered
    /// and served by the wrapped handler), `.tailor()` names the wrapped handler does not
    /// serve, invalid icons or `_meta`, a cursor secret under 32 bytes, and an invalid
    /// replica tag (with none in code, it is read from `MCP_TAILOR_REPLICA_TAG`), and a
    /// trusted proxy that is not an IP address (read from `MCP_TAILOR_TRUSTED_PROXIES`
    /// with none in code).
    // Only the streamable HTTP settings are completed here (the replica tag, the proxies).
    #[cfg_attr(not(feature = "http"), allow(unused_mut))]
    pub fn build(mut self) -> Result<Server<H>, BuildError> {
        #[cfg(feature = "http")]
        {
            let http = &mut self.settings.http;
            if http.replica_tag.is_none() {
                http.replica_tag = std::env::var(crate::http_config::ENV_REPLICA_TAG).ok();
            }
            check_replica_tag(http.replica_tag.as_deref())?;
            crate::transport::http::origin::Origins::parse(&http.allowed_origins)
                .map_err(BuildError::Origin)?;
            if http.trusted_proxies.is_empty() {
                http.trusted_proxies = env_trusted_proxies()?;
            }
        }
        let catalog = Catalog::new(self.settings.registrations)?;
        check_names(&catalog, &self.settings.attached, &self.wrapped)?;
        // A secret in code wins; else the deployment's, shared by its replicas; else a
        // random one for this process.
        let ttl = self.settings.cursor_ttl;
        let cursor = match self.settings.cursor_secrets {
            Some((current, previous)) => CursorSigner::rotating(current, previous, ttl)?,
            None => match env_secret()? {
                Some(shared) => CursorSigner::rotating(shared, Vec::<Vec<u8>>::new(), ttl)?,
                None => CursorSigner::random(ttl),
            },
        };
        let host_fallback = self.settings.fallback_verbosity.or_else(env_verbosity);
        let fallback_verbosity = host_fallback.unwrap_or(mcp_tailor_core::DEFAULT_VERBOSITY);
        if let Some(file) = &self.settings.file {
            log_findings(file, &catalog, &self.settings.attached);
        }
        let dynamic = self.settings.file.is_some()
            || catalog.is_tailored()
            || self.settings.attached.iter().any(|d| d.is_tailored())
            || self.settings.context.is_some()
            || self.settings.presentation.is_some()
            || matches!(self.settings.instructions, InstructionsSource::Provider(_));
        let gated = catalog.is_gated()
            || self
                .settings
                .attached
                .iter()
                .any(|d| !d.scopes().is_empty());
        let declared = self.wrapped.get_info();
        let wrapped = WrappedFacts {
            tools: declared.capabilities.tools.is_some(),
            logging: declared.capabilities.logging.is_some(),
            tasks: declared.capabilities.supports_tasks(),
            logger: self
                .settings
                .server_info
                .as_ref()
                .map_or(declared.server_info.name, |i| i.name.clone())
                .into(),
        };
        #[cfg(feature = "http")]
        let tag = self.settings.http.replica_tag.as_deref();
        #[cfg(not(feature = "http"))]
        let tag = None;
        let tasks = TaskTable::new(tag, self.settings.max_tasks_per_principal);
        let worded = catalog
            .entries()
            .iter()
            .map(|e| e.def())
            .chain(self.settings.attached.iter().copied())
            .collect();
        let file = TailoringSlot::new(
            self.settings.file.unwrap_or_default(),
            worded,
            host_fallback,
        );
        let reporter = self.settings.reporter;
        let shared = Arc::new(ServerState {
            listing: ListingInputs {
                catalog,
                attached: self.settings.attached,
                file,
                presentation: self.settings.presentation,
                page_size: self.settings.page_size,
                cursor,
                list_ttl: self.settings.list_ttl,
                dynamic,
                gated,
                reporter: reporter.clone(),
            },
            readers: ReaderPolicy {
                source: Arc::new(self.settings.reader_source),
                context: self.settings.context,
                fallback_verbosity,
                default_principal: self.settings.default_principal,
                reporter: reporter.clone(),
            },
            server_info: self.settings.server_info,
            instructions: self.settings.instructions,
            deadline: self.settings.deadline,
            reporter,
            subscribers: Default::default(),
            tasks,
            wrapped,
            #[cfg(feature = "index")]
            index: self.settings.index,
            #[cfg(feature = "http")]
            http: self.settings.http,
        });
        Ok(Server::new(shared, self.wrapped))
    }
}

/// Every tool name once: none registered and served by the wrapped handler `wrapped`, none
/// named twice by `.tailor()`, and every `.tailor()`ed one served by `wrapped` (its schema
/// checked too).
fn check_names<H: ServerHandler>(
    catalog: &Catalog,
    attached: &[&'static ToolDef],
    wrapped: &H,
) -> Result<(), BuildError> {
    for entry in catalog.entries() {
        if wrapped.get_tool(entry.def().name()).is_some() {
            return Err(BuildError::NameOnBothSides(entry.def().name().to_owned()));
        }
    }
    for (i, def) in attached.iter().enumerate() {
        def.check_schema()?;
        if attached[..i].iter().any(|d| d.name() == def.name()) {
            return Err(BuildError::TailoredTwice(def.name().to_owned()));
        }
        if catalog.get(def.name()).is_some() {
            return Err(BuildError::NameOnBothSides(def.name().to_owned()));
        }
        if wrapped.get_tool(def.name()).is_none() {
            return Err(BuildError::NoSuchInnerTool(def.name().to_owned()));
        }
    }
    Ok(())
}
