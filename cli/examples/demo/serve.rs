//! `demo serve`: the notes server on stdio or streamable HTTP.

use crate::store::{CallError, Notes};
use crate::tools::{self, CreateNote, DeleteNote, ReadNote, SearchNotes, TagNote};
use clap::{Arg, ArgMatches, value_parser};
use mcp_tailor::server::{CallContext, Principal, Server};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// The options of `serve`.
#[derive(Debug, Default, PartialEq)]
pub struct ServeArgs {
    pub http: Option<SocketAddr>,
    /// The level of every request that names none: what `list --verbosity` means too.
    pub verbosity: Option<u8>,
    /// The server's fallback level.
    pub fallback_verbosity: Option<u8>,
    pub scopes: Vec<String>,
    /// Tools per `tools/list` page (the server's default, 100, when absent).
    pub page_size: Option<usize>,
}

/// The header the demo reads scopes from on HTTP. A stand-in for real authentication:
/// a deployment puts a `Principal` into the request extensions from its own auth layer.
pub const DEMO_SCOPES_HEADER: &str = "x-demo-scopes";

/// `serve`'s command line.
pub fn command() -> clap::Command {
    let level = || value_parser!(u8).range(0..=9);
    clap::Command::new("serve")
        .about("Serve the notes server over MCP on stdio, or streamable HTTP at /mcp")
        .arg(
            Arg::new("http")
                .long("http")
                .value_name("IP:PORT")
                .value_parser(value_parser!(SocketAddr))
                .help("Serve streamable HTTP at http://IP:PORT/mcp instead of stdio"),
        )
        .arg(
            Arg::new("verbosity")
                .long("verbosity")
                .value_name("N")
                .value_parser(level())
                .help("The level of every request that names none (as in `list`)"),
        )
        .arg(
            Arg::new("fallback-verbosity")
                .long("fallback-verbosity")
                .value_name("N")
                .value_parser(level())
                .help("The fallback level of descriptions without a default of their own"),
        )
        .arg(
            Arg::new("scopes")
                .long("scopes")
                .value_name("a,b")
                .help("The stdio caller's scopes (on HTTP, the X-Demo-Scopes header stands in for authentication)"),
        )
        .arg(
            Arg::new("page-size")
                .long("page-size")
                .value_name("N")
                .value_parser(value_parser!(u64).range(1..))
                .help("Tools per tools/list page"),
        )
        .after_help(
            "The cursor secret comes from MCP_TAILOR_CURSOR_SECRET (hex) when set, so \
             replicas accept one another's cursors.",
        )
}

/// `serve`'s options from its matches.
pub fn args(matches: &ArgMatches) -> ServeArgs {
    ServeArgs {
        http: matches.get_one::<SocketAddr>("http").copied(),
        verbosity: matches.get_one::<u8>("verbosity").copied(),
        fallback_verbosity: matches.get_one::<u8>("fallback-verbosity").copied(),
        scopes: matches
            .get_one::<String>("scopes")
            .into_iter()
            .flat_map(|s| s.split(','))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        page_size: matches
            .get_one::<u64>("page-size")
            .map(|&n| usize::try_from(n).unwrap_or(usize::MAX)),
    }
}

type Store = Arc<Mutex<Notes>>;

/// A tool handler running one store operation under the store's lock.
fn on<T: 'static>(
    store: &Store,
    operation: fn(&mut Notes, T) -> Result<Value, CallError>,
) -> impl Fn(T, CallContext) -> std::future::Ready<Result<Value, CallError>> + Send + Sync + 'static
{
    let store = store.clone();
    move |args, _| {
        let mut notes = store.lock().unwrap_or_else(|e| e.into_inner());
        std::future::ready(operation(&mut notes, args))
    }
}

/// The demo's server: five tools over one in-memory store.
pub fn server(args: &ServeArgs) -> Server {
    let store: Store = Arc::default();
    let mut builder = Server::builder()
        .name("mcp-tailor-demo", env!("CARGO_PKG_VERSION"))
        .instructions_table(&tools::GUIDE)
        .default_principal(Principal::new("local").with_scopes(args.scopes.iter().cloned()));
    if let Some(level) = args.fallback_verbosity {
        builder = builder.fallback_verbosity(level);
    }
    if let Some(size) = args.page_size {
        builder = builder.page_size(size);
    }
    if let Some(level) = args.verbosity {
        // An explicit level for every request that names none, as `list --verbosity` sets.
        builder = builder.context(move |info| {
            let mut reader = info.reader.clone();
            reader.verbosity = reader.verbosity.or(Some(level));
            std::future::ready(reader)
        });
    }
    builder
        .tool(on(&store, |notes, args: CreateNote| notes.create(args)))
        .tool(on(&store, |notes, args: SearchNotes| notes.search(args)))
        .tool(on(&store, |notes, args: ReadNote| notes.read(args)))
        .tool(on(&store, |notes, args: DeleteNote| notes.delete(args)))
        .tool(on(&store, |notes, args: TagNote| notes.tag(args)))
        .build()
        .expect("the demo's tools have unique names and valid metadata")
}

/// Reads `X-Demo-Scopes` into the request's `Principal` (demo only: not authentication).
async fn demo_principal(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let scopes: Vec<String> = request
        .headers()
        .get(DEMO_SCOPES_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    request
        .extensions_mut()
        .insert(Principal::new("http-client").with_scopes(scopes));
    next.run(request).await
}

pub async fn run(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let server = server(&args);
    match args.http {
        None => Ok(server.serve_stdio().await?),
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| format!("binding {addr}: {e}"))?;
            let bound = listener.local_addr()?;
            eprintln!(
                "mcp-tailor demo: streamable HTTP at http://{bound}{}",
                mcp_tailor::server::wire::MCP_PATH
            );
            let router = server
                .router()
                .layer(axum::middleware::from_fn(demo_principal));
            let shutdown = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            Ok(server.serve_http_on(listener, router, shutdown).await?)
        }
    }
}
