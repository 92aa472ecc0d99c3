//! The robustness suite: load, abandoned sessions, slow clients, hostile input, host
//! faults and a task flood against a real server process on loopback, with its memory
//! sampled before and after; the load benchmark against plain rmcp; and three replicas
//! behind real nginx. Every loop is bounded in count and time, and every run stops by
//! itself.
//!
//! ```sh
//! cargo run -p mcp-tailor-tests --release --bin robustness -- ci      # < 2 min
//! cargo run -p mcp-tailor-tests --release --bin robustness -- full    # ROBUSTNESS.md
//! cargo run -p mcp-tailor-tests --release --bin robustness -- bench [RUNS]   # against rmcp
//! cargo run -p mcp-tailor-tests --release --bin robustness -- replicas  # behind nginx
//! ```

#![allow(missing_docs, dead_code)] // the generated catalog's argument fields are read only by serde

mod replicas;
mod servers;

use mcp_tailor::server::{Principal, Reader};
use mcp_tailor_test_support::http::{self, Conn, initialize, stateless_headers, stateless_meta};
use mcp_tailor_test_support::process::Announced;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The sizes of one run.
struct Plan {
    clients: usize,
    requests: usize,
    sessions: usize,
    slow: usize,
    faults: usize,
    /// Task-augmented calls from one principal.
    tasks: usize,
}

const CI: Plan = Plan {
    clients: 200,
    requests: 10,
    sessions: 5_000,
    slow: 200,
    faults: 300,
    tasks: 1_000,
};
const FULL: Plan = Plan {
    clients: 400,
    requests: 100,
    sessions: 10_000,
    slow: 1_000,
    faults: 5_000,
    tasks: 5_000,
};

/// A server in a child process of this binary.
struct Child {
    process: tokio::process::Child,
    addr: SocketAddr,
}

impl Child {
    async fn start(kind: &str) -> Child {
        Self::start_with(kind, &[]).await
    }

    /// [`start`](Self::start) with `env` set in the server process.
    async fn start_with(kind: &str, env: &[(&str, String)]) -> Child {
        let mut command = tokio::process::Command::new(std::env::current_exe().unwrap());
        command
            .args(["serve", kind, "127.0.0.1:0"])
            .envs(env.iter().map(|(k, v)| (k, v)));
        let Announced {
            child: process,
            addr,
            ..
        } = Announced::spawn(command, servers::LISTENING_ON).await;
        Child { process, addr }
    }

    /// The server process's resident memory, in MB.
    fn rss_mb(&self) -> f64 {
        let pid = self.process.id().unwrap_or(0);
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|kb| kb.parse::<f64>().ok())
            })
            .map_or(0.0, |kb| kb / 1024.0)
    }

    fn alive(&mut self) -> bool {
        matches!(self.process.try_wait(), Ok(None))
    }
}

/// The tools a reader should read, from an identical server built in this process.
async fn expected(reader: &Reader, protocol: &str) -> Value {
    let server = servers::faulty();
    let result = server
        .list_tools_as(reader.clone(), Principal::anonymous(), protocol, None)
        .await
        .unwrap();
    serde_json::to_value(result).unwrap()["tools"].clone()
}

/// One client's life: a session (2025-11-25) or stateless requests (2026-07-28), listing
/// and calling, every listing checked against the catalog its reader should read.
async fn client_run(addr: SocketAddr, index: usize, requests: usize, tally: Arc<Tally>) {
    let runners = [None, Some("codex"), Some("grok")];
    let runner = runners[index % 3];
    let level = [0u8, 5, 9][(index / 3) % 3];
    let stateless = index.is_multiple_of(2);
    let Ok(mut conn) = Conn::connect(addr).await else {
        tally.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let mut headers = Vec::new();
    let reader = if stateless {
        headers.extend(stateless_headers("tools/list"));
        Reader {
            runner: runner.map(str::to_owned),
            model: None,
            verbosity: Some(level),
        }
    } else {
        let name = runner.unwrap_or("robustness");
        let Ok(reply) = conn.post(&initialize(0, name), &[]).await else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let Some(session) = reply.session else {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            return;
        };
        headers.push(("Mcp-Session-Id", session));
        headers.push(("MCP-Protocol-Version", "2025-11-25".to_owned()));
        let _ = conn
            .post(
                &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                &headers,
            )
            .await;
        Reader {
            runner: Some(name.to_owned()),
            model: None,
            verbosity: Some(level),
        }
    };
    let protocol = if stateless {
        "2026-07-28"
    } else {
        "2025-11-25"
    };
    let want = expected(&reader, protocol).await;
    for i in 0..requests {
        let meta = if stateless {
            stateless_meta(runner, Some(level))
        } else {
            json!({"mcp-tailor.dev/verbosity": level})
        };
        let list = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/list", "params": {"_meta": meta}});
        let started = Instant::now();
        match conn.post(&list, &headers).await {
            Ok(reply) => match reply.message.as_ref().map(|m| &m["result"]["tools"]) {
                Some(tools) if *tools == want => {
                    tally.ok.fetch_add(1, Ordering::Relaxed);
                    tally
                        .latency_us
                        .fetch_add(started.elapsed().as_micros() as usize, Ordering::Relaxed);
                }
                Some(_) => {
                    tally.mismatches.fetch_add(1, Ordering::Relaxed);
                }
                None => {
                    tally.errors.fetch_add(1, Ordering::Relaxed);
                }
            },
            Err(_) => {
                tally.errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    ok: AtomicUsize,
    mismatches: AtomicUsize,
    errors: AtomicUsize,
    latency_us: AtomicUsize,
}

/// The checks that passed, for the closing line.
static PASSED: AtomicUsize = AtomicUsize::new(0);

/// A check: a failed one fails the run.
fn check(problems: &mut Vec<String>, ok: bool, what: String) {
    println!("  {} {what}", if ok { "ok  " } else { "FAIL" });
    if ok {
        PASSED.fetch_add(1, Ordering::Relaxed);
    } else {
        problems.push(what);
    }
}

async fn load(child: &Child, plan: &Plan, problems: &mut Vec<String>) {
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let tasks: Vec<_> = (0..plan.clients)
        .map(|i| tokio::spawn(client_run(child.addr, i, plan.requests, tally.clone())))
        .collect();
    for task in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(120), task).await;
    }
    let ok = tally.ok.load(Ordering::Relaxed);
    let mean = tally.latency_us.load(Ordering::Relaxed) as f64 / ok.max(1) as f64 / 1000.0;
    println!(
        "load: {} clients × {} listings (both eras; no runner, codex, grok; levels 0, 5, 9) in {:.1?}: {ok} matched, mean {mean:.2} ms",
        plan.clients,
        plan.requests,
        started.elapsed()
    );
    check(
        problems,
        ok == plan.clients * plan.requests,
        format!(
            "every listing answered ({ok} of {})",
            plan.clients * plan.requests
        ),
    );
    let wrong = tally.mismatches.load(Ordering::Relaxed);
    check(
        problems,
        wrong == 0,
        format!("no listing differs from its reader's catalog ({wrong})"),
    );
    let errors = tally.errors.load(Ordering::Relaxed);
    check(
        problems,
        errors == 0,
        format!("no transport or protocol errors ({errors})"),
    );
}

/// How many client addresses the abandoned sessions come from.
const FLOOD_ADDRESSES: u8 = 50;

/// A flood of `initialize`s never used again, from many loopback addresses; then a new
/// client must be served at once: a full table makes room from its idle sessions.
async fn abandoned(child: &Child, plan: &Plan, problems: &mut Vec<String>) {
    let before = child.rss_mb();
    let started = Instant::now();
    let (mut opened, mut refused, mut failed) = (0, 0, 0);
    let source = |i: usize| {
        std::net::IpAddr::from([127, 0, 1, 1 + (i % usize::from(FLOOD_ADDRESSES)) as u8])
    };
    let mut conns = Vec::new();
    for i in 0..usize::from(FLOOD_ADDRESSES) {
        conns.push(
            Conn::connect_from(child.addr, Some(source(i)))
                .await
                .unwrap(),
        );
    }
    for i in 0..plan.sessions {
        let slot = i % conns.len();
        match conns[slot]
            .post(&initialize(i as u64, "abandoner"), &[])
            .await
        {
            Ok(reply) if reply.status == 200 => opened += 1,
            Ok(reply) if reply.status == 503 => refused += 1,
            _ => {
                failed += 1;
                conns[slot] = Conn::connect_from(child.addr, Some(source(slot)))
                    .await
                    .unwrap();
            }
        }
    }
    let flooded = started.elapsed();
    let after = child.rss_mb();
    // A new client: initialize, then list on its session.
    let started = Instant::now();
    let mut conn = Conn::connect(child.addr).await.unwrap();
    let init = conn.post(&initialize(1, "newcomer"), &[]).await;
    let session = init.as_ref().ok().and_then(|r| r.session.clone());
    let mut listed = false;
    if let Some(session) = &session {
        let headers = [
            ("Mcp-Session-Id", session.clone()),
            ("MCP-Protocol-Version", "2025-11-25".to_owned()),
        ];
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let _ = conn.post(&initialized, &headers).await;
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
        listed = conn
            .post(&list, &headers)
            .await
            .is_ok_and(|r| r.status == 200 && r.message.is_some_and(|m| m.get("result").is_some()));
    }
    let served = started.elapsed();
    let config = servers::http_config();
    println!(
        "abandoned sessions: {} initializes from {FLOOD_ADDRESSES} addresses, never used again, in {flooded:.1?}: {opened} opened, {refused} refused (503); RSS {before:.1} → {after:.1} MB; then a new client initialized and listed in {served:.1?}",
        plan.sessions,
    );
    check(
        problems,
        failed == 0,
        format!("every initialize answered ({failed} failed)"),
    );
    check(
        problems,
        refused == 0,
        format!(
            "a full table makes room from idle sessions: none refused ({refused}; table {}, {} per address)",
            config.max_sessions, config.max_sessions_per_client
        ),
    );
    check(
        problems,
        listed && served < Duration::from_secs(1),
        format!(
            "a new client is served within a second of the flood ({served:.1?}, listed: {listed})"
        ),
    );
    check(
        problems,
        after < 400.0,
        format!("RSS stays under 400 MB ({after:.1} MB)"),
    );
}

async fn slow_clients(child: &Child, plan: &Plan, problems: &mut Vec<String>) {
    use tokio::io::AsyncWriteExt;
    let mut slow = Vec::new();
    for _ in 0..plan.slow {
        if let Ok(mut stream) = tokio::net::TcpStream::connect(child.addr).await {
            let _ = stream
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Le")
                .await;
            slow.push(stream);
        }
    }
    let started = Instant::now();
    let mut conn = Conn::connect(child.addr).await.unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": stateless_meta(None, None)}});
    let served = conn.post(&list, &stateless_headers("tools/list")).await;
    let waited = started.elapsed();
    println!(
        "slow clients: {} connections trickling headers; a new client served after {waited:.1?}",
        slow.len()
    );
    check(
        problems,
        served.is_ok_and(|r| r.status == 200),
        "a new client is served".into(),
    );
    check(
        problems,
        waited < Duration::from_secs(10),
        format!("within 10 s ({waited:.1?})"),
    );
    drop(slow);
}

/// A thousand half-sent requests from one address, held open while a client at another
/// address times its listings (each on a new connection): the flood's address holds only
/// its share of the connections once the server is busy, so the other is served as usual.
async fn half_open(child: &Child, problems: &mut Vec<String>) {
    use tokio::io::AsyncWriteExt;
    const FLOOD: usize = 1_000;
    const LISTINGS: usize = 100;
    let mut held = Vec::with_capacity(FLOOD);
    for _ in 0..FLOOD {
        if let Ok(mut stream) = tokio::net::TcpStream::connect(child.addr).await {
            let _ = stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n").await;
            held.push(stream);
        }
    }
    let other = std::net::IpAddr::from([127, 0, 4, 1]);
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": stateless_meta(None, None)}});
    let mut times = Vec::new();
    let mut served = 0;
    for _ in 0..LISTINGS {
        let started = Instant::now();
        let reply = match Conn::connect_from(child.addr, Some(other)).await {
            Ok(mut conn) => tokio::time::timeout(
                Duration::from_secs(15),
                conn.post(&list, &stateless_headers("tools/list")),
            )
            .await
            .ok()
            .and_then(Result::ok),
            Err(_) => None,
        };
        if reply.is_some_and(|r| r.status == 200) {
            served += 1;
        }
        times.push(started.elapsed().as_secs_f64() * 1e3);
    }
    let (p50, p99) = percentiles(&mut times);
    println!(
        "half-open flood: {} half-sent requests from one address, held open; another address listed {LISTINGS} times, each on a new connection: p50 {p50:.2} ms, p99 {p99:.2} ms",
        held.len()
    );
    check(
        problems,
        served == LISTINGS,
        format!("every listing of the other address served ({served} of {LISTINGS})"),
    );
    check(
        problems,
        p50 < 50.0,
        format!("its p50 under 50 ms ({p50:.2} ms)"),
    );
    drop(held);
}

/// One principal holds 512 event streams open, from eight addresses (within each address's
/// share of connections): past its share of streams it is refused, and another principal
/// opens a session, its stream, and lists.
async fn streams_of_one_principal(child: &Child, problems: &mut Vec<String>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    const STREAMS: usize = 512;
    /// A session as `principal` from `source`, then its event stream: the stream's status
    /// and the connection holding it.
    async fn stream(
        addr: SocketAddr,
        source: std::net::IpAddr,
        principal: &str,
    ) -> Option<(u16, tokio::net::TcpStream)> {
        let mut conn = Conn::connect_from(addr, Some(source)).await.ok()?;
        let who = ("X-Principal", principal.to_owned());
        let session = conn
            .post(&initialize(1, "streams"), std::slice::from_ref(&who))
            .await
            .ok()?
            .session?;
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        socket.bind(SocketAddr::new(source, 0)).ok()?;
        let mut stream = socket.connect(addr).await.ok()?;
        let request = format!(
            "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nX-Principal: {principal}\r\nMcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut head = [0u8; 12];
        tokio::time::timeout(Duration::from_secs(10), stream.read_exact(&mut head))
            .await
            .ok()?
            .ok()?;
        let status = std::str::from_utf8(&head[9..12]).ok()?.parse().ok()?;
        Some((status, stream))
    }
    let mut held = Vec::new();
    let (mut open, mut refused, mut failed) = (0, 0, 0);
    for i in 0..STREAMS {
        let source = std::net::IpAddr::from([127, 0, 5, 1 + (i % 8) as u8]);
        match stream(child.addr, source, "hog").await {
            Some((200, stream)) => {
                open += 1;
                held.push(stream);
            }
            Some((429, _)) => refused += 1,
            _ => failed += 1,
        }
    }
    let started = Instant::now();
    let other = stream(child.addr, std::net::IpAddr::from([127, 0, 6, 1]), "other").await;
    let waited = started.elapsed();
    let config = servers::http_config();
    println!(
        "event streams: one principal asked for {STREAMS} from 8 addresses: {open} open, {refused} refused (429), {failed} failed; another principal's stream opened in {waited:.1?}"
    );
    check(
        problems,
        open == config.max_streams_per_principal && refused == STREAMS - open,
        format!(
            "the principal holds its share ({open} of {}), the rest refused ({refused})",
            config.max_streams_per_principal
        ),
    );
    check(
        problems,
        other.is_some_and(|(status, _)| status == 200),
        "another principal is served while they stay open".into(),
    );
    drop(held);
}

async fn hostile_input(child: &Child, problems: &mut Vec<String>) {
    let mut conn = Conn::connect(child.addr).await.unwrap();
    let headers = stateless_headers("tools/list");
    // Oversized: a 5 MB body.
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": stateless_meta(None, None), "pad": "x".repeat(5 << 20)}});
    let oversized = conn.post(&big, &headers).await;
    check(
        problems,
        oversized.as_ref().is_ok_and(|r| r.status == 413),
        format!("a 5 MB body is 413 ({:?})", oversized.map(|r| r.status)),
    );
    // Nested deeper than any JSON parser here recurses.
    let mut conn = Conn::connect(child.addr).await.unwrap();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let raw = Value::String(deep);
    let nested = conn.post_raw(raw.as_str().unwrap(), &headers).await;
    check(
        problems,
        nested.as_ref().is_ok_and(|r| r.status == 400),
        format!(
            "JSON nested 100,000 deep is 400 ({:?})",
            nested.map(|r| r.status)
        ),
    );
    // A `_meta` of 100,000 keys, and a tool name of 1 MB.
    let mut conn = Conn::connect(child.addr).await.unwrap();
    let mut meta = stateless_meta(None, None);
    for i in 0..100_000 {
        meta[format!("com.example/k{i}")] = json!(i);
    }
    let wide = conn
        .post(
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}),
            &headers,
        )
        .await;
    check(
        problems,
        wide.as_ref().is_ok_and(|r| r.status == 200),
        "a 100,000-key `_meta` is served".into(),
    );
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"_meta": stateless_meta(None, None), "name": "n".repeat(1 << 20), "arguments": {}}});
    let named = conn.post(&call, &stateless_headers("tools/call")).await;
    let echoed = named
        .as_ref()
        .ok()
        .and_then(|r| r.message.as_ref())
        .map_or(usize::MAX, |m| m.to_string().len());
    check(
        problems,
        echoed < 2_000,
        format!("a 1 MB tool name is echoed bounded ({echoed} bytes)"),
    );
}

/// How `n` listings by `principal` came out: whole, with `find` hidden, a controlled
/// failure, or wrong (a partial catalog, a leaked cause, a dropped connection).
#[derive(Default)]
struct Outcomes {
    whole: usize,
    hidden: usize,
    controlled: usize,
    wrong: usize,
}

async fn listings_by(addr: SocketAddr, principal: &str, n: usize) -> Outcomes {
    let want = expected(&Reader::default(), "2026-07-28").await;
    // A failed `authorize` hides `find`: the rest of the catalog, whole.
    let mut hidden = want.clone();
    if let Some(tools) = hidden.as_array_mut() {
        tools.retain(|t| t["name"] != "find");
    }
    let mut out = Outcomes::default();
    let mut conn = Conn::connect(addr).await.unwrap();
    let mut headers = stateless_headers("tools/list");
    headers.push(("X-Principal", principal.to_owned()));
    for i in 0..n {
        let list = json!({"jsonrpc": "2.0", "id": i, "method": "tools/list", "params": {"_meta": stateless_meta(None, None)}});
        let Ok(reply) = conn.post(&list, &headers).await else {
            out.wrong += 1;
            conn = Conn::connect(addr).await.unwrap();
            continue;
        };
        let message = reply.message.unwrap_or_default();
        let text = message.to_string();
        let tools = &message["result"]["tools"];
        if *tools == want {
            out.whole += 1;
        } else if *tools == hidden {
            out.hidden += 1;
        } else if message["error"]["data"]["reason"] == "tool_presentation_failure"
            && !text.contains("boom")
        {
            out.controlled += 1;
        } else {
            if out.wrong < 3 {
                println!("  unexpected: {}", &text[..text.len().min(300)]);
            }
            out.wrong += 1;
        }
    }
    out
}

async fn faults(child: &Child, plan: &Plan, problems: &mut Vec<String>) {
    // Every host callback faulty at random: presentation (errors, panics, stalls, 100,000
    // deep output, forbidden keys) and `authorize` (panics).
    let all = listings_by(child.addr, "fault", plan.faults).await;
    // `authorize` alone: its panics hide `find`, and presentation never masks them.
    let authorize = listings_by(child.addr, "fault-authorize", 200).await;
    println!(
        "host faults: {} listings by a principal whose callbacks fail, panic, stall or nest 100,000 deep: {} whole catalogs, {} controlled failures, {} with `find` hidden; 200 by one whose `authorize` alone panics: {} whole, {} with `find` hidden",
        plan.faults, all.whole, all.controlled, all.hidden, authorize.whole, authorize.hidden
    );
    let wrong = all.wrong + authorize.wrong + authorize.controlled;
    check(
        problems,
        wrong == 0,
        format!("no partial catalog, leaked cause or dropped connection ({wrong})"),
    );
    // The faults happened: a run where injection stopped working would see only whole
    // catalogs, and prove nothing.
    check(
        problems,
        all.controlled > 0 && authorize.hidden > 0 && authorize.whole > 0,
        format!(
            "the injected faults took effect: {} presentation failures, {} listings with `find` hidden by a panicking authorize",
            all.controlled, authorize.hidden
        ),
    );
}

async fn suite(plan: &Plan) -> Vec<String> {
    let mut problems = Vec::new();
    let mut child = Child::start("faulty").await;
    println!("server RSS at start: {:.1} MB", child.rss_mb());
    load(&child, plan, &mut problems).await;
    println!("  RSS {:.1} MB", child.rss_mb());
    faults(&child, plan, &mut problems).await;
    hostile_input(&child, &mut problems).await;
    slow_clients(&child, plan, &mut problems).await;
    half_open(&child, &mut problems).await;
    streams_of_one_principal(&child, &mut problems).await;
    abandoned(&child, plan, &mut problems).await;
    task_flood(&child, plan, &mut problems).await;
    let alive = child.alive();
    check(
        &mut problems,
        alive,
        "the server process is still running".into(),
    );
    problems
}

/// One principal starts `plan.tasks` ten-minute tasks over 10 connections: it may run the
/// server's share (100) and no more, each one past it refused before its handler runs;
/// another principal's task is still started and polled to its end.
async fn task_flood(child: &Child, plan: &Plan, problems: &mut Vec<String>) {
    let before = child.rss_mb();
    let started = Instant::now();
    let start = |principal: &'static str, ms: u64, count: usize| {
        let addr = child.addr;
        tokio::spawn(async move {
            let mut tally = (Vec::new(), 0, 0); // (task ids, refused, other)
            let Ok(mut conn) = Conn::connect(addr).await else {
                tally.2 += count;
                return tally;
            };
            let mut headers = http::named_headers("tools/call", "job");
            headers.push(("X-Principal", principal.to_owned()));
            for i in 0..count {
                let params =
                    json!({"name": "job", "arguments": {"ms": ms}, "_meta": http::tasks_meta()});
                let call =
                    json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params});
                let message = conn
                    .post(&call, &headers)
                    .await
                    .ok()
                    .and_then(|r| r.message);
                let message = message.unwrap_or_default();
                match (
                    message["result"]["taskId"].as_str(),
                    message["error"]["data"]["reason"].as_str(),
                ) {
                    (Some(id), _) => tally.0.push(id.to_owned()),
                    (None, Some(mcp_tailor::server::reason::TOO_MANY_TASKS)) => tally.1 += 1,
                    _ => tally.2 += 1,
                }
            }
            tally
        })
    };
    let floods: Vec<_> = (0..10)
        .map(|_| start("flooder", 600_000, plan.tasks / 10))
        .collect();
    let (mut created, mut refused, mut other) = (0, 0, 0);
    for flood in floods {
        let (ids, no, failed) = flood.await.unwrap_or_default();
        (created, refused, other) = (created + ids.len(), refused + no, other + failed);
    }
    let elapsed = started.elapsed();
    // Another principal: one task, polled to its end.
    let ended = replicas::task_run(child.addr, 50, Some("bystander"))
        .await
        .is_ok();
    println!(
        "task flood: {} task calls from one principal in {elapsed:.1?}: {created} tasks, {refused} refused (too_many_tasks), {other} other; RSS {before:.1} → {:.1} MB; another principal's task ended: {ended}",
        plan.tasks,
        child.rss_mb()
    );
    check(
        problems,
        created == 100 && refused == plan.tasks - 100 && other == 0,
        format!(
            "one principal runs its share of tasks and no more ({created} started, {refused} refused, {other} other)"
        ),
    );
    check(
        problems,
        ended,
        "another principal's task still starts and ends".into(),
    );
}

/// The benchmark's request: one `tools/list`, always the same (so is every right answer).
fn bench_list() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": stateless_meta(Some("codex"), None)}})
}

/// The JSON-RPC message of a reply body: from its first `{` to its last `}` (a JSON body,
/// or one event of a stream).
fn message_of(body: &[u8]) -> &[u8] {
    let start = body.iter().position(|b| *b == b'{').unwrap_or(0);
    let end = body.iter().rposition(|b| *b == b'}').map_or(0, |e| e + 1);
    body.get(start..end).unwrap_or_default()
}

/// What every benchmark reply from `addr` must be, byte for byte: the first answer,
/// checked once to be a whole listing of at least `tools` tools.
async fn reference_reply(addr: SocketAddr, tools: usize) -> Arc<Vec<u8>> {
    let mut conn = Conn::connect(addr).await.unwrap();
    let (status, body) = conn
        .post_unparsed(&bench_list(), &stateless_headers("tools/list"))
        .await
        .unwrap();
    let message = message_of(&body).to_vec();
    let parsed: Value = serde_json::from_slice(&message).unwrap_or_default();
    let listed = parsed["result"]["tools"].as_array().map_or(0, Vec::len);
    assert!(
        status == 200 && listed >= tools,
        "{addr}: the reference reply is not a whole listing ({status}, {listed} tools)"
    );
    Arc::new(message)
}

/// Whether one reply is right: HTTP 200 and the reference message.
fn is_right(reply: std::io::Result<(u16, Vec<u8>)>, want: &[u8]) -> bool {
    reply.is_ok_and(|(status, body)| status == 200 && message_of(&body) == want)
}

/// The latencies (ms) of the right replies among `n` sequential `tools/list` on one
/// keep-alive connection, and how many were wrong (an error, another status or body).
async fn one_connection(addr: SocketAddr, n: usize, want: &[u8]) -> (Vec<f64>, usize) {
    let mut conn = Conn::connect(addr).await.unwrap();
    let headers = stateless_headers("tools/list");
    let list = bench_list();
    let (mut times, mut failed) = (Vec::with_capacity(n), 0);
    for _ in 0..n {
        let started = Instant::now();
        let reply = conn.post_unparsed(&list, &headers).await;
        let ok = is_right(reply, want);
        if ok {
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        } else {
            failed += 1;
            conn = Conn::connect(addr).await.unwrap();
        }
    }
    (times, failed)
}

/// The median and the 99th percentile of `times` (ms), sorted in place.
fn percentiles(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(|a, b| a.total_cmp(b));
    let n = times.len();
    if n == 0 {
        return (f64::NAN, f64::NAN);
    }
    (times[n / 2], times[n * 99 / 100])
}

/// Right `tools/list` replies per second over `connections` keep-alive connections for
/// `duration`, the p50 and p99 of their latency (ms), and how many replies were wrong.
async fn many_connections(
    addr: SocketAddr,
    connections: usize,
    duration: Duration,
    want: &Arc<Vec<u8>>,
) -> (f64, f64, f64, usize) {
    let until = Instant::now() + duration;
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let want = Arc::clone(want);
            tokio::spawn(async move {
                let mut conn = Conn::connect(addr).await.unwrap();
                let headers = stateless_headers("tools/list");
                let list = bench_list();
                let (mut times, mut failed) = (Vec::new(), 0);
                while Instant::now() < until {
                    let started = Instant::now();
                    if is_right(conn.post_unparsed(&list, &headers).await, &want) {
                        times.push(started.elapsed().as_secs_f64() * 1000.0);
                    } else {
                        failed += 1;
                        if let Ok(fresh) = Conn::connect(addr).await {
                            conn = fresh;
                        }
                    }
                }
                (times, failed)
            })
        })
        .collect();
    let (mut times, mut failed) = (Vec::new(), 0);
    for task in tasks {
        let (some, wrong) = task.await.unwrap_or_default();
        times.extend(some);
        failed += wrong;
    }
    let rate = times.len() as f64 / duration.as_secs_f64();
    let (p50, p99) = percentiles(&mut times);
    (rate, p50, p99, failed)
}

/// One server's row: p50 and p99 on one connection, then the rate, p50 and p99 over 200
/// connections; and its wrong replies.
async fn measure(addr: SocketAddr) -> ([f64; 5], usize) {
    let want = reference_reply(addr, 100).await;
    let _ = one_connection(addr, 200, &want).await; // warm up
    let (mut times, failed_one) = one_connection(addr, 2_000, &want).await;
    let (p50, p99) = percentiles(&mut times);
    let (rate, p50_many, p99_many, failed_many) =
        many_connections(addr, 200, Duration::from_secs(10), &want).await;
    (
        [p50, p99, rate, p50_many, p99_many],
        failed_one + failed_many,
    )
}

/// Run `run` of both servers, measured one after the other, the first one alternating
/// between runs (a machine warming up, or a neighbour's load, favours neither); the rows
/// and the wrong replies.
async fn bench_run(run: usize) -> ([[f64; 5]; 2], usize) {
    let mut rows = [[0.0; 5]; 2];
    let mut failed = 0;
    let kinds = ["tailor", "rmcp"];
    let order = if run % 2 == 1 { [0, 1] } else { [1, 0] };
    for i in order {
        let child = Child::start(kinds[i]).await;
        let (row, wrong) = measure(child.addr).await;
        let [p50, p99, rate, p50_many, p99_many] = row;
        println!(
            "  {:<6} one connection: p50 {p50:.3} ms, p99 {p99:.3} ms; 200 connections: {rate:.0} req/s, p50 {p50_many:.1} ms, p99 {p99_many:.1} ms; {wrong} wrong replies",
            kinds[i]
        );
        rows[i] = row;
        failed += wrong;
    }
    (rows, failed)
}

/// `runs` runs of [`bench_run`], each printed, then the spread of each ratio; `false` when
/// any reply was wrong (its ratios would compare unlike work).
async fn bench(runs: usize) -> bool {
    println!(
        "the 100-tool benchmark catalog over streamable HTTP (2026-07-28, tools/list, TCP_NODELAY on both; every reply checked)"
    );
    let names = [
        "p50, one connection",
        "p99, one connection",
        "throughput, 200 connections",
        "p50, 200 connections",
        "p99, 200 connections",
    ];
    let mut ratios = vec![Vec::new(); names.len()];
    let mut failed = 0;
    for run in 1..=runs {
        println!("run {run} of {runs}");
        let ([ours, theirs], wrong) = bench_run(run).await;
        failed += wrong;
        let line: Vec<String> = (0..names.len())
            .map(|i| {
                let ratio = ours[i] / theirs[i];
                ratios[i].push(ratio);
                format!("{} {ratio:.2}×", names[i])
            })
            .collect();
        println!("  mcp-tailor / rmcp: {}", line.join(", "));
    }
    print_spread(
        &format!("mcp-tailor / rmcp over {runs} runs"),
        &names,
        ratios,
    );
    println!("wrong replies over every run: {failed}");
    failed == 0
}

/// Each named ratio's spread over the runs: `title (min – max):`, then a line per ratio.
fn print_spread(title: &str, names: &[&str], ratios: Vec<Vec<f64>>) {
    println!("{title} (min – max):");
    for (name, mut values) in names.iter().zip(ratios) {
        values.sort_by(|a, b| a.total_cmp(b));
        println!(
            "  {name:<28} {:.2}× – {:.2}×",
            values[0],
            values[values.len() - 1]
        );
    }
}

/// `tools/list` through the gateway against the upstream directly: the plain-rmcp
/// benchmark catalog upstream, the gateway (tailoring it with the same wording the
/// mcp-tailor catalog declares) in front of it, each its own process; `runs` runs, each
/// measuring both side by side, then the spread of each ratio; `false` when any reply was
/// wrong.
async fn gateway_bench(runs: usize) -> bool {
    println!(
        "tools/list through the gateway / the upstream directly (the 100-tool catalog, 2026-07-28, HTTP)"
    );
    let names = [
        "p50, one connection",
        "p99, one connection",
        "throughput, 200 connections",
    ];
    let mut ratios = vec![Vec::new(); names.len()];
    let mut added = Vec::new();
    let mut failed = 0;
    for run in 1..=runs {
        let upstream = Child::start("rmcp").await;
        let url = format!("http://{}/mcp", upstream.addr);
        let gateway = Child::start_with("gateway", &[(servers::ENV_UPSTREAM, url)]).await;
        let mut rows = [[0.0; 3]; 2];
        let kinds = [("upstream", upstream.addr), ("gateway", gateway.addr)];
        // The first measured alternates between runs.
        let order = if run % 2 == 1 { [0, 1] } else { [1, 0] };
        for i in order {
            let (kind, addr) = kinds[i];
            let ([p50, p99, rate, _, _], wrong) = measure(addr).await;
            failed += wrong;
            println!(
                "  run {run}: {kind:<8} one connection: p50 {p50:.3} ms, p99 {p99:.3} ms; 200 connections: {rate:.0} req/s; {wrong} wrong replies"
            );
            rows[i] = [p50, p99, rate];
        }
        added.push(rows[1][0] - rows[0][0]);
        for (i, values) in ratios.iter_mut().enumerate() {
            values.push(rows[1][i] / rows[0][i]);
        }
    }
    print_spread(
        &format!("gateway / upstream over {runs} runs"),
        &names,
        ratios,
    );
    added.sort_by(|a, b| a.total_cmp(b));
    println!(
        "  p50 added by the gateway    {:.3} ms – {:.3} ms",
        added[0],
        added[added.len() - 1]
    );
    println!("wrong replies over every run: {failed}");
    failed == 0
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    match args.first().map(String::as_str) {
        Some("serve") => {
            // The faults are on purpose and the server catches them: keep them off stderr.
            std::panic::set_hook(Box::new(|_| {}));
            let addr = args[2].parse().expect("an address");
            runtime.block_on(servers::serve(&args[1], addr));
            ExitCode::SUCCESS
        }
        Some("bench") => {
            let runs = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
            if runtime.block_on(bench(runs)) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some("gateway") => {
            let runs = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
            if runtime.block_on(gateway_bench(runs)) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(run @ ("ci" | "full" | "replicas")) => {
            let started = Instant::now();
            let problems = runtime.block_on(async {
                match run {
                    "ci" => suite(&CI).await,
                    "full" => suite(&FULL).await,
                    _ => {
                        let mut problems = Vec::new();
                        replicas::run(&mut problems).await;
                        problems
                    }
                }
            });
            println!("robustness ({run}) took {:.1?}", started.elapsed());
            println!(
                "robustness: {} passed, {} failed",
                PASSED.load(Ordering::Relaxed),
                problems.len()
            );
            if problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!("usage: robustness ci | full | bench [RUNS] | gateway [RUNS] | replicas");
            ExitCode::from(2)
        }
    }
}
