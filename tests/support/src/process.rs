//! Processes that serve at a loopback port they chose themselves (port 0), and how a test
//! learns which: from the line the process writes once it listens ([`Announced`]), or, for
//! a server nobody here wrote, from the system's own table of listening sockets
//! ([`bound_by`]). Never a port picked, let go and handed over: another process may take
//! it in between.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::AsyncBufReadExt as _;
use tokio::process::{Child, Command};
use tokio::sync::mpsc;

/// How long a process may take to say where it listens.
const START: Duration = Duration::from_secs(30);

/// A process that said on stderr where it listens: a line holding `OPENING` followed by
/// the address (`mcp-tailor proxy on http://ADDR/mcp`). Its stderr is read here, line by
/// line, for the test to look through; it is killed when dropped.
pub struct Announced {
    /// The process.
    pub child: Child,
    /// The address its line named.
    pub addr: SocketAddr,
    /// What it said up to that line, and after it as read so far.
    early: VecDeque<String>,
    lines: mpsc::UnboundedReceiver<String>,
}

/// The address `line` names after `opening` (up to a `/`, a quote or a space).
pub fn named(line: &str, opening: &str) -> Option<SocketAddr> {
    let (_, rest) = line.split_once(opening)?;
    let end = rest
        .find(|c: char| c == '/' || c == '"' || c.is_whitespace())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

impl Announced {
    /// Spawns `command` (its stderr piped here) and waits until it writes a line naming
    /// an address after `opening`; a process that ends first, or says nothing within 30 s,
    /// fails the test with what it said.
    pub async fn spawn(mut command: Command, opening: &str) -> Announced {
        let mut child = command
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the process starts");
        let mut stderr = tokio::io::BufReader::new(child.stderr.take().expect("piped"));
        let (tx, mut lines) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut line = String::new();
            // Read to the end, heard or not: a process whose stderr is closed fails to log.
            while stderr.read_line(&mut line).await.is_ok_and(|n| n > 0) {
                let _ = tx.send(std::mem::take(&mut line));
            }
        });
        let mut early = VecDeque::new();
        let found = tokio::time::timeout(START, async {
            while let Some(line) = lines.recv().await {
                let addr = named(&line, opening);
                early.push_back(line);
                if addr.is_some() {
                    return addr;
                }
            }
            None
        })
        .await;
        let said = || early.iter().map(String::as_str).collect::<String>();
        match found {
            Ok(Some(addr)) => Announced {
                child,
                addr,
                early,
                lines,
            },
            Ok(None) => panic!("the process ended before it listened:\n{}", said()),
            Err(_) => panic!("the process did not listen within 30 s:\n{}", said()),
        }
    }

    /// The first address a line said so far names after `opening` (one the process
    /// announced before the address it was started for, say).
    pub fn named(&self, opening: &str) -> Option<SocketAddr> {
        self.early.iter().find_map(|line| named(line, opening))
    }

    /// The next line holding `needle` (earlier lines first), within 20 s; the lines before
    /// it are passed over.
    pub async fn said(&mut self, needle: &str) -> String {
        while let Some(line) = self.early.pop_front() {
            if line.contains(needle) {
                return line;
            }
        }
        let wait = async {
            while let Some(line) = self.lines.recv().await {
                if line.contains(needle) {
                    return line;
                }
            }
            panic!("the process ended without saying {needle:?}")
        };
        tokio::time::timeout(Duration::from_secs(20), wait)
            .await
            .unwrap_or_else(|_| panic!("the process did not say {needle:?}"))
    }

    /// Ends the process; all it wrote on stderr that [`said`](Self::said) did not pass.
    pub async fn ended(mut self) -> String {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
        let mut log: String = self.early.drain(..).collect();
        while let Some(line) = self.lines.recv().await {
            log.push_str(&line);
        }
        log
    }
}

/// The loopback address `pid` or one of its descendants listens at, once one does (a
/// third-party server told port 0 and not saying which it got), within 30 s; read from
/// `/proc`: the process's socket inodes against the system's listening TCP sockets.
pub async fn bound_by(pid: u32) -> SocketAddr {
    listening_within(pid, START)
        .await
        .unwrap_or_else(|| panic!("process {pid} did not listen within 30 s"))
}

/// [`bound_by`], `None` when nothing listens within `within` (a benchmark reports a peer
/// that did not start rather than stopping).
pub async fn listening_within(pid: u32, within: Duration) -> Option<SocketAddr> {
    crate::eventually(within, || async { listening_of(pid).first().copied() }).await
}

/// The loopback addresses at which `pid` and its descendants listen (a socket bound to
/// every address counts, as `127.0.0.1` or `[::1]` reaches it).
fn listening_of(pid: u32) -> Vec<SocketAddr> {
    let mut family = vec![pid];
    let mut at = 0;
    while at < family.len() {
        family.extend(crate::children(family[at]));
        at += 1;
    }
    let inodes: Vec<String> = family.into_iter().flat_map(socket_inodes).collect();
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .flat_map(|table| {
            let table = std::fs::read_to_string(table).unwrap_or_default();
            table
                .lines()
                .skip(1)
                .filter_map(|row| {
                    // `sl local_address rem_address st … inode`: hex `IP:PORT`, state 0A
                    // listens.
                    let fields: Vec<&str> = row.split_whitespace().collect();
                    let (local, state, inode) = (fields.get(1)?, fields.get(3)?, fields.get(9)?);
                    if *state != "0A" || !inodes.iter().any(|i| i == inode) {
                        return None;
                    }
                    loopback(local)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The loopback address that reaches a socket bound at `local` (`/proc/net/tcp{,6}`'s hex
/// `IP:PORT`, each 32-bit word of the IP in host order); none for another host's address.
fn loopback(local: &str) -> Option<SocketAddr> {
    let (ip, port) = local.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let words: Vec<u32> = (0..ip.len() / 8)
        .map(|w| u32::from_str_radix(&ip[w * 8..w * 8 + 8], 16).map(u32::swap_bytes))
        .collect::<Result<_, _>>()
        .ok()?;
    let v4 = match words[..] {
        [ip] => std::net::Ipv4Addr::from(ip),
        // `::` and `::ffff:a.b.c.d` are reached at an IPv4 address; `::1` at itself.
        [0, 0, 0, 0] => std::net::Ipv4Addr::UNSPECIFIED,
        [0, 0, 0xffff, ip] => std::net::Ipv4Addr::from(ip),
        [0, 0, 0, 1] => return Some(SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, port))),
        _ => return None,
    };
    (v4.is_loopback() || v4.is_unspecified()).then(|| SocketAddr::from(([127, 0, 0, 1], port)))
}

/// The inodes of the sockets `pid` holds open.
fn socket_inodes(pid: u32) -> Vec<String> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .filter_map(|link| {
            let link = link.to_string_lossy().into_owned();
            Some(link.strip_prefix("socket:[")?.strip_suffix(']')?.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_read_from_a_plain_line_and_from_a_json_log_line() {
        let opening = "proxy on http://";
        assert_eq!(
            named("mcp-tailor proxy on http://127.0.0.1:4242/mcp\n", opening),
            Some(SocketAddr::from(([127, 0, 0, 1], 4242)))
        );
        let json = r#"{"fields":{"message":"mcp-tailor proxy on http://127.0.0.1:7/mcp"}}"#;
        assert_eq!(
            named(json, opening),
            Some(SocketAddr::from(([127, 0, 0, 1], 7)))
        );
        assert_eq!(named("nothing here", opening), None);
    }

    #[test]
    fn a_socket_bound_to_every_address_is_reached_at_loopback() {
        let at = |port| Some(SocketAddr::from(([127, 0, 0, 1], port)));
        assert_eq!(loopback("0100007F:1F90"), at(8080));
        assert_eq!(loopback("00000000:0050"), at(80));
        assert_eq!(loopback("00000000000000000000000000000000:0050"), at(80));
        assert_eq!(loopback("0000000000000000FFFF00000100007F:0050"), at(80));
        let v6 = SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, 80));
        assert_eq!(loopback("00000000000000000000000001000000:0050"), Some(v6));
        assert_eq!(loopback("0101A8C0:0050"), None);
    }

    #[test]
    fn a_listener_of_this_process_is_found_where_it_listens() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let found = listening_of(std::process::id());
        assert!(found.contains(&listener.local_addr().unwrap()), "{found:?}");
    }
}
