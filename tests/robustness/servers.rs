//! The servers under test, each run in a child process so that its memory is its own:
//! the 100-tool benchmark catalog on mcp-tailor and on plain rmcp, and a small tailored
//! catalog whose host callbacks fail at random for the principal `fault`.

use mcp_tailor::mcp_tool;
use mcp_tailor::server::HttpConfig;
use mcp_tailor::server::rmcp::handler::server::wrapper::Parameters;
use mcp_tailor::server::{
    CallContext, Presentation, Principal, Server, TaskSupport, ToolRegistration,
};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Map, Value, json};
use std::net::SocketAddr;
use std::time::Duration;

include!(concat!(env!("OUT_DIR"), "/bench_catalog.rs"));

/// The environment variable naming the gateway's upstream (`robustness gateway`).
pub const ENV_UPSTREAM: &str = "MCP_TAILOR_BENCH_UPSTREAM";

/// The tailoring file the gateway applies to the plain-rmcp benchmark catalog: the same
/// wording the mcp-tailor catalog declares in its tables (every even tool by level and for
/// codex, its first argument by level).
pub fn bench_tailoring() -> String {
    (0..100)
        .step_by(2)
        .map(|i| {
            format!(
                r#"[tools.tool_{i}.description]
levels = [{{ verbosity = 0, text = "T{i}." }}, {{ verbosity = 5, text = "Tool {i} does its thing." }}, {{ verbosity = 9, text = "Tool {i} does its thing, with every detail a frontier model can use." }}]
descriptions = {{ codex_v = "tool_{i}(a, b?, c) -> result" }}
runners = [{{ runner = "codex", model = "_", default = "codex_v" }}]
fill = "nearest"
[tools.tool_{i}.arguments.a]
description = {{ levels = [{{ verbosity = 0, text = "a" }}, {{ verbosity = 9, text = "The first argument of tool {i}, in full." }}], fill = "nearest" }}
"#
            )
        })
        .collect()
}

/// The gateway in front of the upstream named by [`ENV_UPSTREAM`], tailored by
/// [`bench_tailoring`]: what `mcp-tailor proxy --http` serves.
async fn gateway() -> Server<mcp_tailor::gateway::Gateway> {
    use mcp_tailor::gateway::{Gateway, Upstream};
    let url = std::env::var(ENV_UPSTREAM).expect("the upstream's URL");
    let gateway = Gateway::connect(Upstream::http(url), Duration::from_secs(9))
        .await
        .expect("the upstream answers");
    let tailoring = mcp_tailor::Tailoring::from_toml_str(&bench_tailoring()).expect("valid");
    Server::builder()
        .handler(gateway)
        .tailoring(tailoring)
        .http_config(http_config())
        .build()
        .expect("builds")
}

/// Tailored by level and runner.
#[mcp_tool(
    description = [(verbosity(0..=3), "Find notes."), (verbosity(4..=9), "Find notes by the words in their title or body.")],
    descriptions = [codex_find = "find(query) -> [id]", grok_find = "Find notes. `query` is plain words."],
    runners = [((codex, _), [default = codex_find]), ((grok, _), [default = grok_find])],
)]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Find {
    #[mcp(description = [(verbosity(0), "words"), (verbosity(9), "The words to look for.")])]
    pub query: String,
}

/// Read one note.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Read {
    /// The note's id.
    pub id: u64,
}

/// Delete a note (needs `notes.delete`).
#[mcp_tool(scopes = ["notes.delete"])]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Delete {
    /// The note's id.
    pub id: u64,
}

/// A pseudo-random number from the clock, for faults (no state shared between requests).
fn coin(sides: u64) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as u64);
    (nanos ^ (nanos >> 7)) % sides
}

/// The faults a host callback can have, at random, for the principal `fault`.
async fn faulty_presentation(tool: Value, principal: &str) -> Presentation {
    if principal != "fault" {
        return Presentation::Default;
    }
    match coin(6) {
        0 => Presentation::Error("boom: the presentation store is down".into()),
        1 => panic!("boom: a presentation bug"),
        2 => {
            // Sleep: simulated work, a presentation store that hangs.
            tokio::time::sleep(Duration::from_secs(5)).await;
            Presentation::Default
        }
        3 => {
            let mut deep = Value::Null;
            for _ in 0..100_000 {
                deep = Value::Array(vec![deep]);
            }
            let mut meta = Map::new();
            meta.insert("com.example/deep".into(), deep);
            let mut overrides = Map::new();
            overrides.insert("_meta".into(), Value::Object(meta));
            Presentation::Overrides(overrides)
        }
        4 => Presentation::Overrides(
            json!({"name": "renamed"})
                .as_object()
                .cloned()
                .unwrap_or_default(),
        ),
        _ => {
            let _ = tool;
            Presentation::Default
        }
    }
}

/// Sleeps `ms`, then answers how long it slept (a task for clients that support them).
async fn job(args: Job, _: CallContext) -> Result<Value, String> {
    // Sleep: simulated work, as long as the call asks.
    tokio::time::sleep(Duration::from_millis(args.ms)).await;
    Ok(json!({"slept_ms": args.ms}))
}

/// The small tailored catalog with faulty host callbacks, and a task tool.
pub fn faulty() -> Server {
    Server::builder()
        .name("robustness", "1.0.0")
        .request_deadline(Duration::from_millis(300))
        .http_config(http_config())
        .presentation(|tool, info| async move { faulty_presentation(tool, &info.principal.id).await })
        .register(
            ToolRegistration::new(|args: Find, _: CallContext| async move {
                Ok::<_, String>(json!({"found": args.query}))
            })
            .authorize(|_, info| async move {
                // `fault` meets every kind of fault; `fault-authorize` this one alone.
                if info.principal.id.starts_with("fault") && coin(4) == 0 {
                    panic!("boom: authorize bug");
                }
                true
            }),
        )
        .tool(|args: Read, _: CallContext| async move { Ok::<_, String>(json!({"id": args.id})) })
        .register(ToolRegistration::new(job).tasks(TaskSupport::Optional))
        .tool(|args: Delete, _: CallContext| async move { Ok::<_, String>(json!({"deleted": args.id})) })
        .build()
        .expect("a valid catalog")
}

/// The limits the robustness runs use: the defaults, with a session table of 2,000.
pub fn http_config() -> HttpConfig {
    let mut config = HttpConfig::default();
    config.max_sessions = 2_000;
    config.header_read_timeout = Duration::from_secs(2);
    config
}

/// `X-Principal: id[;scope,scope]` becomes the request's principal (a test stand-in for
/// authentication).
async fn principal(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let header = request
        .headers()
        .get("x-principal")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    if let Some(header) = header {
        let (id, scopes) = header.split_once(';').unwrap_or((&header, ""));
        let principal = Principal::new(id).with_scopes(scopes.split(',').filter(|s| !s.is_empty()));
        request.extensions_mut().insert(principal);
    }
    next.run(request).await
}

/// A job of `ms` milliseconds, run as an MCP task for clients that support them.
#[mcp_tool(name = "job")]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Job {
    /// How long the job takes.
    pub ms: u64,
}

/// A replica behind a load balancer: the 100-tool catalog and a task tool, ten tools a
/// page, its tag, cursor secret and trusted proxies from the environment as a deployment
/// sets them.
pub fn replica() -> Server {
    builder()
        .register(ToolRegistration::new(job).tasks(TaskSupport::Optional))
        .page_size(10)
        .http_config(http_config())
        .build()
        .expect("a valid catalog and replica environment")
}

/// What a server process says on stderr before the address it listens at.
pub const LISTENING_ON: &str = "robustness server on http://";

/// Serves `kind` (`tailor`, `rmcp`, `faulty` or `replica`) at `addr` (port 0: one the
/// system picks) until the process is killed, once it said where (`LISTENING_ON`).
pub async fn serve(kind: &str, addr: SocketAddr) {
    let listener = tokio::net::TcpListener::bind(addr).await.expect("bind");
    let bound = listener.local_addr().expect("bound");
    eprintln!("{LISTENING_ON}{bound}/mcp");
    match kind {
        "rmcp" => {
            use axum::serve::ListenerExt as _;
            use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
            use rmcp::transport::streamable_http_server::{
                StreamableHttpServerConfig, StreamableHttpService,
            };
            let service = StreamableHttpService::new(
                || Ok(RmcpServer),
                std::sync::Arc::new(LocalSessionManager::default()),
                // As mcp-tailor's router answers: one-message stateless replies as JSON.
                StreamableHttpServerConfig::default().with_json_response(true),
            );
            let router = axum::Router::new().nest_service("/mcp", service);
            let listener = listener.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, router).await.expect("serve");
        }
        "gateway" => {
            let server = gateway().await;
            server
                .serve_http_on(listener, server.router(), std::future::pending())
                .await
                .expect("serve");
        }
        kind => {
            let server = match kind {
                "tailor" => built(),
                "replica" => replica(),
                _ => faulty(),
            };
            let router = server.router().layer(axum::middleware::from_fn(principal));
            server
                .serve_http_on(listener, router, std::future::pending())
                .await
                .expect("serve");
        }
    }
}
