//! The official Python MCP SDK (`tests/python/requirements.txt` pins it) on both sides:
//! its client drives the demo over stdio and streamable HTTP, in both protocol eras, as
//! `codex` and as `grok`; and a server written with it runs behind `mcp-tailor proxy`,
//! tailored by a file its client then reads per reader, reloaded while connected; and
//! that server behind `proxy --surface index`, searched and called through the index.
//! `.ci/run` builds the demo and the command, installs the SDK into a virtual
//! environment, and runs these with `--ignored` and `MCP_TAILOR_PYTHON`.

use mcp_tailor_test_support::{target, workspace};
use std::path::PathBuf;
use std::process::Command;

/// Runs `tests/python/SCRIPT ARGS…` with the SDK's Python; asserts every check passed.
fn run_python(script: &str, args: &[PathBuf]) {
    let python = std::env::var("MCP_TAILOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = workspace().join("tests").join("python").join(script);
    let output = Command::new(&python)
        .arg(&script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {python}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    // The SDK closes every HTTP session with a DELETE and warns when it is not answered
    // 200 or 204.
    assert!(
        !stderr.contains("Session termination failed"),
        "a session did not close cleanly:\n{stderr}"
    );
    assert!(
        output.status.success(),
        "the Python client reported failures:\n{stdout}"
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}

/// `path`, or the command that builds it.
fn built(path: PathBuf, build: &str) -> PathBuf {
    assert!(
        path.exists(),
        "{} is missing: run `{build}` first",
        path.display()
    );
    path
}

#[test]
#[ignore = "needs the Python MCP SDK and a built demo; run by .ci/run"]
fn the_python_sdk_drives_the_demo() {
    let demo = built(
        target().join("debug").join("examples").join("demo"),
        "cargo build -p mcp-tailor-cli --example demo",
    );
    run_python("demo_client.py", &[demo]);
}

#[test]
#[ignore = "needs the Python MCP SDK and a built mcp-tailor command; run by .ci/run"]
fn a_python_sdk_server_behind_the_gateway_reads_per_reader() {
    let gateway = built(
        target().join("debug").join("mcp-tailor"),
        "cargo build -p mcp-tailor-cli",
    );
    let work = target().join("gateway-python");
    run_python("gateway_client.py", &[gateway, work]);
}

#[test]
#[ignore = "needs the Python MCP SDK and a built mcp-tailor command; run by .ci/run"]
fn the_python_sdk_reads_the_index_surface() {
    let gateway = built(
        target().join("debug").join("mcp-tailor"),
        "cargo build -p mcp-tailor-cli",
    );
    run_python("index_client.py", &[gateway]);
}
