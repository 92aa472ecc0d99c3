//! The `mcp-tailor` command as a person runs it: `--help` for the command and each of its
//! subcommands, `--version`; an invalid URL, an upstream that exits before it answers and
//! one nobody serves, each said in the user's terms; a port in use is the first and only
//! thing `proxy` says (exit 1); its log carries no colour codes into a file or pipe; a
//! reader that closes the output (`inspect … | head`) ends the command quietly.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-tailor");

/// `mcp-tailor ARGS…`: its exit code, stdout and stderr.
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn help_for_the_command_and_every_subcommand() {
    let (code, stdout, _) = run(&["--help"]);
    assert_eq!(code, Some(0));
    for command in ["check", "proxy", "inspect", "init"] {
        assert!(stdout.contains(command), "{stdout}");
        let (code, help, stderr) = run(&[command, "--help"]);
        assert_eq!(code, Some(0), "{command}: {stderr}");
        assert!(
            help.contains(&format!("Usage: mcp-tailor {command}")),
            "{command}: {help}"
        );
    }
    // A report's own options.
    let (code, help, _) = run(&["inspect", "--catalog", "c.json", "eval", "--help"]);
    assert_eq!(code, Some(0));
    assert!(help.contains("Usage: mcp-tailor inspect eval"), "{help}");
    assert!(help.contains("--tasks <FILE>"), "{help}");
    // Each report's, before any upstream is named.
    for report in ["list", "matrix", "tokens", "diff", "lint", "eval"] {
        let (code, help, stderr) = run(&["inspect", report, "--help"]);
        assert_eq!(code, Some(0), "{report}: {stderr}");
        let usage = format!("Usage: mcp-tailor inspect {report}");
        assert!(help.contains(&usage), "{report}: {help}");
    }
    // No subcommand: the help, as a usage error.
    let (code, _, stderr) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("Usage: mcp-tailor <COMMAND>"), "{stderr}");
}

#[test]
fn the_version() {
    let (code, stdout, _) = run(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        stdout.trim(),
        format!("mcp-tailor {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn an_invalid_url_is_called_one() {
    for args in [
        ["proxy", "--upstream", "localhost:8080/mcp"],
        ["init", "--upstream", "127.0.0.1:8080"],
    ] {
        let (code, _, stderr) = run(&args);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains("not a valid URL"), "{stderr}");
        assert!(!stderr.contains("RelativeUrlWithoutBase"), "{stderr}");
    }
}

#[test]
fn an_upstream_that_exits_is_reported_with_its_status_and_last_words() {
    let script = "echo starting >&2; echo 'Error: GITHUB_TOKEN is not set' >&2; exit 3";
    for command in ["proxy", "init"] {
        let (code, _, stderr) = run(&[command, "--", "sh", "-c", script]);
        assert_eq!(code, Some(1), "{stderr}");
        let said = stderr
            .lines()
            .find(|l| l.starts_with("mcp-tailor: "))
            .unwrap_or_else(|| panic!("{stderr}"));
        assert!(
            said.contains("exited before it answered (exit status: 3)"),
            "{stderr}"
        );
        assert!(
            stderr.ends_with(
                "its last lines on stderr:\n  starting\n  Error: GITHUB_TOKEN is not set\n"
            ),
            "{stderr}"
        );
    }
}

#[test]
fn an_upstream_nobody_serves_is_said_plainly() {
    let (code, _, stderr) = run(&["inspect", "--upstream", "http://127.0.0.1:9/mcp", "list"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("Connection refused"), "{stderr}");
    assert!(!stderr.contains("rmcp::"), "{stderr}");
    assert!(!stderr.contains("when send"), "{stderr}");
}

#[test]
fn a_url_that_serves_no_mcp_is_said_plainly() {
    // An HTTP server answering everything 404, as a wrong path does.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let addr = runtime.block_on(mcp_tailor_test_support::raw::answering(
        b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\nconnection: close\r\n\r\nNot Found",
    ));
    let url = format!("http://{addr}/wrong");
    let (code, _, stderr) = run(&["inspect", "--upstream", &url, "list"]);
    assert_eq!(code, Some(1));
    let said = stderr
        .lines()
        .find(|l| l.starts_with("mcp-tailor: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(said.ends_with("HTTP 404 Not Found: Not Found"), "{stderr}");
}

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
