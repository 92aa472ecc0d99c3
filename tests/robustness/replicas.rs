//! Replicas behind real nginx: three `replica` server processes (tags `r1` to `r3`, one
//! cursor secret, nginx trusted as their proxy) behind `deploy/nginx/mcp-tailor.conf` as
//! shipped, only its addresses replaced. Stateless (2026-07-28) clients walk paged
//! `tools/list`s across the replicas; session-bound (2025-11-25) clients keep their
//! sessions; stateless tasks are polled through nginx on the replica that runs them; then
//! one replica is killed mid-walk: no walk loses a page, and its session clients get HTTP
//! 404 and recover by starting a new session.

use crate::{Child, check, servers};
use mcp_tailor::server::reason::INVALID_CURSOR;
use mcp_tailor::server::wire::{ENV_CURSOR_SECRET, ENV_REPLICA_TAG, ENV_TRUSTED_PROXIES};
use mcp_tailor::server::{Principal, Reader};
use mcp_tailor_test_support::http::{
    Conn, Reply, initialize, named_headers, stateless_headers, stateless_meta, tasks_meta,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

/// The configuration under test, as shipped.
const SHIPPED: &str = include_str!("../../deploy/nginx/mcp-tailor.conf");

/// The replicas' tags, in the order of the shipped configuration's addresses.
const TAGS: [&str; 3] = ["r1", "r2", "r3"];

/// Stateless walks and session clients in the steady run; walkers in the kill run.
const WALKS: usize = 30;
const SESSIONS: usize = 30;
const WALKERS: usize = 20;
const TASKS: usize = 12;

/// nginx in front of the replicas, in a directory of its own; stopped and removed on drop.
struct Nginx {
    process: tokio::process::Child,
    binary: PathBuf,
    dir: PathBuf,
    addr: SocketAddr,
}

impl Nginx {
    /// Starts nginx with the shipped configuration, its listen address and the replicas'
    /// replaced by a loopback port bound here and by `replicas`. nginx cannot bind port 0
    /// and say which it got, so the socket is bound here and handed to it, as nginx hands
    /// its sockets to a new binary: as a descriptor (its stdin) named in `NGINX`.
    async fn start(binary: PathBuf, replicas: &[SocketAddr]) -> Result<Nginx, String> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let mut site = SHIPPED.to_owned();
        let shipped = [
            "127.0.0.1:8080",
            "127.0.0.1:8081",
            "127.0.0.1:8082",
            "127.0.0.1:8083",
        ];
        let ours: Vec<String> = std::iter::once(addr)
            .chain(replicas.iter().copied())
            .map(|a| a.to_string())
            .collect();
        for (from, to) in shipped.iter().zip(&ours) {
            if !site.contains(from) {
                return Err(format!("the shipped configuration no longer names {from}"));
            }
            site = site.replace(from, to);
        }
        let dir = std::env::temp_dir().join(format!("mcp-tailor-nginx-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let d = dir.display();
        let main = format!(
            "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n    log_format replicas '$http_mcp_session_id|$http_mcp_method|$status|$upstream_addr';\n    \
             access_log {d}/access.log replicas;\n    client_body_temp_path {d}/body;\n    proxy_temp_path {d}/proxy;\n    \
             fastcgi_temp_path {d}/fastcgi;\n    uwsgi_temp_path {d}/uwsgi;\n    scgi_temp_path {d}/scgi;\n    \
             include {d}/mcp-tailor.conf;\n}}\n"
        );
        std::fs::write(dir.join("mcp-tailor.conf"), site).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("nginx.conf"), main).map_err(|e| e.to_string())?;
        let process = tokio::process::Command::new(&binary)
            .args(arguments(&dir))
            .env("NGINX", "0;")
            .stdin(std::os::fd::OwnedFd::from(listener))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("{}: {e}", binary.display()))?;
        let nginx = Nginx {
            process,
            binary,
            dir,
            addr,
        };
        // The socket listens already: nginx has started once it answers on it.
        let answered = async {
            let mut stream = tokio::net::TcpStream::connect(addr).await?;
            stream.write_all(b"GET / HTTP/1.0\r\n\r\n").await?;
            stream.read(&mut [0; 16]).await
        };
        match tokio::time::timeout(Duration::from_secs(10), answered).await {
            Ok(Ok(read)) if read > 0 => Ok(nginx),
            _ => Err(format!("nginx did not start: {}", nginx.error_log())),
        }
    }

    fn error_log(&self) -> String {
        std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default()
    }

    /// The access log's lines: session id, `Mcp-Method`, status, upstream address(es).
    fn access_log(&self) -> Vec<[String; 4]> {
        std::fs::read_to_string(self.dir.join("access.log"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| {
                let mut fields = line.splitn(4, '|').map(str::to_owned);
                Some([
                    fields.next()?,
                    fields.next()?,
                    fields.next()?,
                    fields.next()?,
                ])
            })
            .collect()
    }
}

/// nginx's arguments for a run in `dir`: its prefix, error log and configuration there.
fn arguments(dir: &std::path::Path) -> [String; 6] {
    let d = dir.display();
    [
        "-p".into(),
        format!("{d}/"),
        "-e".into(),
        format!("{d}/error.log"),
        "-c".into(),
        format!("{d}/nginx.conf"),
    ]
}

impl Nginx {
    /// Stops nginx as its manual says (`-s stop`: the master stops its workers, then
    /// itself), and waits for the master to be gone (5 s at most).
    async fn stop(&mut self) {
        let _ = tokio::process::Command::new(&self.binary)
            .args(arguments(&self.dir))
            .args(["-s", "stop"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.process.wait()).await;
    }
}

impl Drop for Nginx {
    /// The last resort, when the run ended before [`stop`](Nginx::stop): the master killed
    /// outright (its workers may outlive it); the folder removed.
    fn drop(&mut self) {
        let _ = self.process.start_kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// nginx: `$NGINX`, else on `PATH`, else Debian's `/usr/sbin/nginx`.
fn find_nginx() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("NGINX") {
        return Some(path.into());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("nginx"))
        .find(|candidate| candidate.is_file())
}

/// A paged `tools/list` walk without a session, a page every `pause`: the tools in order
/// and the number of pages, or the first failure.
async fn walk(addr: SocketAddr, pause: Duration) -> Result<(Vec<Value>, usize), String> {
    let mut conn = Conn::connect(addr).await.map_err(|e| e.to_string())?;
    let (mut tools, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let mut params = json!({"_meta": stateless_meta(None, None)});
        if let Some(cursor) = &cursor {
            params["cursor"] = json!(cursor);
        }
        let list =
            json!({"jsonrpc": "2.0", "id": pages + 1, "method": "tools/list", "params": params});
        let page = pages + 1;
        let reply = conn
            .post(&list, &stateless_headers("tools/list"))
            .await
            .map_err(|e| format!("page {page}: {e}"))?;
        let result = result_of(reply).map_err(|e| format!("page {page}: {e}"))?;
        tools.extend(result["tools"].as_array().cloned().unwrap_or_default());
        pages = page;
        match result["nextCursor"].as_str() {
            Some(next) if pages < 100 => cursor = Some(next.to_owned()),
            Some(_) => return Err("more than 100 pages".into()),
            None => return Ok((tools, pages)),
        }
        // Sleep: a client's pace, `pause` between pages.
        tokio::time::sleep(pause).await;
    }
}

/// The `result` of a reply, or its HTTP status and JSON-RPC error.
fn result_of(reply: Reply) -> Result<Value, String> {
    match reply.message {
        Some(mut message) if message.get("result").is_some() => Ok(message["result"].take()),
        Some(message) => Err(format!("HTTP {}: {}", reply.status, message["error"])),
        None => Err(format!("HTTP {} without a JSON-RPC reply", reply.status)),
    }
}

/// A 2025-11-25 client with a session, through nginx.
struct SessionClient {
    conn: Conn,
    session: String,
    next: u64,
}

impl SessionClient {
    async fn open(addr: SocketAddr) -> Result<SessionClient, String> {
        let mut conn = Conn::connect(addr).await.map_err(|e| e.to_string())?;
        let reply = conn
            .post(&initialize(0, "replicas"), &[])
            .await
            .map_err(|e| e.to_string())?;
        let session = reply.session.clone().ok_or(format!(
            "initialize: HTTP {} without a session",
            reply.status
        ))?;
        let mut client = SessionClient {
            conn,
            session,
            next: 1,
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let headers = client.headers();
        client
            .conn
            .post(&initialized, &headers)
            .await
            .map_err(|e| e.to_string())?;
        Ok(client)
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        vec![
            ("Mcp-Session-Id", self.session.clone()),
            ("MCP-Protocol-Version", "2025-11-25".to_owned()),
        ]
    }

    /// The replica that holds the session, by its tag.
    fn tag(&self) -> &str {
        self.session.split('.').next().unwrap_or_default()
    }

    /// A `tools/list` then a `tools/call` on the session: the HTTP status of the first that
    /// is not 200 (200 when both are), or what failed.
    async fn round(&mut self) -> Result<u16, String> {
        let requests = [
            ("tools/list", json!({})),
            (
                "tools/call",
                json!({"name": "tool_1", "arguments": {"a": "x"}}),
            ),
        ];
        for (method, params) in requests {
            let body =
                json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
            self.next += 1;
            let headers = self.headers();
            let reply = self
                .conn
                .post(&body, &headers)
                .await
                .map_err(|e| e.to_string())?;
            if reply.status != 200 {
                return Ok(reply.status);
            }
            result_of(reply).map_err(|e| format!("{method}: {e}"))?;
        }
        Ok(200)
    }
}

/// A `tools/call` without a session (2026-07-28): whether it got a result.
async fn stateless_call(addr: SocketAddr) -> Result<(), String> {
    let mut conn = Conn::connect(addr).await.map_err(|e| e.to_string())?;
    let mut params = json!({"name": "tool_1", "arguments": {"a": "x"}});
    params["_meta"] = stateless_meta(None, None);
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let headers = named_headers("tools/call", "tool_1");
    result_of(
        conn.post(&call, &headers)
            .await
            .map_err(|e| e.to_string())?,
    )
    .map(drop)
}

/// The tools a stateless client should read: a replica's catalog, every page of it listed
/// in this process.
async fn expected() -> Vec<Value> {
    let server = servers::replica();
    let (mut tools, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let page = server
            .list_tools_as(
                Reader::default(),
                Principal::anonymous(),
                "2026-07-28",
                cursor.as_deref(),
            )
            .await
            .expect("the catalog lists");
        let page = serde_json::to_value(page).unwrap();
        tools.extend(page["tools"].as_array().cloned().unwrap_or_default());
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return tools,
        }
    }
}

/// A stateless request with the tasks extension declared, `method` in `Mcp-Method` and
/// `name` in `Mcp-Name`, from `principal` (`X-Principal`) if given: its result.
async fn with_tasks(
    conn: &mut Conn,
    (id, method, name): (u64, &str, &str),
    mut params: Value,
    principal: Option<&str>,
) -> Result<Value, String> {
    params["_meta"] = tasks_meta();
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    let mut headers = named_headers(method, name);
    headers.extend(principal.map(|p| ("X-Principal", p.to_owned())));
    let reply = conn.post(&body, &headers).await;
    result_of(reply.map_err(|e| e.to_string())?)
}

/// One stateless client's `job` task of `ms` milliseconds, as `principal` if given:
/// started, then polled until it ends; its id, or what went wrong.
pub async fn task_run(
    addr: SocketAddr,
    ms: u64,
    principal: Option<&str>,
) -> Result<String, String> {
    let mut conn = Conn::connect(addr).await.map_err(|e| e.to_string())?;
    let args = json!({"name": "job", "arguments": {"ms": ms}});
    let created = with_tasks(&mut conn, (1, "tools/call", "job"), args, principal).await?;
    let id = created["taskId"]
        .as_str()
        .ok_or(format!("no task: {created}"))?
        .to_owned();
    for poll in 2..200 {
        let get = json!({"taskId": id});
        let task = with_tasks(&mut conn, (poll, "tasks/get", &id), get, principal).await?;
        match task["status"].as_str() {
            // Sleep: a client's pace, polling `tasks/get` as the protocol has it.
            Some("working") => tokio::time::sleep(Duration::from_millis(20)).await,
            Some("completed") if task["result"]["structuredContent"]["slept_ms"] == ms => {
                return Ok(id);
            }
            _ => return Err(format!("task {id}: {task}")),
        }
    }
    Err(format!("task {id} never ended"))
}

/// `count` walks at once, each a page every `pause`: the walks that read every tool in
/// order, the pages read, and the failures (invalid cursors among them).
async fn walks(
    addr: SocketAddr,
    count: usize,
    pause: Duration,
    want: &[Value],
) -> (usize, usize, Vec<String>) {
    let tasks: Vec<_> = (0..count)
        .map(|_| tokio::spawn(walk(addr, pause)))
        .collect();
    let (mut whole, mut pages, mut failures) = (0, 0, Vec::new());
    for task in tasks {
        match task
            .await
            .map_err(|e| e.to_string())
            .and_then(|walked| walked)
        {
            Ok((tools, read)) if tools == want => {
                whole += 1;
                pages += read;
            }
            Ok((tools, _)) => failures.push(format!(
                "a walk read {} tools, not the {} expected",
                tools.len(),
                want.len()
            )),
            Err(error) => failures.push(error),
        }
    }
    (whole, pages, failures)
}

/// The steady run, then the kill. Every check is reported through `check`.
pub async fn run(problems: &mut Vec<String>) {
    let Some(binary) = find_nginx() else {
        check(
            problems,
            false,
            "nginx is installed (apt-get install nginx, or set NGINX)".into(),
        );
        return;
    };
    let secret: String = (0..32)
        .map(|i| format!("{:02x}", (std::process::id() as usize * 31 + i * 97) % 256))
        .collect();
    let mut replicas = Vec::new();
    for tag in TAGS {
        let env = [
            (ENV_REPLICA_TAG, tag.to_owned()),
            (ENV_CURSOR_SECRET, secret.clone()),
            (ENV_TRUSTED_PROXIES, "127.0.0.1".to_owned()),
        ];
        replicas.push(Child::start_with("replica", &env).await);
    }
    let addrs: Vec<SocketAddr> = replicas.iter().map(|r| r.addr).collect();
    let mut nginx = match Nginx::start(binary, &addrs).await {
        Ok(nginx) => nginx,
        Err(error) => {
            check(
                problems,
                false,
                format!("nginx starts with the shipped configuration: {error}"),
            );
            return;
        }
    };
    println!("replicas: nginx at {} in front of {addrs:?}", nginx.addr);
    let want = expected().await;
    steady(&nginx, &want, problems).await;
    kill(&nginx, &mut replicas, &want, problems).await;
    nginx.stop().await;
}

/// Walks and sessions with every replica up.
async fn steady(nginx: &Nginx, want: &[Value], problems: &mut Vec<String>) {
    let started = Instant::now();
    let (whole, pages, failures) = walks(nginx.addr, WALKS, Duration::ZERO, want).await;
    let invalid = failures
        .iter()
        .filter(|f| f.contains(INVALID_CURSOR))
        .count();
    check(
        problems,
        whole == WALKS && invalid == 0,
        format!(
            "{whole}/{WALKS} stateless walks read all {} tools in {pages} pages across the replicas in {:.0?}; {invalid} invalid cursors{}",
            want.len(),
            started.elapsed(),
            failures
                .first()
                .map(|f| format!("; first failure: {f}"))
                .unwrap_or_default()
        ),
    );
    let mut served = BTreeMap::<String, usize>::new();
    for [session, method, status, upstream] in nginx.access_log() {
        if session == "-" && method == "tools/list" && status == "200" {
            *served.entry(upstream).or_default() += 1;
        }
    }
    check(
        problems,
        served.len() == TAGS.len() && served.values().all(|&n| n * 6 >= pages.max(1)),
        format!("every replica served pages of the walks (pages by upstream: {served:?})"),
    );

    let runs: Vec<_> = (0..TASKS)
        .map(|_| tokio::spawn(task_run(nginx.addr, 150, None)))
        .collect();
    let (mut ended, mut by_replica, mut failures) =
        (0, BTreeMap::<String, usize>::new(), Vec::new());
    for run in runs {
        match run.await.map_err(|e| e.to_string()).and_then(|ran| ran) {
            Ok(id) => {
                ended += 1;
                *by_replica
                    .entry(id.split('.').next().unwrap_or_default().to_owned())
                    .or_default() += 1;
            }
            Err(error) => failures.push(error),
        }
    }
    check(
        problems,
        ended == TASKS && by_replica.len() == TAGS.len(),
        format!(
            "{ended}/{TASKS} stateless tasks, each polled through nginx, reached the replica running them to the end (tasks by replica: {by_replica:?}){}",
            failures
                .first()
                .map(|f| format!("; first failure: {f}"))
                .unwrap_or_default()
        ),
    );

    let mut tags = BTreeMap::<String, usize>::new();
    let mut kept = 0;
    for _ in 0..SESSIONS {
        let Ok(mut client) = SessionClient::open(nginx.addr).await else {
            continue;
        };
        *tags.entry(client.tag().to_owned()).or_default() += 1;
        let mut ok = true;
        for _ in 0..5 {
            ok &= client.round().await == Ok(200);
        }
        kept += usize::from(ok);
    }
    check(
        problems,
        kept == SESSIONS && tags.len() == TAGS.len(),
        format!(
            "{kept}/{SESSIONS} session clients kept their sessions over 5 rounds of list and call (sessions by replica: {tags:?})"
        ),
    );
}

/// Replica `r2` is killed while walks are under way and sessions open on every replica.
async fn kill(nginx: &Nginx, replicas: &mut [Child], want: &[Value], problems: &mut Vec<String>) {
    let mut sessions = Vec::new();
    for _ in 0..SESSIONS {
        if let Ok(client) = SessionClient::open(nginx.addr).await {
            sessions.push(client);
        }
    }
    let pause = Duration::from_millis(30);
    let victim = &mut replicas[1];
    let killer = async {
        // Sleep: a fault's moment, 120 ms into the walks.
        tokio::time::sleep(Duration::from_millis(120)).await;
        let _ = victim.process.start_kill();
        let _ = victim.process.wait().await;
        Instant::now()
    };
    let ((whole, pages, failures), killed_at) =
        tokio::join!(walks(nginx.addr, WALKERS, pause, want), killer);
    let retried = nginx
        .access_log()
        .iter()
        .filter(|line| line[3].contains(','))
        .count();
    let errors = nginx.error_log();
    let upstream_errors: Vec<&str> = errors.lines().filter(|l| l.contains("[error]")).collect();
    let refused = upstream_errors
        .iter()
        .filter(|l| l.contains("Connection refused"))
        .count();
    let cut = upstream_errors.len() - refused;
    // The kill fell mid-walk: nginx met the dead replica (a refused or cut connection in its
    // log) and passed that request on. Walks that ended before the kill would prove nothing.
    check(
        problems,
        refused + cut > 0 && retried > 0,
        format!(
            "r2 was hit mid-walk: {refused} refused and {cut} cut connections to it, {retried} requests passed on"
        ),
    );
    check(
        problems,
        whole == WALKERS,
        format!(
            "{whole}/{WALKERS} walks under way when r2 was killed read every page ({pages} pages; nginx sent {retried} requests on to another replica; its log: {refused} connections refused, {cut} cut while in flight){}",
            failures
                .first()
                .map(|f| format!("; first failure: {f}"))
                .unwrap_or_default()
        ),
    );

    let (mut gone, mut recovered, mut kept, mut others) = (0, 0, 0, 0);
    let mut recovery = Vec::new();
    for client in &mut sessions {
        let on_victim = client.tag() == TAGS[1];
        let status = client.round().await;
        if !on_victim {
            others += 1;
            kept += usize::from(status == Ok(200));
            continue;
        }
        gone += usize::from(status == Ok(404));
        let started = Instant::now();
        if let Ok(mut fresh) = SessionClient::open(nginx.addr).await
            && fresh.tag() != TAGS[1]
            && fresh.round().await == Ok(200)
        {
            recovered += 1;
            recovery.push(started.elapsed());
        }
    }
    let victims = sessions.len() - others;
    let slowest = recovery.iter().max().copied().unwrap_or_default();
    check(
        problems,
        victims > 0 && gone == victims && recovered == victims,
        format!(
            "r2's {victims} session clients got HTTP 404 ({gone}) and {recovered} recovered with a new session on another replica (the slowest in {slowest:.1?}; all done {:.1?} after the kill, the walks finishing first)",
            killed_at.elapsed()
        ),
    );
    check(
        problems,
        kept == others,
        format!("{kept}/{others} sessions on r1 and r3 kept"),
    );

    let mut called = 0;
    for _ in 0..30 {
        called += usize::from(stateless_call(nginx.addr).await.is_ok());
    }
    check(
        problems,
        called == 30,
        format!("{called}/30 stateless calls after the kill answered (r2 unreachable: passed on)"),
    );
}
