//! The streamable HTTP settings (feature `http`): what one client can make the process
//! hold and for how long, the threads that serve, the replica a process is behind a load
//! balancer, and the browser origins allowed. They are kept apart from the transport that
//! applies them, so that the state every session shares carries them without depending on
//! the transport.

use std::time::Duration;

/// The environment variable a replica's tag is read from when the host sets none in code
/// ([`HttpConfig::replica_tag`]): each replica of a deployment is started with its own.
pub const ENV_REPLICA_TAG: &str = "MCP_TAILOR_REPLICA_TAG";

/// The environment variable the trusted proxies are read from when the host sets none in
/// code ([`HttpConfig::trusted_proxies`]): addresses separated by commas.
pub const ENV_TRUSTED_PROXIES: &str = "MCP_TAILOR_TRUSTED_PROXIES";

/// The limits of the streamable HTTP server. Every default is chosen so that one process
/// on a small machine stays within a known memory bound under abandoned sessions and slow
/// clients; raise them for a larger deployment.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpConfig {
    /// Open sessions (2025 revisions) at most. An `initialize` into a full table closes the
    /// least recently used *idle* session (its next request gets HTTP 404, on which MCP
    /// clients start a new session) — never one with a request in flight or a response
    /// stream open; when every session is busy it answers HTTP 503 with a JSON-RPC error.
    /// Abandoned sessions therefore never lock new clients out. Default 1,000 (a session
    /// held 38 to 76 KB where measured, so 40 to 75 MB at the cap; see ROBUSTNESS.md).
    pub max_sessions: usize,
    /// Open sessions one client address may hold; past it, an `initialize` from that
    /// address closes that address's least recently used idle session (HTTP 503 when all
    /// of them are busy), so a flood from one address only ever evicts its own sessions and
    /// leaves the rest of the table to others. Default 250, a quarter of the table: many
    /// clients behind one address (a NAT, an office) still fit, and one address can never
    /// take the whole table. The address is the peer's, axum's `ConnectInfo<SocketAddr>` (set
    /// by `serve_http`/`serve_http_on`, or by `into_make_service_with_connect_info`), or the
    /// one a trusted proxy forwarded (see `trusted_proxies`); without one only
    /// `max_sessions` applies.
    pub max_sessions_per_client: usize,
    /// The reverse proxies (load balancers) in front of this server. Behind one, every
    /// peer is the proxy; for a peer listed here, the client address is the right-most
    /// address of `X-Forwarded-For` that is not itself a trusted proxy (nginx's
    /// `$proxy_add_x_forwarded_for` appends the address it saw). A header from any other
    /// peer is ignored, so clients cannot pick their own address. Default none; with none
    /// set in code, the builder reads [`ENV_TRUSTED_PROXIES`].
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The replica this process is, behind a load balancer: every session id it creates
    /// then reads `{tag}.{random}` (and every task id `{tag}.{id}`), so the balancer can
    /// send each session-bound request to the replica that holds the session by the
    /// `Mcp-Session-Id` header alone (a `tasks/*` request by its `Mcp-Name`), and requests
    /// without either anywhere. Letters, digits, `-` and `_`, at most 32; a
    /// tag that is not is refused when the server is built. Default none (random ids); with
    /// none set in code, the builder reads [`ENV_REPLICA_TAG`].
    pub replica_tag: Option<String>,
    /// A session without a request for this long is closed. Default 120 s.
    pub session_idle_timeout: Duration,
    /// Connections served at once; further ones wait in the listen backlog until one
    /// closes. Default 512 (keep it under the process's file-descriptor limit).
    pub max_connections: usize,
    /// Connections one client address may hold while the server is busy (three quarters
    /// of `max_connections` in use): past it, a further one from that address is closed as
    /// soon as it is accepted (and the refusal logged, at most every 10 s), so one address
    /// holding connections open (half-sent headers, event streams) never takes the
    /// connections of the others; below it, many clients behind one address are served as
    /// any. Default 128, a quarter of `max_connections`. The address is the peer's (a
    /// reverse proxy in front counts as one client: raise it, or rely on the proxy's own
    /// limits).
    pub max_connections_per_client: usize,
    /// Event streams (`GET` on a session) one principal may hold open at once, when client
    /// auth proves principals; a further one is answered HTTP 429 with `Retry-After`, so a
    /// principal holding streams open from many addresses never takes every connection.
    /// Default 128. With one shared bearer token every client is one principal: raise it
    /// to the streams the deployment holds, or give clients tokens of their own.
    pub max_streams_per_principal: usize,
    /// A request's headers must arrive within this time, and an idle keep-alive
    /// connection is closed after it. Default 5 s.
    pub header_read_timeout: Duration,
    /// A request's body must arrive within this time (HTTP 408 otherwise). Default 30 s.
    pub body_timeout: Duration,
    /// The largest request body (HTTP 413 beyond it). Default 4 MiB.
    pub max_body_bytes: usize,
    /// A request on a session (2025 revisions) whose first message back is its answer,
    /// within 50 ms, is answered with one `application/json` body, not an event stream,
    /// when its client accepts JSON (one write, one parse); a request that hears anything
    /// first (progress, a log line, a question to the client), or waits longer, keeps its
    /// event stream. Default `true`; `false` streams every answer, each with a priming
    /// event a client can resume from. (2026-07-28 requests have no session: their
    /// one-message answers are JSON already.) While on, a session's request that asks
    /// for no progress may be served by its handler directly, past rmcp's session worker
    /// ("Direct requests" in the serving guide).
    pub json_answers: bool,
    /// Threads that accept and serve connections. `1` (the default) serves every
    /// connection on the runtime `serve_http` runs on. `N > 1` starts `N - 1` more threads,
    /// each running its own accept loop on the same listener on a single-threaded tokio
    /// runtime: a connection, and the sessions opened on it, stay on the thread that
    /// accepted it, so requests of different connections run in parallel without a
    /// multi-thread runtime's task stealing. The threads end when serving does.
    pub accept_threads: usize,
    /// Browser origins allowed to call the endpoint besides its own: each
    /// `scheme://host[:port]`, or `*` for any. A request is answered HTTP 403 when it
    /// carries an `Origin` header that is neither the endpoint's own (the host and port
    /// of its `Host` header) nor listed here; one with no `Origin` (any client that is not
    /// a browser) passes. The MCP transport asks servers to check `Origin` on every
    /// request (DNS rebinding). Default none; an entry that is no origin is refused when
    /// the server is built.
    pub allowed_origins: Vec<String>,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            max_sessions: 1_000,
            max_sessions_per_client: 250,
            trusted_proxies: Vec::new(),
            replica_tag: None,
            session_idle_timeout: Duration::from_secs(120),
            max_connections: 512,
            max_connections_per_client: 128,
            max_streams_per_principal: 128,
            header_read_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(30),
            max_body_bytes: 4 * 1024 * 1024,
            json_answers: true,
            accept_threads: 1,
            allowed_origins: Vec::new(),
        }
    }
}
