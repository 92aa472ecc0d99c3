//! `mcp-tailor init`, `check` and `proxy` on six real servers nobody here wrote, installed
//! pinned from npm and PyPI by `.ci/run` (`tests/third_party/install.sh`): for each, `init`
//! drafts a file from the live server, `check` passes it, and the server behind `proxy`,
//! read at levels 0, 5 and 9, lists exactly what `inspect` says the file makes of its own
//! listing — terser at 0, its own words at 9. Run with `--ignored`, `MCP_TAILOR_SERVERS`
//! (the npm prefix) and `MCP_TAILOR_PYTHON` (the venv's Python).

use mcp_tailor_test_support::target;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// The six servers: a name and the command that serves it on stdio.
fn servers() -> Vec<(&'static str, Vec<String>)> {
    let npm = PathBuf::from(std::env::var("MCP_TAILOR_SERVERS").expect("MCP_TAILOR_SERVERS"));
    let python = std::env::var("MCP_TAILOR_PYTHON").expect("MCP_TAILOR_PYTHON");
    let node = |package: &str, args: &[&str]| {
        let script = npm
            .join("node_modules/@modelcontextprotocol")
            .join(package)
            .join("dist/index.js");
        let mut command = vec!["node".to_owned(), script.display().to_string()];
        command.extend(args.iter().map(|a| (*a).to_owned()));
        command
    };
    let scratch = target().join("third-party-scratch");
    let _ = std::fs::create_dir_all(&scratch);
    let repository = scratch.join("repository");
    if !repository.join(".git").exists() {
        let _ = std::fs::create_dir_all(&repository);
        let _ = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&repository)
            .status();
    }
    let dir = scratch.display().to_string();
    let repo = repository.display().to_string();
    vec![
        ("server-filesystem", node("server-filesystem", &[&dir])),
        ("server-github", node("server-github", &[])),
        ("server-everything", node("server-everything", &[])),
        ("server-memory", node("server-memory", &[])),
        (
            "mcp-server-time",
            vec![python.clone(), "-m".into(), "mcp_server_time".into()],
        ),
        (
            "mcp-server-git",
            vec![
                python,
                "-m".into(),
                "mcp_server_git".into(),
                "--repository".into(),
                repo,
            ],
        ),
    ]
}

fn mcp_tailor() -> PathBuf {
    let path = target().join("debug").join("mcp-tailor");
    assert!(path.exists(), "run `cargo build -p mcp-tailor-cli` first");
    path
}

/// `mcp-tailor ARGS…` with `MCP_TAILOR_VERBOSITY` set (every process it starts inherits
/// it: a `proxy` then serves a reader naming no level at that one); its stdout.
fn run(args: &[String], verbosity: Option<u8>) -> String {
    let mut command = Command::new(mcp_tailor());
    command.args(args);
    if let Some(level) = verbosity {
        command.env("MCP_TAILOR_VERBOSITY", level.to_string());
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each tool's name, description and input schema, sorted by name.
fn wording(listing: &str) -> Vec<(String, Value, Value)> {
    let listed: Value = serde_json::from_str(listing).unwrap();
    let mut tools: Vec<(String, Value, Value)> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or_default().to_owned(),
                t.get("description").cloned().unwrap_or(Value::Null),
                t["inputSchema"].clone(),
            )
        })
        .collect();
    tools.sort_by(|a, b| a.0.cmp(&b.0));
    tools
}

#[test]
#[ignore = "needs the pinned third-party servers; run by .ci/run"]
fn init_check_and_proxy_on_six_real_servers() {
    let out = target().join("third-party-drafts");
    std::fs::create_dir_all(&out).unwrap();
    let bin = mcp_tailor().display().to_string();
    for (name, command) in servers() {
        let draft = out.join(format!("{name}.toml")).display().to_string();
        let mut init = vec![
            "init".to_owned(),
            "--out".to_owned(),
            draft.clone(),
            "--".to_owned(),
        ];
        init.extend(command.iter().cloned());
        run(&init, None);
        run(&["check".to_owned(), draft.clone()], None);
        let mut levels = Vec::new();
        for level in [0u8, 5, 9] {
            // Through the gateway: the server behind `proxy --tailoring`, read at `level`.
            let mut served = vec!["inspect".to_owned(), "list".to_owned(), "--".to_owned()];
            served.extend([
                bin.clone(),
                "proxy".into(),
                "--tailoring".into(),
                draft.clone(),
                "--".into(),
            ]);
            served.extend(command.iter().cloned());
            let served = wording(&run(&served, Some(level)));
            // What `inspect` says the file makes of the server's own listing at `level`.
            let mut expected = vec![
                "inspect".to_owned(),
                "--tailoring".to_owned(),
                draft.clone(),
                "list".to_owned(),
                "--verbosity".to_owned(),
                level.to_string(),
                "--".to_owned(),
            ];
            expected.extend(command.iter().cloned());
            let expected = wording(&run(&expected, None));
            assert!(!served.is_empty(), "{name}: no tools");
            assert_eq!(served, expected, "{name} at level {level}");
            levels.push(served);
        }
        // The server's own words at 9, the draft's terser ones at 0.
        let mut own = vec!["inspect".to_owned(), "list".to_owned(), "--".to_owned()];
        own.extend(command.iter().cloned());
        assert_eq!(
            levels[2],
            wording(&run(&own, None)),
            "{name} at 9 is its own"
        );
        let size = |tools: &[(String, Value, Value)]| serde_json::to_string(tools).unwrap().len();
        assert!(
            size(&levels[0]) < size(&levels[2]),
            "{name}: level 0 is terser"
        );
        println!(
            "{name}: {} tools, drafted, checked, served at 0, 5 and 9",
            levels[0].len()
        );
    }
}
