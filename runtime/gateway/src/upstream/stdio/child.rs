//! A command upstream: its process, started with this process's environment less what it
//! must not see (the gateway's secrets, other servers'); its stderr
//! passed on to the gateway's own as it wrote it, a line at a time, the last lines kept so
//! that a process that exits before it answers can be reported with what it said and how
//! it ended.

use mcp_tailor_core::seam::Locked;
use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{ChildStdin, ChildStdout};

/// How many of its last stderr lines an exited upstream is reported with.
const TAIL_LINES: usize = 12;

/// The most of a line kept for the report (a longer one is cut, `…` added).
const TAIL_LINE_CHARS: usize = 1_000;

/// The most bytes of a line held back until its end comes: a longer one is passed on
/// without waiting for it.
const HELD_BYTES: usize = 64 * 1024;

/// What starting a command upstream takes: the program and its arguments; `env` set over
/// this process's environment, less the variables `withheld`; the server name its stderr
/// is logged under (`None`: passed on as written).
pub(crate) struct Spawn<'a> {
    pub(crate) program: &'a str,
    pub(crate) args: &'a [String],
    pub(crate) env: &'a [(String, String)],
    pub(crate) withheld: &'a [String],
    pub(crate) stderr_log: Option<&'a str>,
}

impl<'a> Spawn<'a> {
    /// `program args…` in this process's environment, its stderr passed on.
    #[cfg(test)]
    pub(crate) fn plain(program: &'a str, args: &'a [String]) -> Spawn<'a> {
        Spawn {
            program,
            args,
            env: &[],
            withheld: &[],
            stderr_log: None,
        }
    }
}

/// A started upstream process. Dropping it kills the process (so none outlives its
/// connection, or the gateway).
pub(crate) struct Child {
    process: tokio::process::Child,
    tail: Arc<Mutex<VecDeque<String>>>,
    /// The task passing stderr on; it ends when the process closes its stderr.
    reader: Option<tokio::task::JoinHandle<()>>,
}

/// How an upstream process ended, and what it said last.
#[derive(Debug)]
pub struct UpstreamExit {
    /// `exit status: 1`, `signal: 9 (SIGKILL)`.
    pub status: String,
    /// Its last lines on stderr, oldest first.
    pub stderr: Vec<String>,
}

impl Child {
    /// Starts `spawn`, its stdin and stdout piped for MCP, its stderr passed on (or logged).
    pub(crate) fn spawn(spawn: &Spawn<'_>) -> std::io::Result<(Child, ChildStdout, ChildStdin)> {
        let mut command = tokio::process::Command::new(spawn.program);
        for name in spawn.withheld {
            command.env_remove(name);
        }
        let mut process = command
            .args(spawn.args)
            .envs(spawn.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let (Some(stdout), Some(stdin), Some(stderr)) = (
            process.stdout.take(),
            process.stdin.take(),
            process.stderr.take(),
        ) else {
            return Err(std::io::Error::other("the child's pipes were not opened"));
        };
        let tail = Arc::new(Mutex::new(VecDeque::with_capacity(TAIL_LINES)));
        let logged = spawn.stderr_log.map(str::to_owned);
        let reader = Some(tokio::spawn(pass_on(stderr, tail.clone(), logged)));
        let child = Child {
            process,
            tail,
            reader,
        };
        Ok((child, stdout, stdin))
    }

    /// How the process ended, if it did within `wait`, with its last stderr lines.
    pub(crate) async fn exit(&mut self, wait: Duration) -> Option<UpstreamExit> {
        let status = tokio::time::timeout(wait, self.process.wait()).await.ok()?;
        let status = match status {
            Ok(status) => status.to_string(),
            Err(error) => format!("no status: {error}"),
        };
        // Its stderr closed with it: let the last lines arrive.
        if let Some(reader) = self.reader.take() {
            let _ = tokio::time::timeout(wait, reader).await;
        }
        let tail = self.tail.locked();
        Some(UpstreamExit {
            status,
            stderr: tail.iter().cloned().collect(),
        })
    }
}

/// Writes the child's stderr to ours as it comes, byte for byte, a whole line at a time
/// (never cut by a line of the gateway's own log), keeping the last few lines. Any bytes
/// are passed on: a line that is not UTF-8 (a Latin-1 log) once stopped the reading, and
/// the upstream died of `SIGPIPE` at its next write to stderr.
/// With `logged`, each whole line is instead a log event of that server ([`log_lines`]).
async fn pass_on(
    mut stderr: tokio::process::ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
    logged: Option<String>,
) {
    let mut ours = tokio::io::stderr();
    let mut held: Vec<u8> = Vec::new();
    let mut chunk = vec![0; 8 * 1024];
    loop {
        let read = stderr.read(&mut chunk).await.unwrap_or(0);
        let before = held.len();
        held.extend_from_slice(&chunk[..read]);
        // What was held before has no newline: only what came is looked through.
        let whole = match read {
            0 => held.len(),
            _ => match chunk[..read].iter().rposition(|&b| b == b'\n') {
                Some(end) => before + end + 1,
                None if held.len() >= HELD_BYTES => held.len(),
                None => continue,
            },
        };
        if whole > 0 {
            // Flushed: tokio's stderr writes on a thread of its own, and what the gateway
            // says of this process must come after what the process said.
            match &logged {
                Some(server) => log_lines(server, &held[..whole]),
                None => {
                    let _ = ours.write_all(&held[..whole]).await;
                    let _ = ours.flush().await;
                }
            }
            keep(&tail, &held[..whole]);
            held.drain(..whole);
        }
        if read == 0 {
            return;
        }
    }
}

/// The lines of `written`, a whole number of lines (the last newline ends one, it begins
/// none).
fn lines(written: &[u8]) -> impl DoubleEndedIterator<Item = &[u8]> {
    let written = written.strip_suffix(b"\n").unwrap_or(written);
    written.split(|&b| b == b'\n')
}

/// A line as text to quote or log: read lossily where it is not UTF-8, terminal escapes
/// (colours) removed, without its carriage return.
fn readable(line: &[u8]) -> String {
    let line = strip_ansi_escapes::strip_str(String::from_utf8_lossy(line));
    line.trim_end_matches('\r').to_owned()
}

/// Each line of `written` as a log event of `server`: read lossily where it is not UTF-8,
/// terminal escapes (colours) removed, so a collector reading JSON lines gets JSON.
fn log_lines(server: &str, written: &[u8]) {
    for line in lines(written) {
        let line = readable(line);
        if !line.trim().is_empty() {
            tracing::info!(target: "mcp_tailor::upstream", server, "{line}");
        }
    }
}

/// Keeps the last lines of `written` in `tail`, each as text to quote: not UTF-8 read
/// lossily, terminal escapes (colours) removed, cut to [`TAIL_LINE_CHARS`].
fn keep(tail: &Mutex<VecDeque<String>>, written: &[u8]) {
    let mut tail = tail.locked();
    let mut last: Vec<&[u8]> = lines(written).rev().take(TAIL_LINES).collect();
    last.reverse();
    for line in last {
        let line = readable(line);
        let mut kept: String = line.chars().take(TAIL_LINE_CHARS).collect();
        if kept.len() < line.len() {
            kept.push('…');
        }
        if tail.len() == TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sh -c SCRIPT`'s exit, within 10 s.
    async fn exit_of(script: &str) -> UpstreamExit {
        let args = ["-c".to_owned(), script.to_owned()];
        let (mut child, _stdout, _stdin) = Child::spawn(&Spawn::plain("sh", &args)).unwrap();
        child.exit(Duration::from_secs(10)).await.expect("it exits")
    }

    #[tokio::test]
    async fn an_upstream_writing_bytes_that_are_not_utf8_on_stderr_is_read_on() {
        // Before: the reading stopped at the first such line, and the next write killed
        // the upstream (`signal: 13 (SIGPIPE)`, "it wrote nothing on stderr").
        let exit = exit_of(r#"printf 'caf\351\n' >&2; sleep 0.2; echo after >&2; exit 3"#).await;
        assert_eq!(exit.status, "exit status: 3");
        assert_eq!(exit.stderr, ["caf\u{FFFD}", "after"]);
    }

    #[tokio::test]
    async fn the_last_lines_are_quoted_without_colours_and_cut_to_size() {
        let script = r#"printf '\033[31mERROR\033[39m [12:00] \033[36mno token\033[39m\r\n' >&2
            i=0; while [ $i -lt 20 ]; do echo "line $i" >&2; i=$((i+1)); done
            head -c 3000 /dev/zero | tr '\0' x >&2; exit 1"#;
        let exit = exit_of(script).await;
        assert_eq!(exit.stderr.len(), TAIL_LINES);
        assert_eq!(exit.stderr[0], "line 9");
        let long = exit.stderr.last().unwrap();
        assert_eq!(long.chars().count(), TAIL_LINE_CHARS + 1, "{long}");
        assert!(long.ends_with('…'));
        let colours =
            exit_of(r#"printf '\033[31mERROR\033[39m [12:00] \033[36mno token\033[39m\r\n' >&2"#);
        assert_eq!(colours.await.stderr, ["ERROR [12:00] no token"]);
    }
}
