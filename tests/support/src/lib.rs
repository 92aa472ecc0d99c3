//! # mcp-tailor-test-support
//!
//! What the workspace's tests share, written once: a raw HTTP/1.1 client ([`http`]) and
//! server side ([`raw`]), the workspace's paths ([`workspace`], [`target`]), a poller
//! for a state that comes in its own time ([`eventually`]), a process's children as the
//! system sees them ([`children`]), and where a process listens ([`process`]).

pub mod http;
pub mod process;
pub mod raw;

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

/// The workspace's root folder.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace's folder")
}

/// The workspace's target folder (`CARGO_TARGET_DIR` where set).
pub fn target() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace().join("target"), PathBuf::from)
}

/// Asks `check` every 20 ms until it answers `Some`, for at most `within`; its answer, or
/// `None` when the time ran out. For a state that comes in its own time (a notification
/// handled on a task of its own, a subscription opened upstream): it waits no longer than
/// the state takes, and says when it never came.
pub async fn eventually<T, F, Fut>(within: Duration, mut check: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let until = tokio::time::Instant::now() + within;
    loop {
        if let Some(found) = check().await {
            return Some(found);
        }
        if tokio::time::Instant::now() >= until {
            return None;
        }
        // Sleep: the poll's own interval.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The live (not zombie) processes whose parent is `pid`, read from `/proc`.
pub fn children(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `PID (COMM) STATE PPID …`; COMM may hold spaces and parentheses.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 1 && fields[0] != "Z" && fields[1] == pid.to_string() {
            found.extend(
                entry
                    .file_name()
                    .to_str()
                    .and_then(|p| p.parse::<u32>().ok()),
            );
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn eventually_answers_once_the_state_comes_and_none_when_it_never_does() {
        let mut asked = 0;
        let found = eventually(Duration::from_secs(5), || {
            asked += 1;
            let now = asked;
            async move { (now == 3).then_some(now) }
        })
        .await;
        assert_eq!(found, Some(3));
        let never: Option<()> = eventually(Duration::from_millis(60), || async { None }).await;
        assert_eq!(never, None);
    }

    #[tokio::test]
    async fn a_raw_server_answers_the_client() {
        let addr = raw::answering(
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nNot Found",
        )
        .await;
        let reply = http::exchange(addr, "POST", "/mcp", "", "{}").await;
        assert_eq!(reply.0, 404);
        assert_eq!(reply.2, "Not Found");
    }

    #[test]
    fn the_paths_are_the_workspace_s() {
        assert!(workspace().join("Cargo.toml").is_file());
        assert!(target().ends_with("target") || std::env::var_os("CARGO_TARGET_DIR").is_some());
    }
}
