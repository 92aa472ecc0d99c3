//! Registered tools as MCP tasks (the tasks extension, SEP-2663), driven by rmcp's client
//! over streamable HTTP and stdio: a call that waits becomes a task the caller polls,
//! updates and cancels; one that does not answers directly; a required-task tool refuses
//! a client without the extension; a task is its principal's alone; a session hears its
//! tasks' changes; and a wrapped handler's own tasks pass through the layer unchanged.

use crate::common::*;
use mcp_tailor::mcp_tool;
use mcp_tailor::server::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ClientCapabilities,
    ContentBlock, CreateTaskResult, ElicitRequest, ElicitRequestParams, GetTaskParams,
    GetTaskResult, InputRequest, InputResponses, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use mcp_tailor::server::rmcp::service::RequestContext;
use mcp_tailor::server::rmcp::task_manager::{TaskManager, TaskOptions};
use mcp_tailor::server::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceError};
use mcp_tailor::server::{CallContext, Server, ServerBuilder, TaskSupport, ToolRegistration};
use mcp_tailor_test_support::eventually;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Waits `ms`, then answers; stops with a tool error when cancelled.
#[mcp_tool(name = "wait")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Wait {
    /// How long.
    pub ms: u64,
}

/// Answers at once.
#[mcp_tool(name = "quick")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Quick {}

/// Asks the user to confirm, in the task.
#[mcp_tool(name = "confirm")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Confirm {}

/// Only as a task.
#[mcp_tool(name = "must")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Must {}

/// How often each handler ran, and how often a wait saw its cancellation.
#[derive(Clone, Default)]
struct Counts {
    runs: Arc<AtomicUsize>,
    stopped: Arc<AtomicUsize>,
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content).unwrap()[0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn tasks_builder(counts: &Counts) -> ServerBuilder {
    let (runs, stopped) = (counts.runs.clone(), counts.stopped.clone());
    let wait = move |args: Wait, call: CallContext| {
        let (runs, stopped) = (runs.clone(), stopped.clone());
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            call.set_task_status("waiting");
            tokio::select! {
                () = call.cancelled() => {
                    stopped.fetch_add(1, Ordering::SeqCst);
                    Err("stopped".to_owned())
                }
                // Sleep: simulated work, as long as the call asks.
                () = tokio::time::sleep(Duration::from_millis(args.ms)) => {
                    Ok(json!(format!("waited {} ms", args.ms)))
                }
            }
        }
    };
    let runs = counts.runs.clone();
    let must = move |_: Must, _: CallContext| {
        let runs = runs.clone();
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            // Sleep: simulated work.
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok::<_, String>(json!("done"))
        }
    };
    Server::builder()
        .register(ToolRegistration::new(wait).tasks(TaskSupport::Optional))
        .register(
            ToolRegistration::new(|_: Quick, call: CallContext| async move {
                Ok::<_, String>(json!(format!("quick, a task: {}", call.is_task())))
            })
            .tasks(TaskSupport::Optional),
        )
        .register(ToolRegistration::new(confirm).tasks(TaskSupport::Optional))
        .register(ToolRegistration::new(must).tasks(TaskSupport::Required))
}

async fn confirm(_: Confirm, call: CallContext) -> Result<CallToolResult, ErrorData> {
    let schema =
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]});
    let question = InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: "Go ahead?".into(),
            requested_schema: serde_json::from_value(schema).unwrap(),
        },
    ));
    let id = call.task_id().await.unwrap_or_default();
    let answer = call.task_input("ok", question).await?;
    let ok = answer["content"]["ok"].as_bool().unwrap_or(false);
    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
        "task {id}: ok = {ok}"
    ))]))
}

/// Answers the `confirm` task's question with `ok`, through `tasks/update`.
async fn answer(client: &Running, id: &str, ok: bool) {
    let answer: InputResponses =
        serde_json::from_value(json!({"ok": {"action": "accept", "content": {"ok": ok}}})).unwrap();
    client
        .update_task(UpdateTaskParams::new(id.to_owned(), answer))
        .await
        .map_err(mcp_error)
        .unwrap();
}

fn with_tasks() -> ClientCapabilities {
    ClientCapabilities::builder().enable_tasks().build()
}

async fn client(addr: std::net::SocketAddr, era: Opening, principal: &str, tasks: bool) -> Running {
    let capabilities = if tasks {
        with_tasks()
    } else {
        ClientCapabilities::default()
    };
    let headers = [("x-test-principal", principal)];
    try_http_with(addr, "tasks", era, &headers, capabilities)
        .await
        .expect("handshake")
        .0
}

/// `tools/call` as the client sees it: a result, an input round or a task.
async fn call_once(
    client: &Running,
    name: &str,
    arguments: Value,
) -> Result<CallToolResponse, ErrorData> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    client.call_tool_once(params).await.map_err(mcp_error)
}

fn mcp_error(error: ServiceError) -> ErrorData {
    match error {
        ServiceError::McpError(error) => error,
        other => panic!("transport failure: {other}"),
    }
}

fn created(response: CallToolResponse) -> CreateTaskResult {
    match response {
        CallToolResponse::Task(task) => task,
        other => panic!("a task, not {other:?}"),
    }
}

async fn get(client: &Running, id: &str) -> Result<Value, ErrorData> {
    let result: GetTaskResult = client
        .get_task(GetTaskParams::new(id))
        .await
        .map_err(mcp_error)?;
    Ok(serde_json::to_value(result).unwrap())
}

/// Polls task `id` until its status is `status` (or terminal), 10 s at most.
async fn until(client: &Running, id: &str, status: &str) -> Value {
    let reached = eventually(Duration::from_secs(10), || async {
        let task = get(client, id).await.expect("tasks/get");
        let now = task["status"].as_str().unwrap_or_default();
        (now == status || ["completed", "failed", "cancelled"].contains(&now)).then_some(task)
    })
    .await;
    reached.unwrap_or_else(|| panic!("task {id} never reached {status}"))
}

#[tokio::test]
async fn a_call_that_waits_becomes_a_task_the_caller_polls_to_its_result() {
    let counts = Counts::default();
    let server = tasks_builder(&counts).build().unwrap();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let client = client(addr, era, "alice", true).await;
        let task = created(
            call_once(&client, "wait", json!({"ms": 150}))
                .await
                .unwrap(),
        );
        let id = task.task.task_id.clone();
        let working = get(&client, &id).await.unwrap();
        assert_eq!(working["status"], "working", "{era:?}: {working}");
        assert_eq!(working["statusMessage"], "waiting", "{era:?}");
        assert!(working.get("result").is_none());
        let done = until(&client, &id, "completed").await;
        assert_eq!(done["status"], "completed", "{era:?}: {done}");
        assert_eq!(done["result"]["content"][0]["text"], "\"waited 150 ms\"");
    }
    assert_eq!(counts.runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn an_answer_at_hand_comes_back_directly_and_without_the_extension_nothing_is_a_task() {
    let counts = Counts::default();
    let server = tasks_builder(&counts).build().unwrap();
    let addr = http_server(&server).await;
    let declaring = client(addr, Opening::Stateless, "alice", true).await;
    match call_once(&declaring, "quick", json!({})).await.unwrap() {
        CallToolResponse::Complete(result) => assert_eq!(text(&result), "\"quick, a task: true\""),
        other => panic!("a direct answer, not {other:?}"),
    }
    let plain = client(addr, Opening::Stateless, "alice", false).await;
    match call_once(&plain, "wait", json!({"ms": 30})).await.unwrap() {
        CallToolResponse::Complete(result) => assert_eq!(text(&result), "\"waited 30 ms\""),
        other => panic!("a plain call, not {other:?}"),
    }
    match call_once(&plain, "quick", json!({})).await.unwrap() {
        CallToolResponse::Complete(result) => assert_eq!(text(&result), "\"quick, a task: false\""),
        other => panic!("a plain call, not {other:?}"),
    }
}

#[tokio::test]
async fn a_required_task_tool_refuses_a_client_without_the_extension_before_its_handler_runs() {
    let counts = Counts::default();
    let server = tasks_builder(&counts).build().unwrap();
    let addr = http_server(&server).await;
    for era in [Opening::SessionBound, Opening::Stateless] {
        let plain = client(addr, era, "alice", false).await;
        let error = call_once(&plain, "must", json!({})).await.unwrap_err();
        assert_eq!(error.code.0, -32021, "{era:?}: {error:?}");
        let wanted = &error.data.unwrap()["requiredCapabilities"]["extensions"];
        assert!(
            wanted.get("io.modelcontextprotocol/tasks").is_some(),
            "{wanted}"
        );
    }
    assert_eq!(
        counts.runs.load(Ordering::SeqCst),
        0,
        "the handler never ran"
    );
    let declaring = client(addr, Opening::Stateless, "alice", true).await;
    let task = created(call_once(&declaring, "must", json!({})).await.unwrap());
    let done = until(&declaring, &task.task.task_id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "\"done\"");
}

#[tokio::test]
async fn a_task_asks_for_input_and_resumes_with_the_answer_of_tasks_update() {
    let server = tasks_builder(&Counts::default()).build().unwrap();
    let addr = http_server(&server).await;
    let client = client(addr, Opening::Stateless, "alice", true).await;
    let task = created(call_once(&client, "confirm", json!({})).await.unwrap());
    let id = task.task.task_id.clone();
    let asking = until(&client, &id, "input_required").await;
    assert_eq!(asking["status"], "input_required", "{asking}");
    let request = &asking["inputRequests"]["ok"];
    assert_eq!(request["method"], "elicitation/create", "{asking}");
    answer(&client, &id, true).await;
    let done = until(&client, &id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        format!("task {id}: ok = true"),
        "the handler learned its own task id: {done}"
    );
}

#[tokio::test]
async fn tasks_cancel_fires_the_handlers_cancellation_and_the_task_settles_cancelled() {
    let counts = Counts::default();
    let server = tasks_builder(&counts).build().unwrap();
    let addr = http_server(&server).await;
    let client = client(addr, Opening::Stateless, "alice", true).await;
    let task = created(
        call_once(&client, "wait", json!({"ms": 60_000}))
            .await
            .unwrap(),
    );
    let id = task.task.task_id.clone();
    client
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .map_err(mcp_error)
        .unwrap();
    let done = until(&client, &id, "cancelled").await;
    assert_eq!(done["status"], "cancelled", "{done}");
    assert_eq!(counts.stopped.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_task_is_its_principals_alone() {
    let server = tasks_builder(&Counts::default()).build().unwrap();
    let addr = http_server(&server).await;
    let alice = client(addr, Opening::Stateless, "alice", true).await;
    let bob = client(addr, Opening::Stateless, "bob", true).await;
    let task = created(
        call_once(&alice, "wait", json!({"ms": 60_000}))
            .await
            .unwrap(),
    );
    let id = task.task.task_id.clone();
    let error = get(&bob, &id).await.unwrap_err();
    assert_eq!(error.code.0, -32602, "{error:?}");
    let error = bob
        .cancel_task(CancelTaskParams::new(id.clone()))
        .await
        .map_err(mcp_error)
        .unwrap_err();
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert_eq!(
        get(&alice, &id).await.unwrap()["status"],
        "working",
        "bob cancelled nothing"
    );
    assert_eq!(
        get(&alice, "no-such-task").await.unwrap_err().code.0,
        -32602
    );
}

#[tokio::test]
async fn the_extension_is_declared_exactly_when_a_tool_runs_as_a_task() {
    let with = tasks_builder(&Counts::default()).build().unwrap();
    let without = abc(&Calls::default()).build().unwrap();
    for (server, declared) in [(with, true), (without, false)] {
        let addr = http_server(&server).await;
        let client = client(addr, Opening::Stateless, "alice", true).await;
        let capabilities = client.peer_info().unwrap().capabilities.clone();
        assert_eq!(capabilities.supports_tasks(), declared, "{capabilities:?}");
        if !declared {
            // Without it rmcp answers the task methods as unknown.
            let error = get(&client, "any").await.unwrap_err();
            assert_eq!(error.code.0, -32601, "{error:?}");
        }
    }
}

/// A plain rmcp handler with a task tool of its own, on its own `TaskManager`.
#[derive(Clone, Default)]
struct InnerTasks {
    tasks: TaskManager,
}

impl ServerHandler for InnerTasks {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == "inner_job")
            .then(|| Tool::new("inner_job", "The handler's own job.", JsonObject::new()))
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.get_tool("inner_job").into_iter().collect(),
        ))
    }

    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let task = self.tasks.spawn(TaskOptions::default(), |_| {
            Box::pin(async {
                // Sleep: simulated work.
                tokio::time::sleep(Duration::from_millis(30)).await;
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    "inner done",
                )]))
            })
        });
        Ok(CreateTaskResult::new(task).into())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tasks
            .get_task(&request.task_id)
            .map(GetTaskResult::new)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.cancel_task(&request.task_id)
    }
}

#[tokio::test]
async fn a_wrapped_handlers_tasks_pass_through_beside_the_layers_own() {
    let counts = Counts::default();
    let (runs, stopped) = (counts.runs.clone(), counts.stopped.clone());
    let server = Server::builder()
        .handler(InnerTasks::default())
        .register(
            ToolRegistration::new(move |args: Wait, call: CallContext| {
                let (runs, stopped) = (runs.clone(), stopped.clone());
                async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    tokio::select! {
                        () = call.cancelled() => { stopped.fetch_add(1, Ordering::SeqCst); Err("stopped".to_owned()) }
                        // Sleep: simulated work, as long as the call asks.
                        () = tokio::time::sleep(Duration::from_millis(args.ms)) => Ok(json!("waited")),
                    }
                }
            })
            .tasks(TaskSupport::Optional),
        )
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    let client = client(addr, Opening::Stateless, "alice", true).await;
    let inner = created(call_once(&client, "inner_job", json!({})).await.unwrap());
    let ours = created(call_once(&client, "wait", json!({"ms": 30})).await.unwrap());
    let inner_done = until(&client, &inner.task.task_id, "completed").await;
    assert_eq!(inner_done["result"]["content"][0]["text"], "inner done");
    let ours_done = until(&client, &ours.task.task_id, "completed").await;
    assert_eq!(ours_done["result"]["content"][0]["text"], "\"waited\"");
    // An id neither side knows: the wrapped handler answers for it.
    assert_eq!(get(&client, "unknown").await.unwrap_err().code.0, -32602);
}

#[tokio::test]
async fn over_stdio_a_task_runs_the_same() {
    let server = tasks_builder(&Counts::default()).build().unwrap();
    let (client, _) = stdio_with(&server, "tasks", Opening::SessionBound, with_tasks()).await;
    let task = created(call_once(&client, "wait", json!({"ms": 40})).await.unwrap());
    let done = until(&client, &task.task.task_id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "\"waited 40 ms\"");
}

/// The `notifications/tasks` a client heard for task `id`: their statuses, and the last.
fn heard_of(client: &Running, id: &str) -> (Vec<String>, Option<Value>) {
    let heard = client.service().heard.lock().unwrap().clone();
    let about: Vec<Value> = heard.into_iter().filter(|h| h["taskId"] == id).collect();
    let statuses = about
        .iter()
        .map(|h| h["status"].as_str().unwrap_or_default().to_owned())
        .collect();
    (statuses, about.last().cloned())
}

#[tokio::test]
async fn a_session_hears_its_task_ask_for_input_and_end_and_a_stateless_client_polls() {
    let server = tasks_builder(&Counts::default()).build().unwrap();
    let addr = http_server(&server).await;
    let session = client(addr, Opening::SessionBound, "alice", true).await;
    let task = created(call_once(&session, "confirm", json!({})).await.unwrap());
    let id = task.task.task_id.clone();
    let told = |count: usize| {
        let (session, id) = (&session, &id);
        eventually(Duration::from_secs(5), move || async move {
            let statuses = heard_of(session, id).0;
            (statuses.len() >= count).then_some(statuses)
        })
    };
    let statuses = told(1).await.unwrap_or_default();
    assert_eq!(statuses, ["input_required"], "told when it needs input");
    let (_, asked) = heard_of(&session, &id);
    assert_eq!(
        asked.unwrap()["inputRequests"]["ok"]["method"],
        "elicitation/create"
    );
    answer(&session, &id, false).await;
    let statuses = told(2).await.unwrap_or_default();
    assert_eq!(
        statuses,
        ["input_required", "completed"],
        "told when it ends"
    );
    let (_, ended) = heard_of(&session, &id);
    assert_eq!(
        ended.unwrap()["result"]["content"][0]["text"],
        format!("task {id}: ok = false"),
        "the end carries the result, as tasks/get reads it"
    );

    let stateless = client(addr, Opening::Stateless, "alice", true).await;
    let task = created(
        call_once(&stateless, "wait", json!({"ms": 20}))
            .await
            .unwrap(),
    );
    until(&stateless, &task.task.task_id, "completed").await;
    // Sleep: a window for what must not come (a status notification without a session).
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        heard_of(&stateless, &task.task.task_id).0.is_empty(),
        "no session: it polls"
    );
}

#[tokio::test]
async fn a_replicas_task_ids_carry_its_tag_for_the_balancer_to_route_by() {
    let mut config = mcp_tailor::server::HttpConfig::default();
    config.replica_tag = Some("r7".into());
    let server = tasks_builder(&Counts::default())
        .http_config(config)
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    let client = client(addr, Opening::Stateless, "alice", true).await;
    let task = created(call_once(&client, "confirm", json!({})).await.unwrap());
    let id = task.task.task_id.clone();
    let bare = id.strip_prefix("r7.").expect("the replica's tag first");
    let asking = until(&client, &id, "input_required").await;
    assert_eq!(
        asking["taskId"],
        id.as_str(),
        "tasks/get answers with the id asked for"
    );
    assert_eq!(
        get(&client, bare).await.unwrap_err().code.0,
        -32602,
        "rmcp's id alone is unknown"
    );
    answer(&client, &id, true).await;
    let done = until(&client, &id, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"],
        format!("task {id}: ok = true"),
        "CallContext::task_id is the id the client sees"
    );
}

#[tokio::test]
async fn a_principal_runs_at_most_its_share_of_tasks_and_an_ended_one_frees_its_place() {
    let counts = Counts::default();
    let server = tasks_builder(&counts)
        .max_tasks_per_principal(2)
        .build()
        .unwrap();
    let addr = http_server(&server).await;
    let alice = client(addr, Opening::Stateless, "alice", true).await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let task = created(
            call_once(&alice, "wait", json!({"ms": 60_000}))
                .await
                .unwrap(),
        );
        ids.push(task.task.task_id);
    }
    let error = call_once(&alice, "wait", json!({"ms": 10}))
        .await
        .unwrap_err();
    assert_eq!(error.code.0, -32000, "{error:?}");
    assert_eq!(reason(&error), mcp_tailor::server::reason::TOO_MANY_TASKS);
    assert_eq!(
        counts.runs.load(Ordering::SeqCst),
        2,
        "the third handler never ran"
    );
    // Another principal has places of its own; a plain call is no task and takes none.
    let bob = client(addr, Opening::Stateless, "bob", true).await;
    created(
        call_once(&bob, "wait", json!({"ms": 60_000}))
            .await
            .unwrap(),
    );
    let plain = client(addr, Opening::Stateless, "alice", false).await;
    assert!(matches!(
        call_once(&plain, "wait", json!({"ms": 10})).await.unwrap(),
        CallToolResponse::Complete(_)
    ));
    // An ended task gives its place back.
    alice
        .cancel_task(CancelTaskParams::new(ids[0].clone()))
        .await
        .map_err(mcp_error)
        .unwrap();
    until(&alice, &ids[0], "cancelled").await;
    let again = eventually(Duration::from_secs(5), || async {
        call_once(&alice, "wait", json!({"ms": 10})).await.ok()
    })
    .await;
    let task =
        created(again.unwrap_or_else(|| panic!("a place again once a task ended: {error:?}")));
    until(&alice, &task.task.task_id, "completed").await;
}
