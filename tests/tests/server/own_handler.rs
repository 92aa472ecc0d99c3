//! For rmcp users who keep their own `ServerHandler`: `Reader::from_request`,
//! `Reader::render_ctx` and `McpTool::tool` tailor an rmcp `#[tool_router]` server's
//! `list_tools`. The code between the markers is the serving guide's "Already on rmcp?" example,
//! word for word (a test below checks it).

mod example {
    // Guide: already-on-rmcp begin
    use mcp_tailor::server::Reader;
    use mcp_tailor::{McpTool, mcp_tool};
    use rmcp::handler::server::wrapper::Parameters;
    use rmcp::model::{ListToolsResult, PaginatedRequestParams};
    use rmcp::service::RequestContext;
    use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};

    /// Search the notes.
    #[mcp_tool(
        description = [(verbosity(0..=3), "Search notes."), (verbosity(4..=9), "Search the notes by words.")],
        descriptions = [grok_hint = "Search notes. `query` is plain words: no quotes, no AND/OR."],
        runners = [((grok, _), [default = grok_hint])],
    )]
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct SearchNotes {
        #[mcp(description = [(verbosity(0), "words"), (verbosity(5), "Words to look for.")])]
        pub query: String,
    }

    #[derive(Clone)]
    pub struct Notes;

    #[tool_router]
    impl Notes {
        #[tool(description = "Search the notes.")]
        async fn search_notes(&self, Parameters(args): Parameters<SearchNotes>) -> String {
            format!("no note matches `{}`", args.query)
        }
    }

    #[tool_handler]
    impl ServerHandler for Notes {
        // The only addition: `list_tools` tailors each `#[mcp_tool]` type for the reader.
        async fn list_tools(
            &self,
            _: Option<PaginatedRequestParams>,
            context: RequestContext<RoleServer>,
        ) -> Result<ListToolsResult, ErrorData> {
            let reader = Reader::from_request(&context);
            let ctx = reader.render_ctx();
            let mut tools = Self::tool_router().list_all();
            for tool in &mut tools {
                if tool.name == SearchNotes::NAME {
                    *tool = SearchNotes::tool(&ctx);
                }
            }
            Ok(ListToolsResult::with_all_items(tools))
        }
    }
    // Guide: already-on-rmcp end
}

use crate::common::*;
use mcp_tailor::server::rmcp::ServiceExt as _;
use mcp_tailor::server::rmcp::service::ClientServiceExt as _;
use serde_json::json;

/// A client named `name` connected over an in-process stdio pipe to `Notes`, served by
/// plain rmcp (no mcp-tailor layer).
async fn connect_plain(name: &str, era: Opening) -> Running {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = example::Notes.serve(tokio::io::split(server_io)).await {
            let _ = running.waiting().await;
        }
    });
    let (handler, _, lifecycle) = client_for(name, era);
    handler
        .serve_with_lifecycle(tokio::io::split(client_io), lifecycle)
        .await
        .expect("handshake")
}

/// `Notes`, served by plain rmcp on streamable HTTP on a loopback port.
async fn http_plain() -> std::net::SocketAddr {
    use mcp_tailor::server::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use mcp_tailor::server::rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let service = StreamableHttpService::new(
        || Ok(example::Notes),
        std::sync::Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let router = axum::Router::new().nest_service("/mcp", service);
        let _ = axum::serve(listener, router).await;
    });
    addr
}

#[tokio::test]
async fn an_rmcp_server_tailors_its_list_for_each_reader() {
    let addr = http_plain().await;
    for (transport, era) in COMBOS {
        let grok = match transport {
            "stdio" => connect_plain("grok-cli", era).await,
            _ => http(addr, "grok-cli", era, &[]).await.0,
        };
        let tools = by_name(&list(&grok, None, json!({})).await.unwrap());
        assert_eq!(
            tools["search_notes"]["description"],
            "Search notes. `query` is plain words: no quotes, no AND/OR.",
            "{era:?}"
        );
        let terse = list(
            &grok,
            None,
            json!({"mcp-tailor.dev/runner": "codex", "mcp-tailor.dev/verbosity": 0}),
        )
        .await
        .unwrap();
        let terse = by_name(&terse);
        assert_eq!(
            terse["search_notes"]["description"], "Search notes.",
            "{era:?}"
        );
        assert_eq!(
            terse["search_notes"]["inputSchema"]["properties"]["query"]["description"], "words",
            "{era:?}"
        );
        let found = call(&grok, "search_notes", json!({"query": "tea"}))
            .await
            .unwrap();
        assert_eq!(
            found["content"][0]["text"], "no note matches `tea`",
            "{era:?}"
        );
    }
}

#[test]
fn the_serving_guide_shows_this_example_word_for_word() {
    let source = include_str!("own_handler.rs");
    let guide = include_str!("../../../runtime/docs/server.md");
    let begin = "// Guide: already-on-rmcp begin\n";
    let start = source.find(begin).unwrap() + begin.len();
    let end = source.find("    // Guide: already-on-rmcp end").unwrap();
    // The guide shows it unindented (it sits in a module here).
    let example: String = source[start..end]
        .lines()
        .map(|line| line.strip_prefix("    ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        guide.contains(&example),
        "runtime/docs/server.md's \"Already on rmcp?\" example differs from tests/tests/server/own_handler.rs:\n{example}"
    );
}
