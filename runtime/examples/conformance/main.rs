//! The MCP conformance suite's reference server, written with mcp-tailor: its test tools
//! are `#[mcp_tool]` types registered on the layer (one tailored by level and runner, the
//! task fixtures run as MCP tasks),
//! while prompts, resources, skills, completion, logging and two tools of their own come
//! from a plain rmcp handler passed to `.handler(...)`.
//!
//! ```sh
//! cargo run -p mcp-tailor --features http --example conformance -- --http 127.0.0.1:8001   # /mcp
//! cargo run -p mcp-tailor --features http --example conformance                             # stdio
//! ```

mod fixtures;
mod mrtr;
mod tasks;
mod tools;

use mcp_tailor::mcp_tool;
use mcp_tailor::server::Server;
use std::net::SocketAddr;

/// Triggers a prompts/list_changed notification on matching subscriptions
///
/// The strings of the wrapped handler's own `test_trigger_prompt_change`, tailored.
#[mcp_tool(
    name = "test_trigger_prompt_change",
    description = [
        (verbosity(0..=3), "Triggers prompts/list_changed."),
        (verbosity(4..=9), "Triggers a prompts/list_changed notification on matching subscriptions"),
    ],
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct TriggerPromptChange {}

/// The server: the suite's tools on the layer, its fixtures behind it.
pub fn server() -> Server<fixtures::Fixtures> {
    let builder = Server::builder()
        .handler(fixtures::Fixtures::load().expect("the skills folder loads"))
        .tailor::<TriggerPromptChange>();
    tasks::register(mrtr::register(tools::register(builder)))
        .build()
        .expect("the conformance catalog is valid")
}

fn usage() -> ! {
    eprintln!("usage: conformance [--http ADDR]   (without --http: stdio)");
    std::process::exit(2)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let http: Option<SocketAddr> = match (args.next().as_deref(), args.next()) {
        (None, _) => None,
        (Some("--http"), Some(addr)) => Some(addr.parse().unwrap_or_else(|_| usage())),
        _ => usage(),
    };
    let server = server();
    match http {
        Some(addr) => {
            // Port 0 picks a free port: the line says which.
            let listener = tokio::net::TcpListener::bind(addr).await?;
            eprintln!(
                "conformance server on http://{}/mcp",
                listener.local_addr()?
            );
            let shutdown = async {
                let _ = tokio::signal::ctrl_c().await;
            };
            let router = server.router();
            server.serve_http_on(listener, router, shutdown).await?;
        }
        None => server.serve_stdio().await?,
    }
    Ok(())
}
