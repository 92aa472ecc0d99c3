//! The demo driven by a client written by someone else: the official Python MCP SDK
//! (`tests/python/requirements.txt` pins it), over stdio and streamable HTTP, in both
//! protocol eras, as `codex` and as `grok`. `.ci/run` builds the demo, installs the SDK
//! into a virtual environment, and runs this with `--ignored` and `MCP_TAILOR_PYTHON`.

use std::path::PathBuf;
use std::process::Command;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
#[ignore = "needs the Python MCP SDK and a built demo; run by .ci/run"]
fn the_python_sdk_drives_the_demo() {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| workspace().join("target"), PathBuf::from);
    let demo = target.join("debug").join("examples").join("demo");
    assert!(
        demo.exists(),
        "{} is missing: run `cargo build -p mcp-tailor --example demo` first",
        demo.display()
    );
    let python = std::env::var("MCP_TAILOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = workspace()
        .join("tests")
        .join("python")
        .join("demo_client.py");
    let output = Command::new(&python)
        .arg(&script)
        .arg(&demo)
        .output()
        .unwrap_or_else(|e| panic!("running {python}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "the Python client reported failures:\n{stdout}"
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
