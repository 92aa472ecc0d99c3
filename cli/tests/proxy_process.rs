//! `mcp-tailor` as users run it, in real processes over real transports: `inspect -- COMMAND`
//! against a stdio server it starts (the command is `mcp-tailor proxy` itself, in front of
//! an HTTP upstream this test serves), `proxy` reloading its file on `SIGHUP`, and what
//! it logs when that upstream fails.

mod common;

use axum::response::IntoResponse as _;
use common::{Announced, BIN, notes_behind, proxy, upstream};
use mcp_tailor_test_support::eventually;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::process::Command;

/// A fresh folder of this test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-tailor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `search_notes` in a `tools/list` result `inspect list` printed.
fn search_notes(stdout: &[u8]) -> Value {
    let listed: Value = serde_json::from_slice(stdout).unwrap_or_default();
    listed["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == "search_notes"))
        .cloned()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn inspect_reads_a_stdio_server_it_starts_from_the_command_line() {
    let url = upstream().await;
    let dir = folder("inspect-command");
    let file = dir.join("tailoring.toml");
    std::fs::write(
        &file,
        r#"
[tools.search_notes.description]
levels = [{ verbosity = 0, text = "Search." }, { verbosity = 9, text = "Search every note by its words." }]
"#,
    )
    .unwrap();
    for (level, want) in [("0", "Search."), ("9", "Search every note by its words.")] {
        let output = Command::new(BIN)
            .args(["inspect", "--tailoring"])
            .arg(&file)
            .args([
                "list",
                "--verbosity",
                level,
                "--",
                BIN,
                "proxy",
                "--upstream",
            ])
            .arg(&url)
            .output()
            .await
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let tool = search_notes(&output.stdout);
        assert_eq!(tool["description"], want, "level {level}: {output:?}");
        // What the file leaves alone is the server's own, through the stdio proxy.
        assert_eq!(
            tool["inputSchema"]["properties"]["query"]["description"],
            "Words to look for."
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What `proxy` at `addr` serves `search_notes` as, read by `inspect --upstream`.
async fn served_description(addr: SocketAddr) -> Option<String> {
    let output = Command::new(BIN)
        .args([
            "inspect",
            "--upstream",
            &format!("http://{addr}/mcp"),
            "list",
        ])
        .output()
        .await
        .ok()?;
    search_notes(&output.stdout)["description"]
        .as_str()
        .map(str::to_owned)
}

/// Polls until `proxy` at `addr` serves `want` (or 20 s pass); what it served last.
async fn wait_for(addr: SocketAddr, want: &str) -> Option<String> {
    let served = eventually(Duration::from_secs(20), || async {
        served_description(addr)
            .await
            .filter(|served| served == want)
    })
    .await;
    match served {
        Some(served) => Some(served),
        None => served_description(addr).await,
    }
}

fn write_description(path: &Path, text: &str) {
    std::fs::write(
        path,
        format!("fallback_verbosity = 5\n[tools.search_notes]\ndescription = \"{text}\"\n"),
    )
    .unwrap();
}

/// The file `proxy` is given is a link into another folder: editing the target makes no
/// event where `proxy` watches, so only `SIGHUP` can make it read the file again.
#[tokio::test(flavor = "multi_thread")]
async fn proxy_reloads_its_file_on_sighup() {
    let url = upstream().await;
    let (watched, elsewhere) = (folder("sighup-watched"), folder("sighup-target"));
    let target = elsewhere.join("tailoring.toml");
    write_description(&target, "Before.");
    let link = watched.join("tailoring.toml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut command = Command::new(BIN);
    command
        .args(["proxy", "--http", "127.0.0.1:0", "--tailoring"])
        .arg(&link)
        .args(["--upstream", &url]);
    let Announced {
        child: mut proxy,
        addr,
        ..
    } = common::spawned(command).await;
    assert_eq!(wait_for(addr, "Before.").await.as_deref(), Some("Before."));

    write_description(&target, "After.");
    // Sleep: a window for what must not come (a reload no event called for).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        served_description(addr).await.as_deref(),
        Some("Before."),
        "no event reached the watched folder: nothing reloads yet"
    );
    let pid = proxy.id().unwrap();
    let hup = Command::new("sh")
        .args(["-c", &format!("kill -HUP {pid}")])
        .status()
        .await
        .unwrap();
    assert!(hup.success());
    assert_eq!(wait_for(addr, "After.").await.as_deref(), Some("After."));

    proxy.kill().await.unwrap();
    std::fs::remove_dir_all(&watched).unwrap();
    std::fs::remove_dir_all(&elsewhere).unwrap();
}

/// The notes server behind a key: a request without `X-Api-Key: secret` is HTTP 401.
async fn keyed_upstream() -> String {
    notes_behind(|router| {
        router.layer(axum::middleware::from_fn(
            |request: axum::extract::Request, next: axum::middleware::Next| async move {
                let key = request.headers().get("x-api-key");
                if key.is_some_and(|k| k == "secret") {
                    next.run(request).await
                } else {
                    axum::http::StatusCode::UNAUTHORIZED.into_response()
                }
            },
        ))
    })
    .await
}

/// `--upstream-header` reaches a remote server that needs a key, its value read from the
/// environment (`${VAR}`), never written on the command line.
#[tokio::test(flavor = "multi_thread")]
async fn proxy_sends_the_upstream_its_headers() {
    let url = keyed_upstream().await;
    let (_with, addr) = proxy(
        &[
            "--upstream",
            &url,
            "--upstream-header",
            "X-Api-Key: ${MCP_TAILOR_TEST_KEY}",
        ],
        &[("MCP_TAILOR_TEST_KEY", "secret")],
    )
    .await;
    assert_eq!(
        wait_for(addr, "Search the notes.").await.as_deref(),
        Some("Search the notes.")
    );
    // Without the header the upstream refuses, and `proxy` says so and exits 1.
    let output = Command::new(BIN)
        .args(["proxy", "--upstream", &url])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    // A header the transport sets itself is refused, by name.
    let output = Command::new(BIN)
        .args([
            "proxy",
            "--upstream",
            &url,
            "--upstream-header",
            "Accept: text/html",
        ])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("the header `Accept` is the transport's own"),
        "{said}"
    );
}

/// A request that names no level reads the server's own words, though the file covers
/// every level; `--verbosity` (and `--runner`, `--model`) or the file's `fallback_verbosity`
/// gives it one. A request that names a level reads the file at it.
#[tokio::test(flavor = "multi_thread")]
async fn proxy_reads_requests_that_name_no_level_as_the_server_wrote_them() {
    let url = upstream().await;
    let dir = folder("defaults");
    let (every, pinned) = (dir.join("every.toml"), dir.join("pinned.toml"));
    let table = "[tools.search_notes.description]\nlevels = [{ verbosity = \"0..=9\", text = \"Terse.\" }]\n";
    std::fs::write(&every, table).unwrap();
    std::fs::write(&pinned, format!("fallback_verbosity = 0\n{table}")).unwrap();
    let (every, pinned) = (every.display().to_string(), pinned.display().to_string());
    let (_own, own) = proxy(&["--tailoring", &every, "--upstream", &url], &[]).await;
    assert_eq!(
        wait_for(own, "Search the notes.").await.as_deref(),
        Some("Search the notes.")
    );
    let named = Command::new(BIN)
        .args(["inspect", "--upstream", &format!("http://{own}/mcp")])
        .args(["--upstream-header", "X-MCP-Verbosity: 3", "list"])
        .output()
        .await
        .unwrap();
    assert_eq!(search_notes(&named.stdout)["description"], "Terse.");
    for args in [
        vec!["--tailoring", &every, "--verbosity", "0"],
        vec!["--tailoring", &pinned],
    ] {
        let (_terse, terse) = proxy(&[&args[..], &["--upstream", &url]].concat(), &[]).await;
        assert_eq!(
            wait_for(terse, "Terse.").await.as_deref(),
            Some("Terse."),
            "{args:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An HTTP upstream that fails mid-session is logged in the user's terms: what it
/// answered, not rmcp's wrappings of it (a transport's type name).
#[tokio::test(flavor = "multi_thread")]
async fn an_upstream_failure_is_logged_in_the_user_s_terms() {
    let down = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let switch = down.clone();
    let url = notes_behind(move |router| {
        router.layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let down = switch.load(std::sync::atomic::Ordering::Relaxed);
                async move {
                    match down {
                        true => axum::http::StatusCode::SERVICE_UNAVAILABLE.into_response(),
                        false => next.run(request).await,
                    }
                }
            },
        ))
    })
    .await;
    let proxy = common::started(&["--upstream", &url], &[]).await;
    let addr = proxy.addr;
    let client = reqwest::Client::new();
    let post = |session: Option<String>, body: Value| {
        let mut request = client
            .post(format!("http://{addr}/mcp"))
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body.to_string());
        if let Some(session) = session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", "2025-11-25");
        }
        request.send()
    };
    let opened = post(
        None,
        serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await
    .unwrap();
    let session = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post(Some(session.clone()), initialized).await.unwrap();
    down.store(true, std::sync::atomic::Ordering::Relaxed);
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "search_notes", "arguments": {"query": "x"}}});
    let answer = post(Some(session), call)
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(answer.contains("upstream_failure"), "{answer}");
    let logged = proxy.ended().await;
    let failure = logged
        .lines()
        .find(|line| line.contains("upstream failure: "))
        .unwrap_or_else(|| panic!("{logged}"));
    assert!(failure.ends_with("upstream failure: HTTP 503"), "{failure}");
    assert!(!logged.contains("Transport ["), "{logged}");
}

/// A stdio upstream for `sh -c`: `mcp-tailor proxy` in front of `$URL`, the first message
/// it is sent kept in `$SEEN`; with `REFUSE=yes` it refuses `initialize` as a server of
/// 2026-07-28 alone would.
const REFUSING: &str = r#"
IFS= read -r first
printf '%s\n' "$first" >> "$SEEN"
case "$REFUSE:$first" in
  yes:*'"method":"initialize"'*)
    id=$(printf '%s' "$first" | sed -E 's/.*"id":([0-9]+).*/\1/')
    printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id"
    exec cat > /dev/null ;;
  *) { printf '%s\n' "$first"; cat; } | exec "$BIN" proxy --upstream "$URL" ;;
esac
"#;

/// The method of each first message `REFUSING` kept in `seen`, in order, as JSON.
fn first_methods(seen: &Path) -> Vec<String> {
    std::fs::read_to_string(seen)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["method"].to_string())
        .collect()
}

/// `inspect -- COMMAND` begins with `initialize`, as most clients do (a server of an older
/// SDK may log a `server/discover` probe's refusal at length); a server that refuses it (a
/// 2026-07-28 one need not serve it) is asked with `server/discover`. The upstream here is
/// `mcp-tailor proxy` behind a shell script that keeps what it is sent first, and, asked,
/// refuses `initialize` as such a server would.
#[tokio::test(flavor = "multi_thread")]
async fn inspect_begins_with_initialize_and_falls_back_to_discover() {
    let url = upstream().await;
    let dir = folder("inspect-lifecycle");
    let script = REFUSING;
    for refuse in ["no", "yes"] {
        let seen = dir.join(format!("seen-{refuse}"));
        let output = Command::new(BIN)
            .args(["inspect", "list", "--", "sh", "-c", script])
            .env("SEEN", &seen)
            .env("REFUSE", refuse)
            .env("BIN", BIN)
            .env("URL", &url)
            .output()
            .await
            .unwrap();
        assert!(output.status.success(), "{refuse}: {output:?}");
        assert_eq!(
            search_notes(&output.stdout)["description"],
            "Search the notes."
        );
        let methods = first_methods(&seen);
        let want = match refuse {
            "no" => vec!["\"initialize\""],
            _ => vec!["\"initialize\"", "\"server/discover\""],
        };
        assert_eq!(methods, want, "{refuse}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `proxy` on HTTP in front of `REFUSING` (refusing `initialize`), keeping in `seen` what
/// each upstream process was sent first, once it listens; the process and its address.
async fn refusing_proxy(seen: &Path) -> (tokio::process::Child, SocketAddr) {
    let url = upstream().await;
    let mut command = common::proxy_of(&["sh", "-c", REFUSING]);
    command
        .env("SEEN", seen)
        .envs([("REFUSE", "yes"), ("BIN", BIN), ("URL", &url)]);
    let proxy = common::spawned(command).await;
    (proxy.child, proxy.addr)
}

/// `proxy` in front of an upstream that refuses `initialize` asks it with
/// `server/discover`, and serves a 2026-07-28 client's stateless requests from it.
#[tokio::test(flavor = "multi_thread")]
async fn proxy_serves_an_upstream_that_refuses_initialize_to_stateless_clients() {
    let dir = folder("proxy-lifecycle");
    let seen = dir.join("seen");
    let (_proxy, addr) = refusing_proxy(&seen).await;
    let seen = seen.to_str().unwrap();
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}}});
    let answer = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/list")
        .body(list.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(answer.contains("\"name\":\"search_notes\""), "{answer}");
    let first = first_methods(Path::new(seen));
    assert_eq!(first[..2], ["\"initialize\"", "\"server/discover\""]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 2025 client reaches such an upstream too: its session has no upstream session of its
/// own (the upstream serves no `initialize`), and each of its requests goes upstream as a
/// 2026-07-28 one, over the connection the gateway discovered the upstream with.
#[tokio::test(flavor = "multi_thread")]
async fn proxy_bridges_a_2025_session_to_an_upstream_that_refuses_initialize() {
    let dir = folder("proxy-bridge");
    let seen = dir.join("seen");
    let (_proxy, addr) = refusing_proxy(&seen).await;
    let seen = seen.to_str().unwrap();
    let session = common::RawSession::open(&format!("http://{addr}/mcp")).await;
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let listed = session.ask(list).await;
    let tools = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(
        tools.iter().any(|t| t["name"] == "search_notes"),
        "{listed}"
    );
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "search_notes", "arguments": {"query": "bridged"}}});
    let called = session.ask(call).await;
    assert_eq!(called["id"], 3, "{called}");
    assert_eq!(
        called["result"]["structuredContent"]["query"], "bridged",
        "{called}"
    );
    // No upstream process was started for the session: the discovered one served it.
    assert_eq!(
        first_methods(Path::new(seen)),
        ["\"initialize\"", "\"server/discover\""]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stdio server in `sh` listing `echo`, its description read from the file `$WORDS` at
/// each `tools/list`; a call says its tools changed before it answers.
fn rewordable() -> String {
    let tools = r#"'{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","description":"%s","inputSchema":{"type":"object"}}]}}\n' "$id" "$(cat "$WORDS")""#;
    let called = r#"'{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}\n' "$id""#;
    common::sh_server(
        "rewordable",
        &[
            (r#"*'"method":"tools/list"'*"#, tools),
            (r#"*'"method":"tools/call"'*"#, called),
        ],
    )
}

/// A file drafted from a server's words is checked against them when `proxy` starts, and
/// again when the server's tools change under it: each reworded tool is logged. For one
/// server, and for one of an `mcpServers` file's (its own file, taken into the whole).
#[tokio::test(flavor = "multi_thread")]
async fn proxy_logs_the_file_s_drift_at_start_and_when_the_tools_change() {
    let dir = folder("drift");
    let words = dir.join("words");
    std::fs::write(&words, "Echo the text.").unwrap();
    let script = rewordable();
    let init = std::process::Command::new(BIN)
        .args(["init", "--out"])
        .arg(dir.join("t.toml"))
        .args(["--", "sh", "-c", &script])
        .env("WORDS", &words)
        .output()
        .unwrap();
    assert!(init.status.success(), "{init:?}");
    let servers = serde_json::json!({"mcpServers": {"rewordable": {
        "command": "sh", "args": ["-c", &script], "tailoring": dir.join("t.toml")}}});
    std::fs::write(dir.join("servers.json"), servers.to_string()).unwrap();
    let t = dir.join("t.toml").display().to_string();
    let one = ["--tailoring", &t, "--", "sh", "-c", &script];
    logs_drift(&words, &one).await;
    let fleet = dir.join("servers.json").display().to_string();
    logs_drift(&words, &["--servers", &fleet]).await;
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `proxy ARGS` (a file drafted when `words` said "Echo the text.") logs that `echo`'s
/// words changed at start, and again after they change while it serves.
async fn logs_drift(words: &Path, args: &[&str]) {
    std::fs::write(words, "Echo the text back.").unwrap();
    let mut proxy = common::started(args, &[("WORDS", words.to_str().unwrap())]).await;
    let changed = "tool `echo`: its own words changed since this entry was drafted";
    let at_start = proxy.said(changed).await;
    let session = common::RawSession::open(&common::url(&proxy)).await;
    std::fs::write(words, "Echo the text back, twice.").unwrap();
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "echo", "arguments": {}}});
    session.ask(call).await;
    // The next listing asks the server again, and reads its new words.
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
    let listed = eventually(Duration::from_secs(20), || async {
        let listed = session.ask(list.clone()).await;
        let words = listed["result"]["tools"][0]["description"].as_str();
        (words == Some("Echo the text back, twice.")).then_some(())
    })
    .await;
    assert!(
        listed.is_some(),
        "the proxy listed the server again ({args:?})"
    );
    proxy.said("the tools listed upstream changed").await;
    let after_change = proxy.said(changed).await;
    // Drafted from the same words, measured against new ones each time.
    let now = |line: &str| line.rsplit_once(", now ").map(|(_, now)| now.to_owned());
    assert_ne!(
        now(&at_start),
        now(&after_change),
        "{at_start}{after_change}"
    );
    proxy.ended().await;
}
