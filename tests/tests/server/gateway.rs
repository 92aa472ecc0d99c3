//! The gateway in process: a plain rmcp server (written without mcp-tailor) served over
//! streamable HTTP as the upstream, `Gateway` behind the layer in front of it, real rmcp
//! clients. What the conformance suite and the Python test do not reach: a 2026-07-28
//! listener hearing the upstream's own notifications (the first change after its
//! acknowledgment included), `get_tool` answering from the upstream's listing, and a 2025
//! session bridged to an upstream of 2026-07-28 alone.

use crate::common::*;
use mcp_tailor::gateway::{Gateway, Upstream};
use mcp_tailor::server::Server;
use mcp_tailor::server::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    ServerNotification, SubscriptionFilter, Tool,
};
use mcp_tailor::server::rmcp::service::{
    RequestContext, RoleServer, SubscriptionContext, SubscriptionSink,
};
use mcp_tailor::server::rmcp::{ErrorData, ServerHandler};
use mcp_tailor_test_support::eventually;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An upstream whose prompts and tools change, of both eras or (`alone`) of 2026-07-28
/// alone (it serves no `initialize`). Its tools, listed to be kept a minute unless they
/// change: `change_prompts` tells every listener the prompt list changed; `add_tool` adds
/// `added`, tells every listener, and answers with the name of the client its request
/// named; `ask_name` needs the user's name (`input_required`); `log` writes a log line on
/// its request's stream.
#[derive(Clone, Default)]
struct Upstream2026 {
    alone: bool,
    listeners: Arc<Mutex<Vec<SubscriptionSink>>>,
    added: Arc<std::sync::atomic::AtomicBool>,
}

#[allow(deprecated)] // rmcp marks logging deprecated (SEP-2577); servers still log.
impl ServerHandler for Upstream2026 {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_prompts()
                .enable_prompts_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("upstream", "1.0"))
    }

    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        match self.alone {
            true => std::borrow::Cow::Borrowed(&[ProtocolVersion::V_2026_07_28]),
            false => std::borrow::Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS),
        }
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = Arc::new(
            serde_json::json!({"type": "object"})
                .as_object()
                .unwrap()
                .clone(),
        );
        let tool = |name: &str, description: &str| {
            Tool::new(name.to_owned(), description.to_owned(), schema.clone())
        };
        let mut tools = vec![
            tool(
                "change_prompts",
                "Tells every listener the prompt list changed.",
            ),
            tool("add_tool", "Adds a tool."),
        ];
        if self.added.load(std::sync::atomic::Ordering::SeqCst) {
            tools.push(tool("added", "The added tool."));
        }
        let mut listed = ListToolsResult::with_all_items(tools);
        listed.ttl_ms = Some(60_000);
        Ok(listed)
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let listeners: Vec<_> = self.listeners.lock().unwrap().clone();
        let text = match &*params.name {
            "ask_name" => return Ok(ask_name(&params)),
            "log" => {
                let line = serde_json::json!({"level": "info", "data": "for this request"});
                let _ = context
                    .peer
                    .notify_logging_message(serde_json::from_value(line).unwrap())
                    .await;
                "logged".to_owned()
            }
            "add_tool" => {
                self.added.store(true, std::sync::atomic::Ordering::SeqCst);
                for sink in listeners {
                    let _ = sink.notify_tool_list_changed().await;
                }
                let client = context.meta.client_info().map(|info| info.name);
                client.unwrap_or_else(|| "no client named".to_owned())
            }
            _ => {
                for sink in listeners {
                    let _ = sink.notify_prompt_list_changed().await;
                }
                "changed".to_owned()
            }
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.supported_by(&self.get_info().capabilities))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.listeners.lock().unwrap().push(context.sink().clone());
        context.cancelled().await;
        Ok(())
    }
}

/// The upstream on loopback; its URL and its handler (whose listeners a test counts).
async fn upstream() -> (String, Upstream2026) {
    let handler = Upstream2026::default();
    (served(handler.clone()).await, handler)
}

/// `handler` on streamable HTTP at a loopback port; its URL. One handler for every request
/// (stateless requests each get a clone): the listeners one request registers are the ones
/// another request's call tells.
async fn served<H: ServerHandler + Clone + Send + Sync + 'static>(handler: H) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{addr}/mcp")
}

/// The gateway in front of a fresh upstream, and that upstream.
async fn gateway_and_upstream() -> (Server<Gateway>, Upstream2026) {
    let (url, upstream) = upstream().await;
    let gateway = Gateway::connect(Upstream::http(url), Duration::from_secs(5))
        .await
        .unwrap();
    (
        Server::builder().handler(gateway).build().unwrap(),
        upstream,
    )
}

async fn gateway() -> Server<Gateway> {
    gateway_and_upstream().await.0
}

#[tokio::test]
async fn a_stateless_listener_hears_the_upstreams_own_notifications() {
    let (server, upstream) = gateway_and_upstream().await;
    let listening = || upstream.listeners.lock().unwrap().len();
    let (client, _) = http(http_server(&server).await, "codex", Opening::Stateless, &[]).await;
    // The gateway's connection for stateless requests, opened by the first of them, listens
    // for the upstream's list changes from then on, before any client does: a change right
    // after a client's acknowledgment is never missed. (The upstream registers a listener
    // just after acknowledging it.)
    client.peer().list_tools(None).await.unwrap();
    eventually(Duration::from_secs(2), || async {
        (listening() == 1).then_some(())
    })
    .await;
    assert_eq!(listening(), 1, "the gateway's own subscription");
    let mut filter = SubscriptionFilter::default();
    filter.prompts_list_changed = Some(true);
    let mut subscription = client.peer().listen(filter).await.unwrap();
    assert_eq!(subscription.acknowledged().prompts_list_changed, Some(true));
    call(&client, "change_prompts", serde_json::json!({}))
        .await
        .unwrap();
    let notification = tokio::time::timeout(Duration::from_secs(5), subscription.next())
        .await
        .expect("the first change reaches the listener")
        .unwrap()
        .unwrap();
    assert!(
        matches!(
            notification,
            ServerNotification::PromptListChangedNotification(_)
        ),
        "{notification:?}"
    );
    // A listener of list changes only opens nothing upstream of its own.
    assert_eq!(listening(), 1);
}

#[tokio::test]
async fn get_tool_answers_from_the_upstreams_listing() {
    let server = gateway().await;
    let tool = server.wrapped().get_tool("change_prompts").unwrap();
    assert_eq!(
        tool.description.as_deref(),
        Some("Tells every listener the prompt list changed.")
    );
    assert!(server.wrapped().get_tool("nope").is_none());
}

/// The gateway in front of a fresh upstream of 2026-07-28 alone, and that upstream.
async fn bridging() -> (Server<Gateway>, Upstream2026) {
    let handler = Upstream2026 {
        alone: true,
        ..Upstream2026::default()
    };
    let url = served(handler.clone()).await;
    let gateway = Gateway::connect(Upstream::http(url), Duration::from_secs(5))
        .await
        .unwrap();
    (Server::builder().handler(gateway).build().unwrap(), handler)
}

/// `ask_name` as a 2026-07-28 server answers it: first `input_required` (the user's name,
/// elicited, and a state to send back), then, given both, who answered.
fn ask_name(params: &CallToolRequestParams) -> CallToolResponse {
    let answered = params.input_responses.as_ref().and_then(|a| a.get("name"));
    let (Some(answered), Some(state)) = (answered, &params.request_state) else {
        let asked = serde_json::json!({"resultType": "input_required",
            "inputRequests": {"name": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "Your name?",
                "requestedSchema": {"type": "object",
                    "properties": {"name": {"type": "string"}}}}}},
            "requestState": "asked-once"});
        return CallToolResponse::InputRequired(serde_json::from_value(asked).unwrap());
    };
    let name = answered["content"]["name"].as_str().unwrap_or("nobody");
    CallToolResult::success(vec![ContentBlock::text(format!("{name}, {state}"))]).into()
}

/// A 2025 session in front of an upstream of 2026-07-28 alone: its requests go upstream as
/// 2026-07-28 ones, naming its client; the upstream's tool list change reaches it, and its
/// next listing is the new one (the kept listing forgotten).
#[tokio::test]
async fn a_2025_session_is_bridged_to_an_upstream_of_2026_07_28_alone() {
    let (server, handler) = bridging().await;
    let (client, mut list_changed) = http(
        http_server(&server).await,
        "codex",
        Opening::SessionBound,
        &[],
    )
    .await;
    let names = |listed: ListToolsResult| -> Vec<String> {
        listed.tools.iter().map(|t| t.name.to_string()).collect()
    };
    assert_eq!(
        names(client.peer().list_tools(None).await.unwrap()),
        ["change_prompts", "add_tool"]
    );
    // The gateway's subscription to the upstream's list changes is open before the call.
    let subscribed = || !handler.listeners.lock().unwrap().is_empty();
    eventually(Duration::from_secs(2), || async {
        subscribed().then_some(())
    })
    .await
    .expect("the gateway's subscription upstream");
    let called = call(&client, "add_tool", serde_json::json!({}))
        .await
        .unwrap();
    // Named as its `initialize` named it, not as the gateway.
    assert_eq!(called["content"][0]["text"], "codex", "{called}");
    tokio::time::timeout(Duration::from_secs(5), list_changed.recv())
        .await
        .expect("the upstream's tool list change reaches the 2025 session")
        .unwrap();
    assert_eq!(
        names(client.peer().list_tools(None).await.unwrap()),
        ["change_prompts", "add_tool", "added"]
    );
}

/// What such an upstream asks of a bridged session's client (an `input_required` result,
/// which a 2025 client cannot read) is asked of the client as a 2025 request during its
/// call, and the call goes upstream again with the answer and the upstream's state.
#[tokio::test]
async fn a_bridged_session_s_client_answers_what_the_upstream_asks() {
    use mcp_tailor::server::rmcp::ServiceExt as _;
    let (server, _) = bridging().await;
    let front = format!("http://{}/mcp", http_server(&server).await);
    let transport =
        mcp_tailor::server::rmcp::transport::StreamableHttpClientTransport::from_uri(front);
    let client = Answering.serve(transport).await.unwrap();
    let mut params = CallToolRequestParams::new("ask_name");
    params.arguments = Some(Default::default());
    let called = client.peer().call_tool_once(params).await.unwrap();
    let CallToolResponse::Complete(result) = called else {
        panic!("not answered: {called:?}");
    };
    let text = result.content[0].as_text().map(|t| t.text.clone());
    assert_eq!(text.as_deref(), Some("Ada, asked-once"));
}

/// What such an upstream says during one client's request (a log line for it) is that
/// request's: a bridged 2025 session, told the upstream's list changes, hears none of it.
#[tokio::test]
async fn a_bridged_session_hears_no_other_client_s_request() {
    let (server, _) = bridging().await;
    let front = http_server(&server).await;
    let (bridged, _) = http(front, "claude-code", Opening::SessionBound, &[]).await;
    bridged.peer().list_tools(None).await.unwrap();
    let (stateless, _) = http(front, "codex", Opening::Stateless, &[]).await;
    let logged = call(&stateless, "log", serde_json::json!({}))
        .await
        .unwrap();
    assert_eq!(logged["content"][0]["text"], "logged", "{logged}");
    // Sleep: a window for what must not come.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let heard = bridged.service().heard.lock().unwrap().clone();
    assert!(heard.is_empty(), "{heard:?}");
}
