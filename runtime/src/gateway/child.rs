//! A command upstream: its process, started with this process's environment; its stderr
//! passed on line by line to the gateway's own, the last lines kept so that a process
//! that exits before it answers can be reported with what it said and how it ended.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};

/// How many of its last stderr lines an exited upstream is reported with.
const TAIL_LINES: usize = 12;

/// A started upstream process. Dropping it kills the process (so none outlives its
/// connection, or the gateway).
pub(super) struct Child {
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
    /// Starts `program args…`, its stdin and stdout piped for MCP, its stderr passed on.
    pub(super) fn spawn(
        program: &str,
        args: &[String],
    ) -> std::io::Result<(Child, ChildStdout, ChildStdin)> {
        let mut process = tokio::process::Command::new(program)
            .args(args)
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
        let reader = Some(tokio::spawn(pass_on(stderr, tail.clone())));
        let child = Child {
            process,
            tail,
            reader,
        };
        Ok((child, stdout, stdin))
    }

    /// How the process ended, if it did within `wait`, with its last stderr lines.
    pub(super) async fn exit(&mut self, wait: Duration) -> Option<UpstreamExit> {
        let status = tokio::time::timeout(wait, self.process.wait()).await.ok()?;
        let status = match status {
            Ok(status) => status.to_string(),
            Err(error) => format!("no status: {error}"),
        };
        // Its stderr closed with it: let the last lines arrive.
        if let Some(reader) = self.reader.take() {
            let _ = tokio::time::timeout(wait, reader).await;
        }
        let tail = self.tail.lock().unwrap_or_else(PoisonError::into_inner);
        Some(UpstreamExit {
            status,
            stderr: tail.iter().cloned().collect(),
        })
    }
}

/// Writes each of the child's stderr lines to ours as it comes, keeping the last few.
async fn pass_on(stderr: tokio::process::ChildStderr, tail: Arc<Mutex<VecDeque<String>>>) {
    let mut lines = BufReader::new(stderr).lines();
    let mut ours = tokio::io::stderr();
    while let Ok(Some(line)) = lines.next_line().await {
        // Flushed: tokio's stderr writes on a thread of its own, and what the gateway says
        // of this process must come after what the process said.
        let _ = ours.write_all(format!("{line}\n").as_bytes()).await;
        let _ = ours.flush().await;
        let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
        if tail.len() == TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}
