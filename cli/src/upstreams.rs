//! What `proxy` serves and `inspect --servers` reads: one upstream (a [`Gateway`]) or the servers of an `mcpServers` file
//! (a [`Fleet`]), each opened with the command line's options, and the tailoring file that
//! words it — for a fleet, the file of the whole with each server's own file taken in
//! under the names its tools are served by.

use crate::CommandError;
use crate::args::{Auth, ProxyOptions, Upstreams};
use crate::servers::{self, ServerEntry};
use mcp_tailor::Tailoring;
use mcp_tailor::gateway::fleet::{Fleet, FleetMember};
use mcp_tailor::gateway::{Gateway, GatewayOptions, Observer, Served, Upstream, UpstreamCounts};
use mcp_tailor::server::rmcp::ServerHandler;
use mcp_tailor::server::rmcp::model::Tool;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long the gateway waits for the upstream, under the layer's deadline so its error
/// is the one the client gets.
const MARGIN: Duration = Duration::from_millis(250);

/// Tells of each request a named upstream served (the metrics, once they exist).
pub(crate) type OnServed = Arc<dyn Fn(&str, &Served<'_>) + Send + Sync>;

/// What `proxy` serves — a handler for the layer — and what the proxy reads of it.
pub(crate) trait Proxied: Send + Sync + 'static {
    /// The rmcp handler the layer wraps.
    type Handler: ServerHandler + Clone + Send + Sync + 'static;
    /// The handler, for the layer.
    fn handler(&self) -> Self::Handler;
    /// What it serves, for the log.
    fn describe(&self) -> String;
    /// Its tools as last listed (under the names served); `None` before any listing.
    fn listed_tools(&self) -> Option<Vec<Tool>>;
    /// Tools a page of the upstream's own listing, to page as it does.
    fn page_size(&self) -> Option<usize>;
    /// Each upstream's name and connection counts.
    fn counts(&self) -> Vec<(String, UpstreamCounts)>;
    /// The tailoring file in force now, read afresh.
    fn tailoring(&self) -> Result<Tailoring, CommandError>;
    /// The files [`tailoring`](Self::tailoring) reads (watched for edits).
    fn files(&self) -> Vec<PathBuf>;
    /// Hears when the tailoring must be read again though no file changed (a fleet's
    /// member joined, or its tools' served names changed).
    fn changes(&self) -> Option<tokio::sync::watch::Receiver<u64>>;
    /// Hears when the tools listed upstream changed (to log the file's drift again).
    fn tools_changed(&self) -> tokio::sync::watch::Receiver<u64>;
}

/// One upstream and its file.
#[derive(Clone)]
pub(crate) struct UpstreamProxied {
    pub(crate) gateway: Gateway,
    file: Option<PathBuf>,
}

/// The servers of an `mcpServers` file, the file of the whole and each server's own.
#[derive(Clone)]
pub(crate) struct FleetProxied {
    pub(crate) fleet: Fleet,
    whole: Option<PathBuf>,
    /// Each member's own file, by member index.
    own: Vec<Option<PathBuf>>,
}

/// Each gateway's options, as the command line gives them.
fn gateway_options(options: &ProxyOptions, deadline: Duration) -> GatewayOptions {
    GatewayOptions {
        deadline: deadline.saturating_sub(MARGIN).max(MARGIN),
        sessions: options.sessions,
        warm_spare: options.warm_spare,
        forward_authorization: options.forward_authorization,
        max_sessions_per_holder: options.max_upstream_sessions,
        ..GatewayOptions::default()
    }
}

/// An observer telling `tell` of requests to the upstream `name`.
fn observer(
    tell: &Option<OnServed>,
    name: impl Fn() -> Option<String> + Send + Sync + 'static,
) -> Option<Observer> {
    let tell = tell.clone()?;
    Some(Observer::new(move |served| {
        if let Some(name) = name() {
            tell(&name, served);
        }
    }))
}

/// Opens what `options` name: `UpstreamProxied` or `FleetProxied`, through `open`.
pub(crate) enum AnyProxied {
    One(UpstreamProxied),
    Many(FleetProxied),
}

/// Opens the upstream (or every server) `options` name; `tell` hears of each request.
pub(crate) async fn open(
    options: &ProxyOptions,
    tell: Option<OnServed>,
) -> Result<AnyProxied, CommandError> {
    match &options.upstream {
        Upstreams::One(upstream) => {
            // The upstream is named as it names itself, learned when it answers.
            let name = Arc::new(std::sync::OnceLock::<String>::new());
            let mut gateway_options = gateway_options(options, options.deadline);
            let named = name.clone();
            gateway_options.observer = observer(&tell, move || named.get().cloned());
            let mut upstream = upstream.clone();
            let program = match &upstream {
                Upstream::Command { program, .. } => std::path::Path::new(program)
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned()),
                Upstream::Http { .. } => None,
            };
            let logged_as = program.filter(|_| options.log_json);
            prepare(&mut upstream, &gateway_secrets(options), logged_as);
            let gateway = Gateway::connect_with(upstream, gateway_options).await?;
            let _ = name.set(gateway.get_info().server_info.name);
            let file = options.tailoring.as_ref().map(PathBuf::from);
            Ok(AnyProxied::One(UpstreamProxied { gateway, file }))
        }
        Upstreams::Servers(path) => {
            let whole = options.tailoring.as_deref();
            let secrets = gateway_secrets(options);
            let many = FleetProxied::connect(path, whole, &secrets, options.log_json, |entry| {
                member_options(options, &tell, entry)
            });
            Ok(AnyProxied::Many(many.await?))
        }
    }
}

/// A member's gateway options: the command line's, its deadline at most `--deadline`, its
/// requests told to `tell` under its name.
fn member_options(
    options: &ProxyOptions,
    tell: &Option<OnServed>,
    entry: &ServerEntry,
) -> GatewayOptions {
    let deadline = entry
        .deadline
        .unwrap_or(options.deadline)
        .min(options.deadline);
    let mut gateway_options = gateway_options(options, deadline);
    let name = entry.name.clone();
    gateway_options.observer = observer(tell, move || Some(name.clone()));
    gateway_options
}

impl FleetProxied {
    /// Connects to every server of the `mcpServers` file at `path`, each with the options
    /// `options` gives it; `whole` is the file of the whole.
    /// With `log_json`, each command server's stderr is logged as JSON lines under its name.
    pub(crate) async fn connect(
        path: &str,
        whole: Option<&str>,
        secrets: &[String],
        log_json: bool,
        options: impl Fn(&ServerEntry) -> GatewayOptions,
    ) -> Result<FleetProxied, CommandError> {
        let mut entries = servers::read(path)?;
        for entry in &mut entries {
            let logged_as = log_json.then(|| entry.name.clone());
            prepare(&mut entry.upstream, secrets, logged_as);
        }
        let own = entries.iter().map(|e| e.tailoring.clone()).collect();
        let members = entries
            .into_iter()
            .map(|entry| FleetMember {
                options: options(&entry),
                name: entry.name,
                upstream: entry.upstream,
                tools: entry.tools,
            })
            .collect();
        let fleet = Fleet::connect(members).await;
        Ok(FleetProxied {
            fleet,
            whole: whole.map(PathBuf::from),
            own,
        })
    }
}

/// The environment variables holding the gateway's own secrets (the client-auth and
/// scraper tokens): never an upstream's to read.
fn gateway_secrets(options: &ProxyOptions) -> Vec<String> {
    let access = match &options.access.auth {
        Auth::Bearer { env } => Some(env.clone()),
        _ => None,
    };
    access
        .into_iter()
        .chain(options.metrics_token_env.clone())
        .collect()
}

/// Readies `upstream` to be opened: the variables `secrets` kept from a command's
/// environment; its stderr logged as `logged_as` when given; what may be a secret in it
/// kept out of the log.
fn prepare(upstream: &mut Upstream, secrets: &[String], logged_as: Option<String>) {
    if let Upstream::Command {
        withheld,
        stderr_log,
        ..
    } = upstream
    {
        withheld.extend(secrets.iter().cloned());
        if logged_as.is_some() {
            *stderr_log = logged_as;
        }
    }
    crate::redact::upstream(upstream);
}

/// The file at `path`, or an empty one.
fn load(path: Option<&PathBuf>) -> Result<Tailoring, CommandError> {
    match path {
        Some(path) => Ok(Tailoring::load(path)?),
        None => Ok(Tailoring::default()),
    }
}

impl Proxied for UpstreamProxied {
    type Handler = Gateway;

    fn handler(&self) -> Gateway {
        self.gateway.clone()
    }
    fn describe(&self) -> String {
        self.gateway.upstream().to_string()
    }
    fn listed_tools(&self) -> Option<Vec<Tool>> {
        self.gateway.listed_tools()
    }
    fn page_size(&self) -> Option<usize> {
        self.gateway.page_size()
    }
    fn counts(&self) -> Vec<(String, UpstreamCounts)> {
        let name = self.gateway.get_info().server_info.name;
        vec![(name, self.gateway.upstream_counts())]
    }
    fn tailoring(&self) -> Result<Tailoring, CommandError> {
        load(self.file.as_ref())
    }
    fn files(&self) -> Vec<PathBuf> {
        self.file.iter().cloned().collect()
    }
    fn changes(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        None
    }
    fn tools_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.gateway.tools_changed()
    }
}

impl Proxied for FleetProxied {
    type Handler = Fleet;

    fn handler(&self) -> Fleet {
        self.fleet.clone()
    }
    fn describe(&self) -> String {
        let names: Vec<String> = self.fleet.members().into_iter().map(|(n, _)| n).collect();
        format!("{} servers ({})", names.len(), names.join(", "))
    }
    fn listed_tools(&self) -> Option<Vec<Tool>> {
        self.fleet.listed_tools()
    }
    fn page_size(&self) -> Option<usize> {
        None
    }
    fn counts(&self) -> Vec<(String, UpstreamCounts)> {
        self.fleet
            .members()
            .into_iter()
            .map(|(name, gateway)| {
                let counts = gateway.map(|g| g.upstream_counts()).unwrap_or_default();
                (name, counts)
            })
            .collect()
    }
    /// The file of the whole, each server's own file taken in under its served names.
    fn tailoring(&self) -> Result<Tailoring, CommandError> {
        let mut whole = load(self.whole.as_ref())?;
        for (member, path) in self.own.iter().enumerate() {
            let Some(path) = path else {
                continue;
            };
            let own = load(Some(path))?;
            whole
                .absorb(&own, |tool| self.fleet.served_name(member, tool))
                .map_err(|source| CommandError::Absorb {
                    path: path.clone(),
                    source,
                })?;
        }
        Ok(whole)
    }
    fn files(&self) -> Vec<PathBuf> {
        self.whole
            .iter()
            .chain(self.own.iter().flatten())
            .cloned()
            .collect()
    }
    fn changes(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        Some(self.fleet.changed())
    }
    fn tools_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        self.fleet.tools_changed()
    }
}
