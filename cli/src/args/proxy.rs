//! `proxy`'s command line: where it serves, what it serves (one upstream or an
//! `mcpServers` file), the reader of a request that names none, upstream sessions, the
//! access (who may call), metrics and the log, checked into [`ProxyOptions`].

use super::access::AccessArgs;
use super::sources::{ServerArgs, source};
use super::{Access, Source, SurfaceArgs, TAILORING_HELP, Upstreams};
use crate::values::{listen_addr, seconds};
use clap::{Args, ValueEnum};
use mcp_tailor::gateway::UpstreamSessions;
use mcp_tailor::server::Surface;
use std::net::SocketAddr;
use std::time::Duration;

/// `proxy`'s options.
#[derive(Debug, PartialEq)]
pub(crate) struct ProxyOptions {
    pub(crate) tailoring: Option<String>,
    pub(crate) http: Option<SocketAddr>,
    /// Threads serving HTTP (`--threads`).
    pub(crate) threads: u16,
    pub(crate) deadline: Duration,
    /// One upstream, or the servers of an `mcpServers` file (`--servers`).
    pub(crate) upstream: Upstreams,
    /// The reader of a request that names none (`--runner`, `--model`, `--verbosity`).
    pub(crate) runner: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) verbosity: Option<u8>,
    /// One upstream session per client, or one shared; a warm spare.
    pub(crate) sessions: UpstreamSessions,
    /// Per client: the upstream sessions one principal (or address) may hold.
    pub(crate) max_upstream_sessions: usize,
    pub(crate) warm_spare: bool,
    /// Send the upstream each client's own `Authorization`.
    pub(crate) forward_authorization: bool,
    /// Tools per `tools/list` page (`--page-size`; else as the upstream pages).
    pub(crate) page_size: Option<usize>,
    /// Who may call over HTTP, and from which origins.
    pub(crate) access: Access,
    /// Where Prometheus reads the metrics (`--metrics`).
    pub(crate) metrics: Option<SocketAddr>,
    /// The variable holding the token a scraper must send (`--metrics-token-env`).
    pub(crate) metrics_token_env: Option<String>,
    /// The log's lines: for people, or one JSON object each.
    pub(crate) log_json: bool,
    /// The surface of a reader that names none, and how the index surface reads.
    pub(crate) index: IndexOptions,
}

/// How `proxy` offers the index surface (`--surface`, `--index-budget`, `--load-on-find`,
/// `--embedding-model`).
#[derive(Debug, PartialEq)]
pub(crate) struct IndexOptions {
    /// The surface of a reader that names none.
    pub(crate) surface: Surface,
    /// The most tokens the index's lines may take with words.
    pub(crate) budget: Option<crate::values::IndexBudget>,
    /// Found tools join the session's listing.
    pub(crate) load_on_find: bool,
    /// The embedding model `search_tools` ranks with too.
    pub(crate) embedding_model: Option<String>,
}

/// `proxy`'s command line.
#[derive(Debug, Args)]
pub(super) struct ProxyArgs {
    #[arg(long, value_name = "FILE", help = TAILORING_HELP)]
    tailoring: Option<String>,
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["upstream", "command"],
        help = "Serve every server of an mcpServers file (Claude, Cursor, VS Code) behind one endpoint",
        long_help = "Serve every server of an mcpServers file — Claude Desktop's, Claude Code's \
                     .mcp.json, Cursor's, or VS Code's {\"servers\": …} — behind one endpoint. \
                     A tool name one server lists is served as it is; one several list is served \
                     as SERVER_NAME by each. Keys of mcp-tailor's own per server: \"tailoring\" \
                     (a file for its tools, by their own names), \"tools\": {\"allow\": [...], \
                     \"deny\": [...]} (names or globs) and \"deadline\" (seconds). --tailoring \
                     then words the whole, by the names served. A server that does not answer is \
                     retried in the background while the others serve."
    )]
    servers: Option<String>,
    #[arg(
        long,
        value_name = "ADDR",
        value_parser = listen_addr,
        help = "Serve streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8080, localhost:8080) instead of stdio"
    )]
    http: Option<SocketAddr>,
    #[arg(
        long,
        value_name = "N",
        requires = "http",
        default_value_t = 1,
        value_parser = clap::value_parser!(u16).range(1..=256),
        help = "Threads serving HTTP connections",
        long_help = "Threads serving HTTP connections, each accepting on the same port and \
                     keeping the connections (and the sessions opened on them) it accepted. \
                     More threads list faster under concurrent clients and cost more CPU per \
                     request; the calls of clients sharing one upstream session \
                     (--upstream-sessions shared) go slower, as they cross threads to reach it \
                     (BENCHMARKS.md §9)."
    )]
    threads: u16,
    #[arg(
        long,
        value_name = "SECS",
        default_value = "10",
        value_parser = seconds,
        help = "How long a request may take, the upstream's answer included"
    )]
    deadline: Duration,
    #[command(flatten)]
    reader: ReaderArgs,
    #[command(flatten)]
    index: IndexArgs,
    #[arg(
        long = "upstream-sessions",
        value_name = "MODE",
        value_enum,
        help = "One upstream session per client (its own process, for a command), or one shared by all \
                (default: per-client for one upstream, shared for --servers)",
        long_help = "per-client: each client its own upstream session, opened with the client's \
                     own initialize (the first client takes the one the proxy opened at start \
                     when it declares no capabilities); for a command upstream, a process per \
                     client. shared: one upstream session for all; what the upstream asks a \
                     client (sampling, elicitation, roots) goes to the client whose request is \
                     in flight, and is refused when that cannot be told; its notifications go to \
                     every client. Default: per-client for one upstream; shared for --servers, \
                     where a session of its own would start every server of the file for each \
                     client (seconds, and a gigabyte of processes, per session)."
    )]
    upstream_sessions: Option<SessionsArg>,
    #[arg(
        long = "max-upstream-sessions",
        value_name = "N",
        default_value_t = 16,
        value_parser = clap::value_parser!(u32).range(1..),
        help = "Per client, for a command upstream: the processes one principal may hold, or one address without client auth"
    )]
    max_upstream_sessions: u32,
    #[arg(
        long = "warm-spare",
        help = "Per client: keep an upstream session open ahead, so a new client does not wait for one to start"
    )]
    warm_spare: bool,
    #[arg(
        long = "page-size",
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..),
        help = "Tools per tools/list page (default: as the upstream pages its own listing)",
        long_help = "Tools per tools/list page. By default the proxy pages as the upstream does: \
                     as many tools a page as the upstream's first page held, or all on one page \
                     where the upstream lists them so, so that a client that follows no cursor \
                     gets every tool it would directly."
    )]
    page_size: Option<u32>,
    #[arg(
        long = "forward-authorization",
        requires = "upstream",
        help = "Send an --upstream URL each client's own Authorization header (streamable HTTP clients)",
        long_help = "Send an --upstream URL each client's own Authorization header: each \
                     upstream connection then carries one client's credential (a session's own; \
                     shared, or for stateless requests, one per credential), never another's. \
                     A client without one is forwarded without one."
    )]
    forward_authorization: bool,
    #[arg(
        long,
        value_name = "ADDR",
        value_parser = listen_addr,
        help = "Serve Prometheus metrics at http://ADDR/metrics",
        long_help = "Serve the proxy's metrics as Prometheus (OpenMetrics) text at \
                     http://ADDR/metrics: requests by method and outcome, their latency, the \
                     upstream's connections (open, opened, lost), and the tokens each reader's \
                     tools/list costs and saves against the server's own words at each level \
                     (counted once per catalog, as `inspect tokens` counts them)."
    )]
    metrics: Option<SocketAddr>,
    #[arg(
        long = "metrics-token-env",
        value_name = "NAME",
        requires = "metrics",
        help = "Require Authorization: Bearer <the value of $NAME> at /metrics (a scraper's token)"
    )]
    metrics_token_env: Option<String>,
    #[arg(
        long = "log-format",
        value_name = "FORMAT",
        value_enum,
        default_value_t = LogFormat::Text,
        help = "The log on stderr: text for people, or json (one object a line, for a log collector)"
    )]
    log_format: LogFormat,
    #[command(flatten)]
    access: AccessArgs,
    #[command(flatten)]
    server: ServerArgs,
}

/// `--upstream-sessions`.
#[derive(Clone, Copy, Debug, PartialEq, ValueEnum)]
enum SessionsArg {
    PerClient,
    Shared,
}

/// `--log-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// `--runner`, `--model`, `--verbosity`: the reader of a request that names none.
#[derive(Debug, Args)]
struct ReaderArgs {
    #[arg(
        long,
        value_name = "NAME",
        help = "The runner of a reader that names none (a client config pins what its client does not report)"
    )]
    runner: Option<String>,
    #[arg(
        long,
        value_name = "NAME",
        help = "The model of a reader that names none"
    )]
    model: Option<String>,
    #[arg(
        long,
        value_name = "LEVEL",
        value_parser = clap::value_parser!(u8).range(0..=9),
        help = "The level 0..=9 of a reader that names none (default: the file's fallback_verbosity, else the server's own words)"
    )]
    verbosity: Option<u8>,
}

/// Which surface readers get, and how the index reads.
#[derive(Debug, Args)]
struct IndexArgs {
    #[command(flatten)]
    surface: SurfaceArgs,
    #[arg(
        long = "load-on-find",
        help = "The tools search_tools finds join the session's tools/list (announced with list_changed)"
    )]
    load_on_find: bool,
    #[command(flatten)]
    embedding: crate::reports::EmbeddingArgs,
}

impl ProxyArgs {
    /// The options `proxy` runs with: exactly one upstream, or an `mcpServers` file.
    pub(super) fn options(self) -> Result<ProxyOptions, clap::Error> {
        let server = self.server;
        let upstream = match self.servers {
            Some(file) => Upstreams::Servers(file),
            None => match source("proxy", server.upstream, server.command, None, &[])? {
                Source::Upstream(upstream) => Upstreams::One(upstream),
                Source::Catalog(_) => unreachable!("proxy takes no catalog"),
            },
        };
        // A fleet shares: a session of its own per client would start every server of the
        // file for each client.
        let sessions = match self.upstream_sessions {
            Some(SessionsArg::PerClient) => UpstreamSessions::PerClient,
            Some(SessionsArg::Shared) => UpstreamSessions::Shared,
            None if matches!(upstream, Upstreams::Servers(_)) => UpstreamSessions::Shared,
            None => UpstreamSessions::PerClient,
        };
        Ok(ProxyOptions {
            tailoring: self.tailoring,
            http: self.http,
            threads: self.threads,
            deadline: self.deadline,
            upstream,
            runner: self.reader.runner,
            model: self.reader.model,
            verbosity: self.reader.verbosity,
            sessions,
            max_upstream_sessions: self.max_upstream_sessions as usize,
            warm_spare: self.warm_spare,
            forward_authorization: self.forward_authorization,
            page_size: self.page_size.map(|size| size as usize),
            access: self.access.access(),
            metrics: self.metrics,
            metrics_token_env: self.metrics_token_env,
            log_json: self.log_format == LogFormat::Json,
            index: IndexOptions {
                surface: self.index.surface.surface.surface(),
                budget: self.index.surface.index_budget,
                load_on_find: self.index.load_on_find,
                embedding_model: self.index.embedding.embedding_model,
            },
        })
    }
}
