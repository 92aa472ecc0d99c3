//! The gateway passes on what it does not tailor, checked with raw JSON-RPC (no SDK types
//! in between) against pinned servers nobody here wrote, npm
//! `@modelcontextprotocol/server-everything`, `server-filesystem` and `server-github`, directly and behind
//! `mcp-tailor proxy`: `initialize`, the listings and calls, byte for byte but for the
//! documented additions; every progress notification, in order, before its result.
//! HTTP upstreams (and the gateway served over HTTP) are in `http.rs`, one that dies or
//! restarts under a session in `restart.rs`. Run with
//! `--ignored`, `MCP_TAILOR_SERVERS` (the npm prefix `.ci/run` installs into) and
//! `MCP_TAILOR_PYTHON` (a Python with the official SDK).

use mcp_tailor_test_support::target;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};

mod http;
mod restart;

/// server-everything over stdio.
fn everything() -> Vec<String> {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    let script = npm.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    vec!["node".to_owned(), script.display().to_string()]
}

/// server-github over stdio: an older SDK's, that speaks 2024-11-05 only (no token: what
/// is compared needs none).
fn github() -> Vec<String> {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    let script = npm.join("node_modules/@modelcontextprotocol/server-github/dist/index.js");
    vec!["node".to_owned(), script.display().to_string()]
}

/// server-filesystem over stdio, in a folder of two files.
fn filesystem() -> Vec<String> {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    let script = npm.join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    let dir = target().join("faithful-files");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "notes\n").unwrap();
    vec![
        "node".to_owned(),
        script.display().to_string(),
        dir.display().to_string(),
    ]
}

/// `command` behind `mcp-tailor proxy` on stdio.
fn proxied(command: &[String]) -> Vec<String> {
    let bin = target().join("debug").join("mcp-tailor");
    assert!(bin.exists(), "run `cargo build -p mcp-tailor-cli` first");
    let mut line = vec![
        bin.display().to_string(),
        "proxy".to_owned(),
        "--".to_owned(),
    ];
    line.extend(command.iter().cloned());
    line
}

/// A JSON-RPC peer on a process's stdin and stdout, one message per line.
struct Raw {
    child: Child,
    stdin: ChildStdin,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Raw {
    /// Starts `command` and completes the `initialize` handshake; returns the peer and the
    /// `initialize` result.
    fn start(command: &[String]) -> (Raw, Value) {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{command:?}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut raw = Raw {
            child,
            stdin,
            lines,
        };
        let init = raw.request(
            0,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw-jsonrpc", "version": "1"}
            }),
        );
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (raw, init)
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> Value {
        let line = self
            .lines
            .next()
            .expect("the peer closed its stdout")
            .unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// Sends a request and returns its result, skipping what comes before it.
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let answer = self.answer(id, method, params);
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{method}: {answer}"))
    }

    /// Sends a request and returns its answer (a result or an error), skipping what comes
    /// before it.
    fn answer(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message["id"] == json!(id) && message.get("method").is_none() {
                return message;
            }
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `calls` calls of the long-running tool (`steps` progress notifications each), `window`
/// in flight at once: for each call, the progress values its client saw before its result.
fn progress_of_calls(command: &[String], calls: u64, steps: u64, window: u64) -> Vec<Vec<Value>> {
    let (mut raw, _) = Raw::start(command);
    let mut seen: HashMap<u64, Vec<Value>> = HashMap::new();
    let mut done: HashMap<u64, Vec<Value>> = HashMap::new();
    let call = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "trigger-long-running-operation",
            "arguments": {"duration": 0, "steps": steps},
            "_meta": {"progressToken": format!("call-{id}")}
        }})
    };
    let mut sent = 0;
    while done.len() < calls as usize {
        while sent < calls && sent - (done.len() as u64) < window {
            sent += 1;
            raw.send(&call(sent));
        }
        let message = raw.next();
        if message["method"] == "notifications/progress" {
            let token = message["params"]["progressToken"]
                .as_str()
                .unwrap_or_default();
            let id: u64 = token.trim_start_matches("call-").parse().unwrap();
            assert!(
                !done.contains_key(&id),
                "progress after its result: {message}"
            );
            seen.entry(id)
                .or_default()
                .push(message["params"]["progress"].clone());
        } else if let Some(id) = message["id"].as_u64() {
            assert!(message.get("result").is_some(), "{message}");
            done.insert(id, seen.remove(&id).unwrap_or_default());
        }
    }
    (1..=calls).map(|id| done.remove(&id).unwrap()).collect()
}

#[test]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
fn every_progress_notification_arrives_in_order_before_its_result() {
    let (calls, steps) = (1_000, 3);
    // As written: server-everything says `"progress":1`, and so does the gateway (rmcp's
    // types alone would say `1.0`).
    let expected: Vec<String> = (1..=steps).map(|i| i.to_string()).collect();
    for (name, command) in [
        ("directly", everything()),
        ("through the gateway", proxied(&everything())),
    ] {
        let progress: Vec<Vec<String>> = progress_of_calls(&command, calls, steps, 8)
            .iter()
            .map(|seen| seen.iter().map(Value::to_string).collect())
            .collect();
        let lost: Vec<usize> = (0..progress.len())
            .filter(|&i| progress[i] != expected)
            .collect();
        assert!(
            lost.is_empty(),
            "{name}: {} of {calls} calls saw other progress than {expected:?}, e.g. call {}: {:?}",
            lost.len(),
            lost[0] + 1,
            progress[lost[0]]
        );
        println!("{name}: {calls} calls, each with its {steps} progress notifications in order");
    }
}

/// An answer's result or error, without the envelope (`jsonrpc`, `id`: the transport's).
fn outcome(mut answer: Value) -> Value {
    match answer.get_mut("result") {
        Some(result) => json!({"result": result.take()}),
        None => json!({"error": answer["error"].take()}),
    }
}

/// What `command` answers to `initialize`, each listing and (with `call`) each of `calls`,
/// as written.
fn answers(command: &[String], call: bool, calls: &[(&str, Value)]) -> Vec<(String, Value)> {
    let (mut raw, init) = Raw::start(command);
    let mut out = vec![("initialize".to_owned(), json!({"result": init}))];
    for (i, method) in [
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    ]
    .into_iter()
    .enumerate()
    {
        out.push((
            method.to_owned(),
            outcome(raw.answer(100 + i as u64, method, json!({}))),
        ));
    }
    for (i, (tool, arguments)) in calls.iter().enumerate().filter(|_| call) {
        let params = json!({"name": tool, "arguments": arguments});
        let answer = outcome(raw.answer(200 + i as u64, "tools/call", params));
        out.push((format!("tools/call {tool}"), answer));
    }
    out
}

/// The gateway's documented additions (`runtime/docs/server.md`, "What the gateway adds")
/// taken out of its `initialize` result: the logging it serves itself, and the
/// `tools.listChanged` it sends when its tailoring file changes.
fn without_additions(mut gateway: Value, direct: &Value) -> Value {
    let capabilities = &mut gateway["result"]["capabilities"];
    if direct["result"]["capabilities"].get("logging").is_none() {
        capabilities
            .as_object_mut()
            .map(|c| c.shift_remove("logging"));
    }
    match direct["result"]["capabilities"]["tools"].get("listChanged") {
        Some(theirs) => capabilities["tools"]["listChanged"] = theirs.clone(),
        None => {
            let tools = capabilities["tools"].as_object_mut();
            tools.map(|t| t.shift_remove("listChanged"));
        }
    }
    gateway
}

#[test]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
fn what_the_gateway_passes_on_is_what_the_upstream_wrote() {
    let calls = [
        ("echo", json!({"message": "hi"})),
        ("get-sum", json!({"a": 1, "b": 2.5})),
        ("get-structured-content", json!({"location": "New York"})),
    ];
    let conformance = target().join("debug/examples/conformance");
    assert!(
        conformance.exists(),
        "run `cargo build -p mcp-tailor --features http --example conformance` first"
    );
    let conformance = vec![conformance.display().to_string()];
    for (name, command) in [
        ("server-everything", everything()),
        ("server-filesystem", filesystem()),
        // Asked for 2025-11-25, it answers 2024-11-05, and so does the gateway for it.
        ("server-github", github()),
        // The MCP conformance suite's reference server, written with this layer on rmcp.
        ("the conformance example", conformance),
    ] {
        let mut direct = answers(&command, name == "server-everything", &calls);
        let mut through = answers(&proxied(&command), name == "server-everything", &calls);
        through[0].1 = without_additions(through[0].1.take(), &direct[0].1);
        assert_eq!(direct.len(), through.len());
        for ((method, theirs), (_, passed_on)) in direct.iter_mut().zip(&mut through) {
            // Byte for byte: the same fields, in the same order, numbers as written.
            assert_eq!(
                theirs.to_string(),
                passed_on.to_string(),
                "{name}: {method} differs through the gateway"
            );
        }
        println!("{name}: initialize, the listings and the calls passed on as written");
    }
}
