//! The `mcp-tailor` command as a person runs it: a port in use is the first and only thing
//! `proxy` says (exit 1); its log carries no colour codes into a file or pipe; a reader that
//! closes the output (`inspect … | head`) ends the command quietly.
#![cfg(feature = "cli")]

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-tailor");

#[test]
fn a_port_in_use_is_said_first_and_exits_1() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    // The upstream is never reached: the port is bound before anything else is done.
    let output = Command::new(BIN)
        .args([
            "proxy",
            "--http",
            &addr,
            "--upstream",
            "http://127.0.0.1:9/mcp",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!("mcp-tailor: cannot listen on {addr}:")),
        "{stderr}"
    );
    assert!(!stderr.contains("proxy on http"), "{stderr}");
}

#[test]
fn the_log_has_no_colour_codes_when_stderr_is_no_terminal() {
    // An upstream nobody serves: the log says so, then the command exits 1.
    let output = Command::new(BIN)
        .args(["proxy", "--upstream", "http://127.0.0.1:9/mcp"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.is_empty());
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

#[test]
fn a_closed_output_ends_quietly() {
    let catalog = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/init/server-github.json");
    for args in [
        vec!["inspect", "--catalog", catalog.to_str().unwrap(), "matrix"],
        vec!["init", "--catalog", catalog.to_str().unwrap()],
    ] {
        let mut child = Command::new(BIN)
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the command writes (`| head -0`).
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(
            status.code().is_some(),
            "{args:?}: ended by a signal: {status:?}"
        );
    }
}
