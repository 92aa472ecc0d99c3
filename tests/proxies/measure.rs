//! What is measured of one proxy: sessions opened and read by the raw client, latencies in
//! sequence, throughput over a few sessions at once, and the processes' CPU and memory as
//! Linux counts them (`/proc`).

use mcp_tailor_test_support::http::Conn;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Where sessions are opened: an address, the MCP path there, and whether requests after
/// `initialize` carry `MCP-Protocol-Version` (as the specification asks; the `mcp-proxy`
/// crate's do not, and an upstream may then answer as to an older client).
#[derive(Clone, Copy)]
pub struct Endpoint {
    pub addr: SocketAddr,
    pub path: &'static str,
    pub versioned: bool,
}

/// One MCP session (2025-11-25, streamable HTTP) on a keep-alive connection of its own.
pub struct Session {
    conn: Conn,
    headers: Vec<(&'static str, String)>,
}

impl Session {
    /// `initialize` and `notifications/initialized`.
    pub async fn open(at: Endpoint) -> Result<Session, String> {
        let conn = Conn::connect(at.addr).await.map_err(|e| e.to_string())?;
        let mut conn = conn.at(at.path);
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "proxies-bench", "version": "1"}}});
        let reply = conn.post(&init, &[]).await.map_err(|e| e.to_string())?;
        if reply.status != 200 || reply.message.is_none() {
            return Err(format!("initialize: HTTP {}", reply.status));
        }
        let mut headers = Vec::new();
        if at.versioned {
            headers.push(("MCP-Protocol-Version", "2025-11-25".to_owned()));
        }
        if let Some(session) = reply.session {
            headers.push(("Mcp-Session-Id", session));
        }
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let done = conn.post(&initialized, &headers).await;
        let status = done.map_err(|e| e.to_string())?.status;
        if !(200..300).contains(&status) {
            return Err(format!("notifications/initialized: HTTP {status}"));
        }
        Ok(Session { conn, headers })
    }

    /// `tools/list`, parsed: the tools' names.
    pub async fn tool_names(&mut self) -> Result<Vec<String>, String> {
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        let reply = self.conn.post(&list, &self.headers).await;
        let message = reply.map_err(|e| e.to_string())?.message;
        let tools = message
            .as_ref()
            .and_then(|m| m["result"]["tools"].as_array());
        let tools = tools.ok_or_else(|| format!("tools/list: {message:?}"))?;
        Ok(tools
            .iter()
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect())
    }

    /// Sends `request` and reads the whole answer unparsed; whether it is a result.
    pub async fn send(&mut self, request: &Value) -> bool {
        match self.conn.post_unparsed(request, &self.headers).await {
            Ok((200, body)) => contains(&body, b"\"result\""),
            _ => false,
        }
    }
}

fn contains(body: &[u8], needle: &[u8]) -> bool {
    body.windows(needle.len()).any(|w| w == needle)
}

/// The request a run times: `tools/list`, or `tools/call` of `tool` with `arguments`.
pub fn list_request() -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
}

pub fn call_request(tool: &str, arguments: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
}

/// The latencies (ms) of `n` sequential `request`s after `warm` unrecorded; how many failed.
pub async fn sequence(
    session: &mut Session,
    request: &Value,
    warm: usize,
    n: usize,
) -> (Vec<f64>, usize) {
    let (mut times, mut failed) = (Vec::with_capacity(n), 0);
    for i in 0..warm + n {
        let started = Instant::now();
        let ok = session.send(request).await;
        if i >= warm {
            match ok {
                true => times.push(started.elapsed().as_secs_f64() * 1000.0),
                false => failed += 1,
            }
        }
    }
    (times, failed)
}

/// Results per second of `request` over `sessions` sessions sending at once for
/// `duration`; how many failed.
pub async fn rate(
    at: Endpoint,
    sessions: usize,
    request: &Value,
    duration: Duration,
) -> (f64, usize) {
    let mut opened = Vec::new();
    for _ in 0..sessions {
        match Session::open(at).await {
            Ok(session) => opened.push(session),
            Err(_) => return (0.0, 1),
        }
    }
    let until = Instant::now() + duration;
    let tasks: Vec<_> = opened
        .into_iter()
        .map(|mut session| {
            let request = request.clone();
            tokio::spawn(async move {
                let (mut done, mut failed) = (0usize, 0usize);
                while Instant::now() < until {
                    match session.send(&request).await {
                        true => done += 1,
                        false => failed += 1,
                    }
                }
                (done, failed)
            })
        })
        .collect();
    let (mut done, mut failed) = (0, 0);
    for task in tasks {
        let (d, f) = task.await.unwrap_or((0, 1));
        done += d;
        failed += f;
    }
    (done as f64 / duration.as_secs_f64(), failed)
}

/// The `q` quantile of `times` (sorted in place).
pub fn quantile(times: &mut [f64], q: f64) -> f64 {
    times.sort_by(|a, b| a.total_cmp(b));
    match times.len() {
        0 => f64::NAN,
        n => times[((n as f64 * q) as usize).min(n - 1)],
    }
}

/// The CPU time (µs) process `pid` has used, user and system (clock ticks of 10 ms).
pub fn cpu_us(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // After `)`: state is field 0, utime 11 and stime 12 (fields 14 and 15 of stat(5)).
    (ticks(11) + ticks(12)) * 10_000
}

/// The resident memory (KiB) of process `pid`.
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Every live descendant of `pid`.
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.first() == Some(&"Z") {
            continue;
        }
        if let Some(parent) = fields.get(1).and_then(|p| p.parse().ok()) {
            parents.push((child, parent));
        }
    }
    let mut found = vec![pid];
    let mut at = 0;
    while at < found.len() {
        let parent = found[at];
        found.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        at += 1;
    }
    found.remove(0);
    found
}
