//! The proxies benchmark (BENCHMARKS.md §9): `mcp-tailor proxy` — with a tailoring file
//! drafted by `mcp-tailor init` for the upstream, in both upstream modes — side by side
//! with the `mcp-proxy` crate (tower-mcp), supergateway, npm `mcp-proxy` and FastMCP's
//! proxy, each in front of the same upstream: npm `server-filesystem` over stdio, and
//! `server-everything` over streamable HTTP, a fresh one for each proxy (also measured
//! directly). One raw HTTP/1.1
//! client (`mcp_tailor_test_support::http`) on loopback reads every proxy the same way; rounds
//! interleave the proxies and the table shows the median over rounds of each figure.
//!
//! ```text
//! cargo build --release -p mcp-tailor-cli
//! bash tests/third_party/install.sh target/mcp-servers target/python-venv/bin/python
//! bash tests/proxies/install.sh target/proxies
//! cargo run --release -p mcp-tailor-tests --bin proxies -- [ROUNDS]
//! ```
//!
//! `PROXIES=NAME[,NAME…]` measures only the proxies whose name holds one of them (e.g.
//! `tailor,crate`); `KINDS=stdio` (or `http`, `rmcp`, `fleet`, `fleet-http`) only in front
//! of that upstream. `rmcp` is rmcp's own streamable HTTP server (the 100-tool catalog of
//! `tests/robustness`, `cargo build --release -p mcp-tailor-tests --bin robustness`): it
//! answers a call in under a millisecond, version header or not, so what a proxy adds shows.
//! In front of an HTTP upstream a bare relay (`relay.rs`, `proxies relay LISTEN URL`) is
//! the floor of a proxy on hyper, and a TCP pump (`proxies pump LISTEN ADDR`) the floor of
//! any proxy. "Call added" is a proxy's call p50 less the upstream's read directly in the
//! same round, the median over rounds.

mod measure;
mod peers;
mod relay;

use mcp_tailor_test_support::process::{bound_by, listening_within};
use measure::{
    Endpoint, Session, call_request, cpu_us, descendants, list_request, quantile, rss_kib,
};
use peers::{Peer, Places, Upstream};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// One proxy's figures in one round.
#[derive(Clone, Debug, Default)]
struct Row {
    /// The round it was measured in.
    round: usize,
    list_p50: f64,
    call_p50: f64,
    call_p99: f64,
    list_rate: f64,
    call_rate: f64,
    /// The proxy's CPU per request (µs), and the upstream's.
    cpu: f64,
    upstream_cpu: f64,
    /// The proxy's CPU per request (µs) under the list load, and under the call load.
    cpu_list: f64,
    cpu_call: f64,
    /// The proxy's resident memory after the load (MiB).
    rss: f64,
    /// Upstream processes with one session, then with 50.
    upstreams_one: usize,
    upstreams_fifty: usize,
    /// The proxy's and its upstreams' resident memory with 50 sessions (MiB).
    rss_fifty: f64,
    /// A new session's first `tools/list` (ms, median of the 50).
    first_list: f64,
    failed: usize,
}

const WARM: usize = 20;
const LISTS: usize = 300;
const CALLS: usize = 1_000;
const RATE_SESSIONS: usize = 4;
const RATE_TIME: Duration = Duration::from_secs(4);
const SESSIONS: usize = 50;

/// The tool an upstream is called with, the first of these it lists: its name ends so (a
/// proxy may prefix it), and its arguments. A fleet with a member over HTTP is called there.
fn cheap_tools(upstream: &Upstream) -> Vec<(&'static str, Value)> {
    let echo = ("echo", json!({"message": "hi"}));
    match upstream {
        Upstream::Http(_) => vec![echo, ("tool_1", json!({"a": "hi", "c": []}))],
        _ if upstream.over_http() => vec![echo],
        _ => vec![("list_allowed_directories", json!({}))],
    }
}

/// Waits for `addr` to accept connections and a session to open (a proxy may connect to
/// its upstream first); the session.
async fn first_session(at: Endpoint) -> Result<Session, String> {
    let opened = mcp_tailor_test_support::eventually(Duration::from_secs(60), || async {
        Session::open(at).await.ok()
    })
    .await;
    match opened {
        Some(session) => Ok(session),
        None => Session::open(at).await,
    }
}

/// Measures `peer` in front of `upstream` (`upstream_pid`: an HTTP upstream's process);
/// `None` when it cannot front it.
async fn measure_peer(
    peer: Peer,
    places: &Places,
    upstream: &Upstream,
    upstream_pid: Option<u32>,
) -> Option<Result<Row, String>> {
    let (addr, pid, _child) = match (peer, upstream) {
        (Peer::Direct | Peer::DirectUnversioned, Upstream::Http(url)) => {
            (peers::socket_of(url)?, None, None)
        }
        _ => {
            let mut command = peer.command(places, upstream)?;
            let child = command.spawn().ok()?;
            let pid = child.id()?;
            let Some(addr) = listening_within(pid, Duration::from_secs(60)).await else {
                return Some(Err(format!("{peer:?} did not listen within 60 s")));
            };
            (addr, Some(pid), Some(child))
        }
    };
    Some(run(peer, addr, pid, upstream, upstream_pid).await)
}

/// The CPU (µs) the upstream has used: an HTTP upstream's process, or the proxy's
/// descendants.
fn upstream_cpu(pid: Option<u32>, upstream_pid: Option<u32>) -> u64 {
    match (upstream_pid, pid) {
        (Some(upstream), _) => cpu_us(upstream),
        (None, Some(pid)) => descendants(pid).into_iter().map(cpu_us).sum(),
        (None, None) => 0,
    }
}

async fn run(
    peer: Peer,
    addr: SocketAddr,
    pid: Option<u32>,
    upstream: &Upstream,
    upstream_pid: Option<u32>,
) -> Result<Row, String> {
    let at = Endpoint {
        addr,
        path: peer.path(),
        versioned: peer != Peer::DirectUnversioned,
    };
    let mut session = first_session(at).await?;
    let names = session.tool_names().await?;
    let (tool, arguments) = cheap_tools(upstream)
        .into_iter()
        .find_map(|(suffix, arguments)| {
            let tool = names.iter().find(|n| n.ends_with(suffix))?;
            Some((tool, arguments))
        })
        .ok_or_else(|| format!("no cheap tool among {names:?}"))?;
    let call = call_request(tool, &arguments);
    let list = list_request();
    let mut row = Row {
        upstreams_one: pid.map_or(0, |p| descendants(p).len()),
        ..Row::default()
    };
    let (proxy_before, upstream_before) = (pid.map_or(0, cpu_us), upstream_cpu(pid, upstream_pid));
    let (mut lists, failed_lists) = measure::sequence(&mut session, &list, WARM, LISTS).await;
    let (mut calls, failed_calls) = measure::sequence(&mut session, &call, WARM, CALLS).await;
    row.list_p50 = quantile(&mut lists, 0.5);
    row.call_p50 = quantile(&mut calls, 0.5);
    row.call_p99 = quantile(&mut calls, 0.99);
    let proxy_cpu = || pid.map_or(0, cpu_us) as f64;
    let before_lists = proxy_cpu();
    let (list_rate, failed_list_rate) = measure::rate(at, RATE_SESSIONS, &list, RATE_TIME).await;
    let before_calls = proxy_cpu();
    let (call_rate, failed_call_rate) = measure::rate(at, RATE_SESSIONS, &call, RATE_TIME).await;
    let per_second = |used: f64, rate: f64| used / (rate * RATE_TIME.as_secs_f64());
    row.cpu_list = per_second(before_calls - before_lists, list_rate);
    row.cpu_call = per_second(proxy_cpu() - before_calls, call_rate);
    row.list_rate = list_rate;
    row.call_rate = call_rate;
    row.failed = failed_lists + failed_calls + failed_list_rate + failed_call_rate;
    let requests =
        (2 * WARM + LISTS + CALLS) as f64 + (list_rate + call_rate) * RATE_TIME.as_secs_f64();
    let proxy_used = pid.map_or(0, cpu_us).saturating_sub(proxy_before);
    let upstream_used = upstream_cpu(pid, upstream_pid).saturating_sub(upstream_before);
    row.cpu = proxy_used as f64 / requests;
    row.upstream_cpu = upstream_used as f64 / requests;
    row.rss = pid.map_or(0, rss_kib) as f64 / 1024.0;
    // Fifty more sessions, each timed to its first listing, all kept open.
    let mut kept = Vec::new();
    let mut firsts = Vec::new();
    for _ in 0..SESSIONS {
        let started = Instant::now();
        let mut session = Session::open(at).await?;
        session.tool_names().await?;
        firsts.push(started.elapsed().as_secs_f64() * 1000.0);
        kept.push(session);
    }
    row.first_list = quantile(&mut firsts, 0.5);
    if let Some(pid) = pid {
        let family = descendants(pid);
        row.upstreams_fifty = family.len();
        let total: u64 = std::iter::once(pid).chain(family).map(rss_kib).sum();
        row.rss_fifty = total as f64 / 1024.0;
    }
    Ok(row)
}

/// The upstream of `kind`: the stdio command, or a fresh server-everything on streamable
/// HTTP with its process.
async fn upstream_of(
    kind: &str,
    places: &Places,
    stdio: &Upstream,
) -> (Upstream, Option<tokio::process::Child>) {
    match kind {
        "stdio" => (stdio.clone(), None),
        "fleet" => (peers::fleet(places, &places.scratch, None), None),
        "fleet-http" => {
            let (url, child) = everything_over_http(places).await;
            (
                peers::fleet(places, &places.scratch, Some(url)),
                Some(child),
            )
        }
        "rmcp" => {
            let (url, child) = rmcp_over_http(places).await;
            (Upstream::Http(url), Some(child))
        }
        _ => {
            let (url, child) = everything_over_http(places).await;
            (Upstream::Http(url), Some(child))
        }
    }
}

/// Starts server-everything on streamable HTTP; its URL and process.
async fn everything_over_http(places: &Places) -> (String, tokio::process::Child) {
    let (_, everything) = peers::servers(places, &places.scratch);
    let mut command = tokio::process::Command::new("node");
    command
        .arg(everything)
        .arg("streamableHttp")
        .env("PORT", "0");
    http_upstream(command).await
}

/// Starts rmcp's own streamable HTTP server (the 100-tool catalog of `tests/robustness`,
/// built beside this binary); its URL and process.
async fn rmcp_over_http(places: &Places) -> (String, tokio::process::Child) {
    let robustness = places.mcp_tailor.with_file_name("robustness");
    assert!(
        robustness.exists(),
        "run `cargo build --release -p mcp-tailor-tests --bin robustness` first"
    );
    let mut command = tokio::process::Command::new(robustness);
    command.args(["serve", "rmcp", "127.0.0.1:0"]);
    http_upstream(command).await
}

/// Runs `command`, an HTTP upstream told port 0, until it listens; its URL and process.
async fn http_upstream(mut command: tokio::process::Command) -> (String, tokio::process::Child) {
    let child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the HTTP upstream starts");
    let addr = bound_by(child.id().expect("running")).await;
    (format!("http://{addr}/mcp"), child)
}

/// `mcp-tailor init` for `upstream`: the tailoring file mcp-tailor serves it with.
fn draft(places: &Places, name: &str, upstream: &Upstream) -> PathBuf {
    let out = places.scratch.join(format!("{name}.toml"));
    let mut command = std::process::Command::new(&places.mcp_tailor);
    command.arg("init").arg("--out").arg(&out);
    match upstream {
        Upstream::Stdio(line) => command.arg("--").args(line),
        Upstream::Http(url) => command.args(["--upstream", url]),
        // A fleet is served with its servers' own words.
        Upstream::Many(_) => return PathBuf::new(),
    };
    let status = command.stderr(std::process::Stdio::null()).status();
    assert!(
        status.is_ok_and(|s| s.success()),
        "mcp-tailor init {name} failed"
    );
    out
}

/// The median of `values`: the middle one, or the mean of the two middle ones.
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(|a, b| a.total_cmp(b));
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// What `rows` add to a call's p50 over the upstream read directly (`direct`), round by
/// round (a busy machine slows both alike): the median of the differences; none without
/// a direct reading.
fn added(rows: &[Row], direct: &[Row]) -> Option<f64> {
    let differences: Vec<f64> = rows
        .iter()
        .filter_map(|row| {
            let direct = direct.iter().find(|d| d.round == row.round)?;
            Some(row.call_p50 - direct.call_p50)
        })
        .collect();
    (!differences.is_empty()).then(|| median(differences.into_iter()))
}

/// The table of one upstream: each peer's medians over the rounds.
fn table(title: &str, rows: &[(Peer, Vec<Row>)]) -> String {
    let direct = rows
        .iter()
        .find(|(peer, _)| *peer == Peer::Direct)
        .map_or(&[][..], |(_, rows)| rows.as_slice());
    let mut out = format!(
        "{title}\n\n| proxy | list p50 | call p50 | call added | call p99 | list req/s | call req/s | CPU µs/req | CPU µs/list, /call under load | upstream CPU µs/req | RSS MiB | upstreams (1 → 50 sessions) | RSS MiB, 50 sessions | new session's first list |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    );
    for (peer, rows) in rows {
        if rows.is_empty() {
            continue;
        }
        let m = |f: fn(&Row) -> f64| median(rows.iter().map(f));
        let failed: usize = rows.iter().map(|r| r.failed).sum();
        let last = rows.last().cloned().unwrap_or_default();
        out.push_str(&format!(
            "| {} | {:.2} | {:.2} | {} | {:.2} | {:.0} | {:.0} | {:.0} | {:.0}, {:.0} | {:.0} | {:.0} | {} → {} | {:.0} | {:.1} ms |{}\n",
            peer.name(),
            m(|r| r.list_p50),
            m(|r| r.call_p50),
            (*peer != Peer::Direct)
                .then(|| added(rows, direct))
                .flatten()
                .map_or_else(String::new, |ms| format!("{ms:+.2}")),
            m(|r| r.call_p99),
            m(|r| r.list_rate),
            m(|r| r.call_rate),
            m(|r| r.cpu),
            m(|r| r.cpu_list),
            m(|r| r.cpu_call),
            m(|r| r.upstream_cpu),
            m(|r| r.rss),
            last.upstreams_one,
            last.upstreams_fifty,
            m(|r| r.rss_fifty),
            m(|r| r.first_list),
            if failed > 0 { format!(" {failed} failed requests") } else { String::new() }
        ));
    }
    out
}

fn places() -> Places {
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace.join("target"), PathBuf::from);
    let scratch = target.join("proxies-bench");
    let _ = std::fs::create_dir_all(&scratch);
    for (file, text) in [("notes.txt", "notes\n"), ("todo.md", "# todo\n")] {
        let _ = std::fs::write(scratch.join(file), text);
    }
    Places {
        proxies: std::env::var_os("MCP_TAILOR_PROXIES")
            .map_or_else(|| target.join("proxies"), PathBuf::from),
        servers: std::env::var_os("MCP_TAILOR_SERVERS")
            .map_or_else(|| target.join("mcp-servers"), PathBuf::from),
        mcp_tailor: target.join("release/mcp-tailor"),
        tailoring: PathBuf::new(),
        scratch,
        workspace,
    }
}

async fn bench(rounds: usize) -> bool {
    let mut places = places();
    assert!(
        places.mcp_tailor.exists(),
        "run `cargo build --release -p mcp-tailor-cli` first"
    );
    let (filesystem, _) = peers::servers(&places, &places.scratch);
    let stdio = Upstream::Stdio(filesystem);
    let mut clean = true;
    let mut tables = Vec::new();
    // `KINDS=stdio` (or `http`, …) measures in front of those upstreams only; `rmcp` and
    // `fleet-http` only when asked.
    let kinds = std::env::var("KINDS").ok();
    for kind in ["stdio", "http", "rmcp", "fleet", "fleet-http"] {
        let asked = match &kinds {
            Some(only) => only.split(',').any(|k| k == kind),
            None => !matches!(kind, "rmcp" | "fleet-http"),
        };
        if !asked {
            continue;
        }
        let mut rows: Vec<(Peer, Vec<Row>)> = Peer::ALL.iter().map(|p| (*p, Vec::new())).collect();
        // The tailoring file mcp-tailor serves each upstream with, drafted from one of its own.
        let (drafted_from, _child) = upstream_of(kind, &places, &stdio).await;
        places.tailoring = draft(&places, kind, &drafted_from);
        for round in 0..rounds {
            // Each round starts with another peer: a machine warming up favours none.
            let n = rows.len();
            for i in 0..n {
                let at = (i + round) % n;
                let peer = rows[at].0;
                // `PROXIES=tailor,crate` measures only the peers whose name holds one.
                if let Ok(only) = std::env::var("PROXIES")
                    && !only.split(',').any(|name| peer.name().contains(name))
                {
                    continue;
                }
                // A fresh HTTP upstream for each peer: server-everything slows down with
                // every session left open in it (from 0.6 to 1.9 ms a call), so a shared
                // one would favour the peers measured first.
                let (upstream, upstream_child) = upstream_of(kind, &places, &stdio).await;
                let upstream_pid = upstream_child.as_ref().and_then(|c| c.id());
                match measure_peer(peer, &places, &upstream, upstream_pid).await {
                    None => {}
                    Some(Ok(row)) => {
                        println!("{kind} round {round}: {}: {row:?}", peer.name());
                        rows[at].1.push(Row { round, ..row });
                    }
                    Some(Err(error)) => {
                        println!("{kind} round {round}: {}: FAILED: {error}", peer.name());
                        clean = false;
                    }
                }
            }
        }
        let title = match kind {
            "stdio" => {
                "**In front of a stdio upstream** (npm `@modelcontextprotocol/server-filesystem` 2026.8.31)"
            }
            "http" => {
                "**In front of a streamable HTTP upstream** (npm `@modelcontextprotocol/server-everything` 2026.8.31, `streamableHttp`)"
            }
            "rmcp" => {
                "**In front of rmcp's own streamable HTTP server** (rmcp 3.11.0, the 100-tool catalog of `tests/robustness`)"
            }
            "fleet-http" => {
                "**In front of three servers at once, one over streamable HTTP** (npm `server-filesystem`, `server-memory` on stdio, `server-everything` 2026.8.31 `streamableHttp`; mcp-tailor `--servers`)"
            }
            _ => {
                "**In front of three stdio servers at once** (npm `server-filesystem`, `server-memory`, `server-everything` 2026.8.31; mcp-tailor `--servers`)"
            }
        };
        tables.push(table(title, &rows));
    }
    for table in tables {
        println!("\n{table}");
    }
    clean
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [floor, listen, upstream] = args.as_slice()
        && (floor == "relay" || floor == "pump")
    {
        let Ok(listen) = listen.parse() else {
            eprintln!("usage: proxies relay LISTEN URL | proxies pump LISTEN ADDR");
            return ExitCode::FAILURE;
        };
        let served = match floor.as_str() {
            "relay" => upstream.parse().ok().map(|url| relay::serve(listen, url)),
            _ => upstream.parse().ok().map(|addr| relay::pump(listen, addr)),
        };
        return match served {
            Some(Ok(())) => ExitCode::SUCCESS,
            Some(Err(error)) => {
                eprintln!("{floor}: {error}");
                ExitCode::FAILURE
            }
            None => {
                eprintln!("usage: proxies relay LISTEN URL | proxies pump LISTEN ADDR");
                ExitCode::FAILURE
            }
        };
    }
    let rounds = args.first().and_then(|r| r.parse().ok()).unwrap_or(2);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    match runtime.block_on(bench(rounds)) {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    }
}
