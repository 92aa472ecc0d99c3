//! The layer in front of an rmcp handler: everything it does not own reaches the wrapped
//! handler unchanged, capabilities are the union, the wrapped handler's tools are listed
//! beside registered ones (tailored by `.tailor::<T>()`, visible by `T`'s scopes), and
//! names on both sides are an error.

use crate::common::*;
use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::handler::server::wrapper::Parameters;
use mcp_tailor::server::rmcp::model::{
    ClientRequest, CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResult,
    Implementation, ListPromptsResult, PaginatedRequestParams, Prompt, PromptMessage,
    ReadResourceRequestParams, ReadResourceResult, Resource, ResourceContents, Role,
    ServerCapabilities, ServerConfig, ServerResult,
};
use mcp_tailor::server::rmcp::service::RequestContext;
use mcp_tailor::server::rmcp::{
    ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router,
};
use mcp_tailor::server::{BuildError, CallContext, Reader, Server};
use serde_json::json;

/// Look a book up by title.
#[mcp_tool(
    description = [(verbosity(0..=3), "Find a book."), (verbosity(4..=9), "Look a book up by its title.")],
    descriptions = [codex_lookup = "lookup(title) -> {title, author}"],
    runners = [((codex, _), [default = codex_lookup])],
)]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Lookup {
    /// The title.
    #[mcp(description = [(verbosity(0), "title"), (verbosity(9), "The book's exact title.")])]
    pub title: String,
}

/// Needs the `library.admin` scope wherever it is served.
#[mcp_tool(scopes = ["library.admin"])]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Purge {}

/// A plain rmcp server: tools through `#[tool_router]`, a prompt, a resource and a custom
/// request, written without mcp-tailor.
#[derive(Clone, Default)]
pub struct Library;

#[tool_router]
impl Library {
    #[tool(description = "Look a book up.")]
    async fn lookup(&self, Parameters(args): Parameters<Lookup>) -> String {
        format!("{} by Anonymous", args.title)
    }

    #[tool(description = "Remove every book.")]
    async fn purge(&self, _: Parameters<Purge>) -> String {
        "purged".into()
    }

    /// The reader as the wrapped handler sees it.
    #[tool(description = "Who reads?")]
    async fn whoami(&self, context: RequestContext<RoleServer>) -> String {
        format!("{:?}", Reader::from_request(&context))
    }
}

#[tool_handler]
impl ServerHandler for Library {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("library", "2.0.0"))
        .with_instructions("The library's own instructions.")
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "recommend",
            Some("Recommend a book"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<mcp_tailor::server::rmcp::model::GetPromptResponse, ErrorData> {
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Recommend a book like {}", request.name),
        )])
        .into())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<mcp_tailor::server::rmcp::model::ReadResourceResponse, ErrorData> {
        Ok(
            ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
                uri: request.uri.clone(),
                mime_type: Some("text/plain".into()),
                text: "the catalogue".into(),
                meta: None,
            }])
            .into(),
        )
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<mcp_tailor::server::rmcp::model::ListResourcesResult, ErrorData> {
        Ok(
            mcp_tailor::server::rmcp::model::ListResourcesResult::with_all_items(vec![
                Resource::new("library://catalogue", "Catalogue"),
            ]),
        )
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Ok(CustomResult::new(json!({ "echo": request.method })))
    }
}

fn layered() -> mcp_tailor::server::Server<Library> {
    abc(&Calls::default())
        .handler(Library)
        .tailor::<Lookup>()
        .tailor::<Purge>()
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_wrapped_handler_serves_everything_the_layer_does_not_own() {
    let server = layered();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        let at = format!("{transport} {era:?}");
        let prompts = client.list_prompts(None).await.unwrap();
        assert_eq!(prompts.prompts[0].name, "recommend", "{at}");
        let prompt = client
            .get_prompt(GetPromptRequestParams::new("dune"))
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&prompt).unwrap()["messages"][0]["content"]["text"],
            "Recommend a book like dune",
            "{at}"
        );
        let read = client
            .read_resource(ReadResourceRequestParams::new("library://catalogue"))
            .await
            .unwrap();
        assert_eq!(
            serde_json::to_value(&read).unwrap()["contents"][0]["text"],
            "the catalogue",
            "{at}"
        );
        let custom = client
            .send_request(ClientRequest::CustomRequest(CustomRequest::new(
                "library/echo",
                None,
            )))
            .await
            .unwrap();
        let ServerResult::CustomResult(custom) = custom else {
            panic!("{at}: {custom:?}")
        };
        assert_eq!(custom.0, json!({"echo": "library/echo"}), "{at}");
        // Capabilities are the union; the layer's name falls back to the handler's.
        let info = client.peer_info().expect("server info");
        assert!(info.capabilities.prompts.is_some(), "{at}");
        assert!(info.capabilities.resources.is_some(), "{at}");
        assert_eq!(
            info.capabilities
                .tools
                .as_ref()
                .and_then(|t| t.list_changed),
            Some(true),
            "{at}"
        );
        assert_eq!(
            info.server_info.as_ref().map(|i| i.name.as_str()),
            Some("test-server"),
            "{at}"
        );
        if era == Opening::SessionBound {
            assert_eq!(
                info.instructions.as_deref(),
                Some("The library's own instructions."),
                "{at}"
            );
        }
    }
}

#[tokio::test]
async fn wrapped_tools_are_listed_tailored_and_called_through_the_layer() {
    let server = layered();
    for (transport, era) in COMBOS {
        let at = format!("{transport} {era:?}");
        let codex = connect(&server, transport, "codex", era).await;
        let tools = by_name(&list(&codex, None, json!({})).await.unwrap());
        let mut names: Vec<&str> = tools.keys().map(String::as_str).collect();
        names.sort_unstable();
        // `purge` needs a scope this caller lacks: hidden like a registered tool would be.
        assert_eq!(
            names,
            ["alpha", "bravo", "charlie", "lookup", "whoami"],
            "{at}"
        );
        assert_eq!(
            tools["lookup"]["description"], "lookup(title) -> {title, author}",
            "{at}"
        );
        assert_eq!(tools["whoami"]["description"], "Who reads?", "{at}");
        let terse = list(
            &codex,
            None,
            json!({"mcp-tailor.dev/runner": "other", "mcp-tailor.dev/verbosity": 0}),
        )
        .await
        .unwrap();
        let terse = by_name(&terse);
        assert_eq!(terse["lookup"]["description"], "Find a book.", "{at}");
        assert_eq!(
            terse["lookup"]["inputSchema"]["properties"]["title"]["description"], "title",
            "{at}"
        );
        // The structure is the wrapped handler's own schema.
        assert_eq!(
            terse["lookup"]["inputSchema"]["required"],
            json!(["title"]),
            "{at}"
        );

        let found = call(&codex, "lookup", json!({"title": "Dune"}))
            .await
            .unwrap();
        assert_eq!(found["content"][0]["text"], "Dune by Anonymous", "{at}");
        let hidden = call(&codex, "purge", json!({})).await.unwrap_err();
        assert_eq!(
            (hidden.code.0, reason(&hidden)),
            (-32602, "unknown_tool"),
            "{at}"
        );
        let unknown = call(&codex, "nowhere", json!({})).await.unwrap_err();
        assert_eq!(unknown.code.0, -32602, "{at}");
        // The wrapped handler sees the layer's reader.
        let whoami = call(&codex, "whoami", json!({})).await.unwrap();
        let text = whoami["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("runner: Some(\"codex\")"), "{at}: {text}");
    }
}

#[tokio::test]
async fn scoped_wrapped_tools_show_for_callers_with_the_scope() {
    let server = layered();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let (admin, _) = http(
            addr,
            "codex",
            era,
            &[
                ("x-test-principal", "ada"),
                ("x-test-scopes", "library.admin"),
            ],
        )
        .await;
        let tools = by_name(&list(&admin, None, json!({})).await.unwrap());
        assert!(tools.contains_key("purge"), "{era:?}");
        let purged = call(&admin, "purge", json!({})).await.unwrap();
        assert_eq!(purged["content"][0]["text"], "purged", "{era:?}");
    }
}

/// Named like one of the library's tools.
#[mcp_tool(name = "lookup")]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Shadow {}

/// The library has no tool of this name.
#[mcp_tool]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Missing {}

#[test]
fn names_on_both_sides_and_tailoring_nothing_are_errors_at_build() {
    let both = Server::builder()
        .handler(Library)
        .tool(|_: Shadow, _: CallContext| async { Ok::<_, String>(json!({})) })
        .build();
    assert_eq!(
        both.unwrap_err(),
        BuildError::NameOnBothSides("lookup".into())
    );
    let nothing = Server::builder()
        .handler(Library)
        .tailor::<Missing>()
        .build();
    let error = nothing.unwrap_err();
    assert_eq!(error, BuildError::NoSuchInnerTool("missing".into()));
    assert!(
        error.to_string().contains("has no tool of that name"),
        "{error}"
    );
    let twice = Server::builder()
        .handler(Library)
        .tailor::<Lookup>()
        .tailor::<Lookup>()
        .build();
    assert_eq!(
        twice.unwrap_err(),
        BuildError::TailoredTwice("lookup".into())
    );
}

/// With a host `.context(...)` callback, the wrapped handler's `Reader::from_request` is
/// the reader the layer resolved for that request — callback included — so it agrees with
/// the listing the layer rendered, on every transport and era.
#[tokio::test]
async fn a_wrapped_handler_reads_the_reader_the_callback_chose() {
    let server = abc(&Calls::default())
        .handler(Library)
        .tailor::<Lookup>()
        .context(|info| async move {
            let mut reader = info.reader.clone();
            reader.runner = Some("hippo".into());
            reader.verbosity = Some(1);
            reader
        })
        .build()
        .unwrap();
    for (transport, era) in COMBOS {
        let at = format!("{transport} {era:?}");
        // The client says codex at level 9; the callback says hippo at level 1.
        let client = connect(&server, transport, "codex", era).await;
        let meta = json!({"mcp-tailor.dev/verbosity": 9});
        let tools = by_name(&list(&client, None, meta).await.unwrap());
        assert_eq!(tools["lookup"]["description"], "Find a book.", "{at}");
        let whoami = call(&client, "whoami", json!({})).await.unwrap();
        let text = whoami["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("runner: Some(\"hippo\")") && text.contains("verbosity: Some(1)"),
            "{at}: {text}"
        );
    }
}

/// A handler whose `tools/list` fails, as a gateway's upstream may (npm
/// `@supabase/mcp-server-supabase` without its service: `-32603 fetch failed`).
#[derive(Clone)]
struct Unlisted;

impl ServerHandler for Unlisted {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<mcp_tailor::server::rmcp::model::ListToolsResult, ErrorData> {
        Err(ErrorData::internal_error(
            "fetch failed",
            Some(json!({"upstream": "down"})),
        ))
    }
}

#[tokio::test]
async fn the_wrapped_handler_s_listing_error_reaches_the_client_as_it_said_it() {
    let server = Server::builder().handler(Unlisted).build().unwrap();
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "codex", era).await;
        let error = list(&client, None, json!({})).await.unwrap_err();
        assert_eq!(
            (error.code.0, error.message.as_ref(), error.data),
            (-32603, "fetch failed", Some(json!({"upstream": "down"}))),
            "{transport} {era:?}"
        );
    }
}
