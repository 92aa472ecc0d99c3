//! `proxy --servers FILE`: an `mcpServers` file's servers behind one endpoint, as a client
//! meets them. Two notes servers on streamable HTTP list the same tool (served as
//! `a_search_notes` and `b_search_notes`), a shell server on stdio lists two (one denied by
//! its filter), one server is down at start and joins when it answers; a server's own
//! tailoring file words its tool by its own name. Real third-party servers behind a fleet:
//! `tests/tests/fleet.rs`.

mod common;

use common::{
    BIN, RawSession, log_holding, notes_behind, proxy, reserved_addr, sh_server, sh_server_of,
};
use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, Server};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;

/// A shell server listing `echo` and `rm_rf`; every call answers "echoed".
fn shell() -> String {
    let tools = r#"'{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","description":"Echo.","inputSchema":{"type":"object"}},{"name":"rm_rf","description":"Remove.","inputSchema":{"type":"object"}}]}}\n' "$id""#;
    let called = r#"'{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"echoed"}]}}\n' "$id""#;
    sh_server(
        "shell",
        &[
            (r#"*'"method":"tools/list"'*"#, tools),
            (r#"*'"method":"tools/call"'*"#, called),
        ],
    )
}

/// [`shell`], first saying "shell ready" in green on stderr, as servers greet.
fn greeting_shell() -> String {
    format!("printf '\\033[32mshell ready\\033[0m\\n' >&2\n{}", shell())
}

/// `proxy --servers FILE`, run to its end (a file it cannot serve).
async fn proxy_servers(file: &std::path::Path) -> std::process::Output {
    tokio::process::Command::new(BIN)
        .args(["proxy", "--servers"])
        .arg(file)
        .output()
        .await
        .unwrap()
}

/// `init --servers FILE --out DRAFTS`, run to its end.
async fn init_servers(file: &std::path::Path, drafts: &std::path::Path) -> std::process::Output {
    tokio::process::Command::new(BIN)
        .args(["init", "--servers"])
        .arg(file)
        .arg("--out")
        .arg(drafts)
        .output()
        .await
        .unwrap()
}

/// Lists the weather.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Forecast {
    /// A city.
    city: String,
}

/// A weather server at `addr` (bound now), for the life of the test.
async fn weather_at(socket: tokio::net::TcpSocket) {
    let server = Server::builder()
        .name("weather", "1.0.0")
        .tool(|args: Forecast, _: CallContext| async move {
            Ok::<_, String>(json!({ "city": args.city, "sky": "clear" }))
        })
        .build()
        .unwrap();
    let listener = socket.listen(1024).unwrap();
    let router = server.router();
    tokio::spawn(async move {
        server
            .serve_http_on(listener, router, std::future::pending())
            .await
    });
}

async fn names(session: &RawSession) -> BTreeSet<String> {
    let listed = session
        .ask(json!({"jsonrpc": "2.0", "id": 10, "method": "tools/list"}))
        .await;
    listed["result"]["tools"]
        .as_array()
        .expect("a listing")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

async fn call(session: &RawSession, name: &str, arguments: Value) -> Value {
    session
        .ask(json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}))
        .await
}

#[tokio::test(flavor = "multi_thread")]
async fn many_servers_behind_one_endpoint() {
    let a = notes_behind(|r| r).await;
    let b = notes_behind(|r| r).await;
    let (weather, down) = reserved_addr();
    let folder = std::env::temp_dir().join(format!("mcp-tailor-fleet-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("a.toml"),
        "[tools.search_notes.description]\nlevels = [{ verbosity = \"0..=9\", text = \"Search A.\" }]\n",
    )
    .unwrap();
    let servers = json!({"mcpServers": {
        "a": {"url": a, "tailoring": "a.toml"},
        "b": {"type": "http", "url": b},
        "shell": {"command": "sh", "args": ["-c", shell()], "tools": {"deny": ["rm_*"]}},
        "weather": {"url": format!("http://{down}/mcp")},
        "off": {"command": "false", "disabled": true},
    }});
    let file = folder.join("servers.json");
    std::fs::write(&file, servers.to_string()).unwrap();
    let args = [
        "--servers",
        file.to_str().unwrap(),
        "--metrics",
        "127.0.0.1:0",
    ];
    let proxy = common::started(&args, &[]).await;
    let (addr, metrics) = (proxy.addr, common::metrics(&proxy));
    let session = RawSession::open(&format!("http://{addr}/mcp")).await;
    let expected: BTreeSet<String> = ["a_search_notes", "b_search_notes", "echo"]
        .map(String::from)
        .into();
    assert_eq!(names(&session).await, expected);
    // Each call reaches its own server; a denied tool, and a name no server serves as it
    // is, get the error an unknown tool gets.
    let answered = call(&session, "b_search_notes", json!({"query": "tea"})).await;
    assert_eq!(
        answered["result"]["structuredContent"]["query"], "tea",
        "{answered}"
    );
    let echoed = call(&session, "echo", json!({})).await;
    assert_eq!(echoed["result"]["content"][0]["text"], "echoed", "{echoed}");
    for refused in ["rm_rf", "search_notes"] {
        let error = call(&session, refused, json!({})).await;
        assert_eq!(error["error"]["code"], -32602, "{refused}: {error}");
        assert_eq!(error["error"]["data"]["reason"], "unknown_tool", "{error}");
    }
    // A's own file words its tool, by the tool's own name, under the name served.
    let listed = session
        .ask(json!({"jsonrpc": "2.0", "id": 12, "method": "tools/list",
            "params": {"_meta": {"mcp-tailor.dev/verbosity": 3}}}))
        .await;
    let a_tool = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "a_search_notes")
        .cloned()
        .unwrap();
    assert_eq!(a_tool["description"], "Search A.", "{listed}");
    // The server that was down answers now: it joins, and its tool is served.
    weather_at(weather).await;
    let joined = mcp_tailor_test_support::eventually(Duration::from_secs(20), || async {
        names(&session).await.contains("forecast").then_some(())
    })
    .await;
    assert!(joined.is_some(), "weather never joined");
    let forecast = call(&session, "forecast", json!({"city": "Oslo"})).await;
    assert_eq!(
        forecast["result"]["structuredContent"]["sky"], "clear",
        "{forecast}"
    );
    // The metrics name each server: its calls, its connections.
    let text = reqwest::get(format!("http://{metrics}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for server in ["b", "shell", "weather"] {
        let sample = format!(
            "mcp_tailor_requests_total{{server=\"{server}\",method=\"tools/call\",outcome=\"ok\"}} 1"
        );
        assert!(text.contains(&sample), "{sample} not in\n{text}");
    }
    let weather = "mcp_tailor_upstream_connections{server=\"weather\"}";
    assert!(text.contains(weather), "{text}");
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_of_an_old_revision_holds_no_client_back() {
    let echo = r#"'{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"old_echo","inputSchema":{"type":"object"}}]}}\n' "$id""#;
    let called = r#"'{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"old answers"}]}}\n' "$id""#;
    let old = sh_server_of(
        "old",
        "2024-11-05",
        &[
            (r#"*'"method":"tools/list"'*"#, echo),
            (r#"*'"method":"tools/call"'*"#, called),
        ],
    );
    let folder = std::env::temp_dir().join(format!("mcp-tailor-eras-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let servers = json!({"mcpServers": {
        "old": {"command": "sh", "args": ["-c", old]},
        "shell": {"command": "sh", "args": ["-c", shell()]},
    }});
    let file = folder.join("servers.json");
    std::fs::write(&file, servers.to_string()).unwrap();
    for mode in ["shared", "per-client"] {
        let args = [
            "--servers",
            file.to_str().unwrap(),
            "--upstream-sessions",
            mode,
        ];
        let (_proxy, addr) = proxy(&args, &[]).await;
        let mcp = format!("http://{addr}/mcp");
        let client = reqwest::Client::new();
        for version in ["2025-11-25", "2025-06-18", "2025-03-26"] {
            let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": version, "capabilities": {},
                "clientInfo": {"name": "eras", "version": "1"}}});
            let opened = client
                .post(&mcp)
                .header("accept", "application/json, text/event-stream")
                .header("content-type", "application/json")
                .body(initialize.to_string())
                .send()
                .await
                .unwrap();
            let text = opened.text().await.unwrap();
            assert!(
                text.contains(&format!("\"protocolVersion\":\"{version}\"")),
                "{mode}, {version}: {text}"
            );
        }
        // The old server's tool is served, and called, to a client of the newest revision.
        let session = RawSession::open(&mcp).await;
        assert!(names(&session).await.contains("old_echo"), "{mode}");
        let answered = call(&session, "old_echo", json!({})).await;
        assert_eq!(
            answered["result"]["content"][0]["text"], "old answers",
            "{mode}: {answered}"
        );
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn a_servers_file_that_cannot_be_served_is_named() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-fleet-bad-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("servers.json");
    std::fs::write(&file, r#"{"mcpServers": {"x": {"args": []}}}"#).unwrap();
    let output = proxy_servers(&file).await;
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("server `x`: expected `command`"), "{said}");
    // A typo stops the start where it is, with the key it likely meant; the denied tool
    // is never served.
    std::fs::write(
        &file,
        "{\"mcpServers\": {\"x\": {\"command\": \"sh\",\n  \"tools\": {\"denny\": [\"rm_rf\"]}}}}",
    )
    .unwrap();
    let output = proxy_servers(&file).await;
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    let at = format!("{}:2:", file.display());
    assert!(said.contains(&at), "{said}");
    assert!(
        said.contains("unknown key `denny`; did you mean `deny`?"),
        "{said}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

/// `init --servers FILE --out FOLDER` drafts each server's file and a copy of FILE naming
/// them; `proxy --servers` serves the copy, each server's tool worded by its draft.
#[tokio::test(flavor = "multi_thread")]
async fn init_drafts_every_server_and_proxy_serves_the_copy() {
    let (a, b) = (notes_behind(|r| r).await, notes_behind(|r| r).await);
    let folder = std::env::temp_dir().join(format!("mcp-tailor-fleet-init-{}", std::process::id()));
    let drafts = folder.join("drafts");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("mcp.json");
    let servers =
        json!({"mcpServers": {"a": {"url": a}, "b": {"url": b, "tools": {"allow": ["search_*"]}}}});
    std::fs::write(&file, servers.to_string()).unwrap();
    let output = init_servers(&file, &drafts).await;
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("2 of 2 servers drafted"), "{said}");
    for name in ["a.toml", "b.toml"] {
        let draft = std::fs::read_to_string(drafts.join(name)).unwrap();
        assert!(draft.contains("[tools.search_notes"), "{draft}");
    }
    let copy: Value =
        serde_json::from_str(&std::fs::read_to_string(drafts.join("mcp.json")).unwrap()).unwrap();
    assert_eq!(copy["mcpServers"]["a"]["tailoring"], "a.toml");
    assert_eq!(copy["mcpServers"]["b"]["tools"]["allow"][0], "search_*");
    let copied = drafts.join("mcp.json");
    let (_proxy, addr) = proxy(&["--servers", copied.to_str().unwrap()], &[]).await;
    let session = RawSession::open(&format!("http://{addr}/mcp")).await;
    let expected: BTreeSet<String> = ["a_search_notes", "b_search_notes"]
        .map(String::from)
        .into();
    assert_eq!(names(&session).await, expected);
    // `inspect --servers` reads the whole catalog as the proxy serves it: level 0 as the
    // drafts word it.
    let served_at_0 = session
        .ask(json!({"jsonrpc": "2.0", "id": 13, "method": "tools/list",
            "params": {"_meta": {"mcp-tailor.dev/verbosity": 0}}}))
        .await;
    let inspected = tokio::process::Command::new(BIN)
        .args(["inspect", "--servers"])
        .arg(drafts.join("mcp.json"))
        .args(["list", "--verbosity", "0"])
        .output()
        .await
        .unwrap();
    assert!(inspected.status.success(), "{inspected:?}");
    let listed: Value = serde_json::from_slice(&inspected.stdout).unwrap();
    assert_eq!(listed["tools"], served_at_0["result"]["tools"]);
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn init_drafts_no_denied_tool_labels_each_server_s_stderr_and_says_when_one_is_skipped() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-fleet-skip-{}", std::process::id()));
    let drafts = folder.join("drafts");
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("mcp.json");
    let banner = greeting_shell();
    let servers = json!({"mcpServers": {
        "shell": {"command": "sh", "args": ["-c", banner], "tools": {"deny": ["rm_*"]}},
        "broken": {"command": "sh", "args": ["-c", "echo broken says why >&2; exit 4"]},
    }});
    std::fs::write(&file, servers.to_string()).unwrap();
    let output = init_servers(&file, &drafts).await;
    let said = String::from_utf8_lossy(&output.stderr);
    // Drafted in part: its own exit code, not success and not failure.
    assert_eq!(output.status.code(), Some(3), "{said}");
    assert!(said.contains("1 of 2 servers drafted"), "{said}");
    // Each server's own lines carry its name, wherever they come; no colours.
    let banner_line = said
        .lines()
        .find(|l| l.contains("shell ready"))
        .expect("the banner");
    assert!(banner_line.contains("server=\"shell\""), "{said}");
    assert!(!banner_line.contains('\u{1b}'), "{said}");
    // Of the shell's two tools, the one its filter denies is never served: not drafted.
    assert!(said.contains("of 1 tool;"), "{said}");
    let draft = std::fs::read_to_string(drafts.join("shell.toml")).unwrap();
    assert!(
        !draft.contains("[tools.rm_rf") && !draft.contains("\n# rm_rf"),
        "a denied tool was drafted:\n{draft}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_json_log_holds_the_servers_stderr_as_json_lines_under_their_names() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-fleet-json-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let banner = greeting_shell();
    let servers = json!({"mcpServers": {"shell": {"command": "sh", "args": ["-c", banner]}}});
    let file = folder.join("mcp.json");
    std::fs::write(&file, servers.to_string()).unwrap();
    let log = folder.join("stderr.log");
    let mut child = tokio::process::Command::new(BIN)
        .args([
            "proxy",
            "--log-format",
            "json",
            "--http",
            "127.0.0.1:0",
            "--servers",
        ])
        .arg(&file)
        .stderr(std::fs::File::create(&log).unwrap())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let told = ["shell ready", "mcp-tailor proxy on"];
    let read = log_holding(&log, &told, Duration::from_secs(20)).await;
    child.kill().await.unwrap();
    let text = read.unwrap_or_else(|| std::fs::read_to_string(&log).unwrap());
    for line in text.lines() {
        let event: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if event["fields"]["message"] == "shell ready" {
            assert_eq!(event["fields"]["server"], "shell", "{line}");
        }
    }
    assert!(text.contains(r#""message":"shell ready""#), "{text}");
    std::fs::remove_dir_all(&folder).unwrap();
}

/// `--servers` with `--surface index`: one index and one search across every server; a
/// denied tool is in neither, and `call_tool` reaches each server.
#[tokio::test(flavor = "multi_thread")]
async fn one_index_and_one_search_across_a_fleet() {
    let notes = notes_behind(|r| r).await;
    let folder =
        std::env::temp_dir().join(format!("mcp-tailor-fleet-index-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let servers = json!({"mcpServers": {
        "notes": {"url": notes},
        "shell": {"command": "sh", "args": ["-c", shell()], "tools": {"deny": ["rm_*"]}},
    }});
    let file = folder.join("servers.json");
    std::fs::write(&file, servers.to_string()).unwrap();
    let args = ["--servers", file.to_str().unwrap(), "--surface", "index"];
    let (_proxy, addr) = proxy(&args, &[]).await;
    let session = RawSession::open(&format!("http://{addr}/mcp")).await;
    let surface: BTreeSet<String> = ["call_tool", "search_tools"].map(String::from).into();
    assert_eq!(names(&session).await, surface);
    let listed = session
        .ask(json!({"jsonrpc": "2.0", "id": 12, "method": "tools/list"}))
        .await;
    let index = listed["result"]["tools"][0]["description"]
        .as_str()
        .unwrap();
    let lines: Vec<&str> = index.lines().skip(1).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("search_notes")),
        "{index}"
    );
    assert!(lines.iter().any(|l| l.starts_with("echo")), "{index}");
    assert!(!index.contains("rm_rf"), "{index}");
    let found = call(&session, "search_tools", json!({"query": "echo"})).await;
    let tools = found["result"]["structuredContent"]["tools"].clone();
    assert_eq!(tools[0]["name"], "echo", "{found}");
    let answered = call(
        &session,
        "call_tool",
        json!({"name": "search_notes", "arguments": {"query": "tea"}}),
    )
    .await;
    assert_eq!(
        answered["result"]["structuredContent"]["query"], "tea",
        "{answered}"
    );
    let echoed = call(&session, "call_tool", json!({"name": "echo"})).await;
    assert_eq!(echoed["result"]["content"][0]["text"], "echoed", "{echoed}");
    let denied = call(&session, "call_tool", json!({"name": "rm_rf"})).await;
    assert_eq!(
        denied["error"]["data"]["reason"], "unknown_tool",
        "{denied}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}
