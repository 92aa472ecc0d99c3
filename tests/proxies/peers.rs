//! How each proxy is started in front of an upstream, listening on a loopback port.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use tokio::process::Command;

/// The upstream a proxy is put in front of.
#[derive(Clone, Debug)]
pub enum Upstream {
    /// A command serving MCP on stdio (its program and arguments).
    Stdio(Vec<String>),
    /// A streamable HTTP endpoint.
    Http(String),
    /// Several servers behind one endpoint, each a name and a stdio command or an HTTP
    /// endpoint.
    Many(Vec<(String, Upstream)>),
}

impl Upstream {
    /// Whether it is, or has a member that is, a streamable HTTP endpoint.
    pub fn over_http(&self) -> bool {
        match self {
            Upstream::Stdio(_) => false,
            Upstream::Http(_) => true,
            Upstream::Many(members) => members.iter().any(|(_, member)| member.over_http()),
        }
    }
}

/// Where things are: the installed proxies and servers, the built command, a scratch
/// folder for configuration files, and the tailoring files `mcp-tailor` serves with.
pub struct Places {
    pub proxies: PathBuf,
    pub servers: PathBuf,
    pub mcp_tailor: PathBuf,
    pub scratch: PathBuf,
    pub workspace: PathBuf,
    /// The tailoring file of the upstream in use.
    pub tailoring: PathBuf,
}

/// A proxy of the benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// `mcp-tailor proxy`, an upstream session per client (its default).
    TailorPerClient,
    /// `mcp-tailor proxy --upstream-sessions shared`.
    TailorShared,
    /// `mcp-tailor proxy --upstream-sessions shared --threads 2`.
    TailorSharedThreads,
    /// The `mcp-proxy` crate (tower-mcp), 0.6.0.
    TowerMcpProxy,
    /// supergateway 4.0.0, stateful streamable HTTP.
    Supergateway,
    /// npm `mcp-proxy` 6.7.19 (punkpeye).
    NpmMcpProxy,
    /// FastMCP 4.2.3's `create_proxy`.
    FastMcp,
    /// A bare HTTP relay on hyper (`relay.rs`): the floor of a proxy over HTTP.
    Relay,
    /// A TCP pump (`relay.rs`): bytes copied, no HTTP read; the floor of any proxy.
    Pump,
    /// No proxy: the HTTP upstream itself.
    Direct,
    /// The HTTP upstream itself, read without `MCP-Protocol-Version` (as the crate reads it).
    DirectUnversioned,
}

impl Peer {
    pub const ALL: [Peer; 11] = [
        Peer::TailorPerClient,
        Peer::TailorShared,
        Peer::TailorSharedThreads,
        Peer::TowerMcpProxy,
        Peer::Supergateway,
        Peer::NpmMcpProxy,
        Peer::FastMcp,
        Peer::Relay,
        Peer::Pump,
        Peer::Direct,
        Peer::DirectUnversioned,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Peer::TailorPerClient => "mcp-tailor (per client)",
            Peer::TailorShared => "mcp-tailor (shared)",
            Peer::TailorSharedThreads => "mcp-tailor (shared, `--threads 2`)",
            Peer::TowerMcpProxy => "`mcp-proxy` crate 0.6.0",
            Peer::Supergateway => "supergateway 4.0.0",
            Peer::NpmMcpProxy => "mcp-proxy (npm) 6.7.19",
            Peer::FastMcp => "FastMCP 4.2.3",
            Peer::Relay => "a bare HTTP relay (hyper 1)",
            Peer::Pump => "a TCP pump (tokio)",
            Peer::Direct => "the upstream directly",
            Peer::DirectUnversioned => "the upstream directly, no `MCP-Protocol-Version`",
        }
    }

    /// The path of its MCP endpoint.
    pub fn path(self) -> &'static str {
        match self {
            Peer::TowerMcpProxy => "/",
            _ => "/mcp",
        }
    }

    /// The command that starts it at a loopback port it binds itself (port 0, read back
    /// from `/proc`) in front of `upstream`; `None` where it cannot front that kind of
    /// upstream (or is no process of its own).
    pub fn command(self, places: &Places, upstream: &Upstream) -> Option<Command> {
        let port = 0;
        let node_bin = |package: &str, script: &str| {
            places
                .proxies
                .join("node/node_modules")
                .join(package)
                .join(script)
        };
        let mut command = match (self, upstream) {
            (Peer::TailorPerClient | Peer::TailorShared | Peer::TailorSharedThreads, _) => {
                let mut command = Command::new(&places.mcp_tailor);
                command.arg("proxy");
                if !matches!(upstream, Upstream::Many(_)) {
                    command.arg("--tailoring").arg(&places.tailoring);
                }
                command.args(["--http", &format!("127.0.0.1:{port}")]);
                if self == Peer::TailorSharedThreads {
                    command.args(["--threads", "2"]);
                }
                if matches!(self, Peer::TailorShared | Peer::TailorSharedThreads) {
                    command.args(["--upstream-sessions", "shared"]);
                }
                match upstream {
                    Upstream::Stdio(line) => command.arg("--").args(line),
                    Upstream::Http(url) => command.args(["--upstream", url]),
                    Upstream::Many(servers) => {
                        command.arg("--servers").arg(servers_file(places, servers)?)
                    }
                };
                command
            }
            (Peer::TowerMcpProxy, _) => {
                let config = places.scratch.join(format!("mcp-proxy-{}.toml", fresh()));
                std::fs::write(&config, tower_config(port, upstream)).ok()?;
                let mut command = Command::new(places.proxies.join("cargo/bin/mcp-proxy"));
                command.arg("--config").arg(config);
                command
            }
            (Peer::Supergateway, Upstream::Stdio(line)) => {
                let mut command = Command::new("node");
                command.arg(node_bin("supergateway", "dist/index.js"));
                command.args(["--stdio", &line.join(" ")]);
                command.args(["--outputTransport", "streamableHttp", "--stateful"]);
                command.args(["--port", &port.to_string(), "--logLevel", "none"]);
                command
            }
            (Peer::NpmMcpProxy, Upstream::Stdio(line)) => {
                let mut command = Command::new("node");
                command.arg(node_bin("mcp-proxy", "dist/bin/mcp-proxy.mjs"));
                command.args(["--port", &port.to_string(), "--host", "127.0.0.1"]);
                command.args(["--server", "stream", "--"]).args(line);
                command
            }
            (Peer::FastMcp, _) => {
                let mut command = Command::new(places.proxies.join("venv/bin/python"));
                command.arg(places.workspace.join("tests/proxies/fastmcp_proxy.py"));
                command.arg(port.to_string());
                match upstream {
                    Upstream::Stdio(line) => command.args(line),
                    Upstream::Http(url) => command.arg(url),
                    Upstream::Many(servers) => {
                        command.arg("--servers").arg(servers_file(places, servers)?)
                    }
                };
                command
            }
            (Peer::Relay, Upstream::Http(url)) => {
                let mut command = Command::new(std::env::current_exe().ok()?);
                command.args(["relay", &format!("127.0.0.1:{port}"), url]);
                command
            }
            (Peer::Pump, Upstream::Http(url)) => {
                let addr = socket_of(url)?.to_string();
                let mut command = Command::new(std::env::current_exe().ok()?);
                command.args(["pump", &format!("127.0.0.1:{port}"), &addr]);
                command
            }
            _ => return None,
        };
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        Some(command)
    }
}

/// The socket address of an `http://ADDR/…` endpoint (the benchmark's upstreams are named
/// by address).
pub fn socket_of(url: &str) -> Option<SocketAddr> {
    let rest = url.strip_prefix("http://")?;
    rest.split('/').next()?.parse().ok()
}

/// The `mcp-proxy` crate's configuration: one backend, `files`, in front of `upstream`
/// (or one per server of a fleet).
fn tower_config(port: u16, upstream: &Upstream) -> String {
    let stdio = |line: &[String]| {
        let args: Vec<String> = line[1..].iter().map(|a| format!("{a:?}")).collect();
        format!(
            "transport = \"stdio\"\ncommand = {:?}\nargs = [{}]\n",
            line[0],
            args.join(", ")
        )
    };
    let backend = |upstream: &Upstream| match upstream {
        Upstream::Stdio(line) => stdio(line),
        Upstream::Http(url) => format!("transport = \"http\"\nurl = {url:?}\n"),
        Upstream::Many(_) => unreachable!("a member is one server"),
    };
    let backends: Vec<(String, String)> = match upstream {
        Upstream::Many(servers) => servers
            .iter()
            .map(|(name, member)| (name.clone(), backend(member)))
            .collect(),
        one => vec![("files".to_owned(), backend(one))],
    };
    let mut config = format!(
        "[proxy]\nname = \"bench\"\n\n[proxy.listen]\nhost = \"127.0.0.1\"\nport = {port}\n"
    );
    for (name, backend) in backends {
        config.push_str(&format!("\n[[backends]]\nname = {name:?}\n{backend}"));
    }
    config
}

/// An `mcpServers` file of `servers` in the scratch folder (`mcp-tailor proxy --servers`,
/// FastMCP's proxy); its path.
fn servers_file(places: &Places, servers: &[(String, Upstream)]) -> Option<PathBuf> {
    let file = places.scratch.join(format!("servers-{}.json", fresh()));
    std::fs::write(&file, servers_json(servers)).ok()?;
    Some(file)
}

/// The `mcpServers` JSON of `servers`.
fn servers_json(servers: &[(String, Upstream)]) -> String {
    let entries: serde_json::Map<String, serde_json::Value> = servers
        .iter()
        .map(|(name, member)| {
            let entry = match member {
                Upstream::Http(url) => serde_json::json!({ "url": url }),
                Upstream::Stdio(line) => serde_json::json!({"command": line[0], "args": line[1..]}),
                Upstream::Many(_) => unreachable!("a member is one server"),
            };
            (name.clone(), entry)
        })
        .collect();
    serde_json::json!({ "mcpServers": entries }).to_string()
}

/// A number no earlier call in this run returned (a scratch file's name).
fn fresh() -> usize {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// npm `server-filesystem` on stdio over `dir`, and the same for `server-everything`.
pub fn servers(places: &Places, dir: &Path) -> (Vec<String>, PathBuf) {
    let package = |name: &str| {
        places
            .servers
            .join("node_modules/@modelcontextprotocol")
            .join(name)
            .join("dist/index.js")
    };
    let filesystem = vec![
        "node".to_owned(),
        package("server-filesystem").display().to_string(),
        dir.display().to_string(),
    ];
    (filesystem, package("server-everything"))
}

/// Three servers behind one endpoint: npm `server-filesystem` over `dir`, `server-memory`
/// (its graph in `dir`) on stdio, and `server-everything` on stdio or, given, at `url`.
pub fn fleet(places: &Places, dir: &Path, url: Option<String>) -> Upstream {
    let (filesystem, everything) = servers(places, dir);
    let memory = places
        .servers
        .join("node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    let node =
        |script: &Path| Upstream::Stdio(vec!["node".to_owned(), script.display().to_string()]);
    let everything = url.map_or_else(|| node(&everything), Upstream::Http);
    Upstream::Many(vec![
        ("files".to_owned(), Upstream::Stdio(filesystem)),
        ("memory".to_owned(), node(&memory)),
        ("everything".to_owned(), everything),
    ])
}
