//! One `mcp-tailor proxy --servers FILE` in front of real servers nobody here wrote, pinned
//! from npm and PyPI (`tests/third_party/install.sh`): two instances of server-memory and
//! mcp-server-time over stdio, server-everything over streamable HTTP, from one
//! `mcpServers` file. Read by rmcp's own client over streamable HTTP: every tool is listed
//! once under a unique name (the two memories' tools prefixed), a call reaches each server,
//! a denied tool is neither listed nor callable, and when server-everything is killed
//! mid-run the others keep answering. And twenty sessions of a fleet of four start no more
//! processes than its mode allows (counted in `/proc`), each on its own revision though
//! server-github speaks 2024-11-05. Run with `--ignored`, `MCP_TAILOR_SERVERS` and
//! `MCP_TAILOR_PYTHON`.

use mcp_tailor::server::rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams,
};
use mcp_tailor::server::rmcp::transport::StreamableHttpClientTransport;
use mcp_tailor::server::rmcp::{RoleClient, ServiceExt as _, service::RunningService};
use mcp_tailor_test_support::process::{Announced, bound_by};
use mcp_tailor_test_support::{children, target};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

/// The script of the pinned npm server `package` (`server-memory`), as installed under
/// `MCP_TAILOR_SERVERS`.
fn script(package: &str) -> String {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    npm.join("node_modules/@modelcontextprotocol")
        .join(package)
        .join("dist/index.js")
        .display()
        .to_string()
}

/// `mcp-tailor proxy --servers FILE --http 127.0.0.1:0 EXTRA…`, once it listens (its
/// address read from the line it says so in).
async fn fleet_gateway(file: &std::path::Path, extra: &[&str]) -> Announced {
    let mut command = tokio::process::Command::new(target().join("debug").join("mcp-tailor"));
    command
        .args(["proxy", "--http", "127.0.0.1:0", "--servers"])
        .arg(file)
        .args(extra);
    Announced::spawn(command, "mcp-tailor proxy on http://").await
}

type Client = RunningService<RoleClient, ()>;

/// `tools/call` through `client`: the result as JSON, or the error.
async fn call(client: &Client, name: &str, arguments: Value) -> Result<Value, String> {
    let mut params = CallToolRequestParams::new(name.to_owned());
    params.arguments = arguments.as_object().cloned();
    let called = tokio::time::timeout(Duration::from_secs(30), client.call_tool(params))
        .await
        .map_err(|_| format!("{name}: no answer in 30 s"))?;
    match called {
        Ok(result) => Ok(serde_json::to_value(result).unwrap()),
        Err(error) => Err(error.to_string()),
    }
}

/// The text of a call's first content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn one_gateway_in_front_of_real_servers_from_an_mcp_servers_file() {
    let python = std::env::var("MCP_TAILOR_PYTHON").expect("MCP_TAILOR_PYTHON");
    let scratch = target().join("fleet-scratch");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    // server-everything on streamable HTTP, a process of this test's own to kill.
    let mut everything = tokio::process::Command::new("node")
        .args([script("server-everything").as_str(), "streamableHttp"])
        .env("PORT", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let everything_at = bound_by(everything.id().expect("running")).await;
    let memory = |file: &str| {
        json!({"command": "node", "args": [script("server-memory")],
            "env": {"MEMORY_FILE_PATH": scratch.join(file).display().to_string()},
            "tools": {"deny": ["delete_*"]}})
    };
    let servers = json!({"mcpServers": {
        "memory": memory("memory.jsonl"),
        "notes": memory("notes.jsonl"),
        "time": {"command": python, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
        "everything": {"type": "http", "url": format!("http://{everything_at}/mcp"),
            "tools": {"deny": ["trigger-long-running-operation"]}},
    }});
    let file = scratch.join("mcp.json");
    std::fs::write(&file, servers.to_string()).unwrap();
    let proxy = fleet_gateway(&file, &[]).await;
    let transport = StreamableHttpClientTransport::from_uri(format!("http://{}/mcp", proxy.addr));
    let client = ().serve(transport).await.unwrap();

    // Every tool once, under a unique name; the two memories' tools prefixed by server.
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    let unique: BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "a name listed twice: {names:?}");
    for expected in [
        "memory_create_entities",
        "notes_read_graph",
        "get_current_time",
        "convert_time",
        "echo",
        "get-sum",
    ] {
        assert!(
            unique.contains(&expected.to_owned()),
            "{expected} not in {names:?}"
        );
    }
    // Denied: neither listed nor callable.
    for denied in [
        "memory_delete_entities",
        "notes_delete_relations",
        "trigger-long-running-operation",
    ] {
        assert!(!unique.contains(&denied.to_owned()), "{denied} listed");
        let refused = call(&client, denied, json!({})).await.unwrap_err();
        assert!(refused.contains("unknown tool"), "{denied}: {refused}");
    }
    assert!(
        !unique.contains(&"read_graph".to_owned()),
        "an unprefixed shared name"
    );

    // A call reaches each server; the two memories are two servers.
    let entity = json!({"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]});
    call(&client, "memory_create_entities", entity)
        .await
        .unwrap();
    let graph = call(&client, "memory_read_graph", json!({})).await.unwrap();
    assert!(graph.to_string().contains("Ada"), "{graph}");
    let other = call(&client, "notes_read_graph", json!({})).await.unwrap();
    assert!(!other.to_string().contains("Ada"), "{other}");
    let now = call(&client, "get_current_time", json!({"timezone": "UTC"}))
        .await
        .unwrap();
    assert!(text(&now).contains("UTC"), "{now}");
    let sum = call(&client, "get-sum", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert!(text(&sum).contains('5'), "{sum}");

    // Resources and prompts go to their owner too.
    let resources = client.list_all_resources().await.unwrap();
    let resource = resources
        .first()
        .expect("server-everything lists resources");
    let params = ReadResourceRequestParams::new(resource.uri.clone());
    let read = client.read_resource(params).await.unwrap();
    assert!(
        !serde_json::to_value(&read).unwrap()["contents"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let prompts = client.list_all_prompts().await.unwrap();
    let plain = prompts
        .iter()
        .find(|p| {
            p.arguments
                .as_ref()
                .is_none_or(|a| a.iter().all(|a| a.required != Some(true)))
        })
        .expect("a prompt without required arguments");
    let got = client
        .get_prompt(GetPromptRequestParams::new(plain.name.clone()))
        .await
        .unwrap();
    assert!(
        !serde_json::to_value(&got).unwrap()["messages"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // server-everything killed mid-run: its calls fail, the others keep answering.
    everything.kill().await.unwrap();
    let gone = call(&client, "get-sum", json!({"a": 1, "b": 1})).await;
    assert!(
        gone.is_err() || gone.as_ref().unwrap()["isError"] == true,
        "{gone:?}"
    );
    let now = call(
        &client,
        "convert_time",
        json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
    )
    .await
    .unwrap();
    assert!(now.to_string().contains("Tokyo"), "{now}");
    let graph = call(&client, "memory_read_graph", json!({})).await.unwrap();
    assert!(graph.to_string().contains("Ada"), "{graph}");
    let listed = client.list_all_tools().await.unwrap();
    assert!(listed.iter().any(|t| t.name == "notes_read_graph"));
    client.cancel().await.unwrap();
    std::fs::remove_dir_all(&scratch).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
async fn twenty_sessions_of_a_fleet_start_no_more_processes_than_its_mode_allows() {
    let python = std::env::var("MCP_TAILOR_PYTHON").expect("MCP_TAILOR_PYTHON");
    let scratch = target().join("fleet-sessions-scratch");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    // Four real servers over stdio; server-github speaks 2024-11-05.
    let servers = json!({"mcpServers": {
        "memory": {"command": "node", "args": [script("server-memory")],
            "env": {"MEMORY_FILE_PATH": scratch.join("memory.jsonl").display().to_string()}},
        "files": {"command": "node", "args": [script("server-filesystem"), scratch.display().to_string()]},
        "github": {"command": "node", "args": [script("server-github")]},
        "time": {"command": python, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
    }});
    let file = scratch.join("mcp.json");
    std::fs::write(&file, servers.to_string()).unwrap();
    const MEMBERS: usize = 4;
    const SESSIONS: usize = 20;
    const CAP: usize = 2;
    for (mode, most) in [("shared", MEMBERS), ("per-client", MEMBERS * CAP)] {
        let cap = CAP.to_string();
        let extra = ["--upstream-sessions", mode, "--max-upstream-sessions", &cap];
        let proxy = fleet_gateway(&file, &extra).await;
        let pid = proxy.child.id().unwrap();
        let mut clients = Vec::new();
        let mut firsts = Vec::new();
        for _ in 0..SESSIONS {
            let uri = format!("http://{}/mcp", proxy.addr);
            let client = ().serve(StreamableHttpClientTransport::from_uri(uri)).await.unwrap();
            // Every client on the revision it asked for, whatever its members speak.
            let info = client.peer_info().expect("initialized");
            assert_eq!(info.protocol_version.to_string(), "2025-11-25", "{mode}");
            let started = std::time::Instant::now();
            let listed = client.list_all_tools().await;
            firsts.push(started.elapsed());
            if mode == "shared" {
                assert!(listed.unwrap().iter().any(|t| t.name == "get_current_time"));
            }
            clients.push(client);
        }
        let processes = children(pid).len();
        println!(
            "{mode}: {SESSIONS} sessions, {processes} upstream processes; first tools/list of each: {:?}",
            firsts.iter().map(|d| d.as_millis()).collect::<Vec<_>>()
        );
        assert!(
            processes <= most,
            "{mode}: {processes} processes, at most {most}"
        );
        if mode == "shared" {
            assert_eq!(processes, MEMBERS);
        }
        for client in clients {
            let _ = client.cancel().await;
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
}
