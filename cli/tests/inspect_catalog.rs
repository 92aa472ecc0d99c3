//! `mcp-tailor inspect` on a server it did not compile: a captured `tools/list` result of
//! the Python notes server (`tests/python/notes_server.py`, in `tests/inspect/catalog.json`)
//! tailored by `tests/inspect/tailoring.toml`.

use std::path::Path;
use std::process::{Command, Output};

fn inspect(args: &[&str]) -> Output {
    inspect_in(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inspect"),
        args,
    )
}

/// `inspect --tailoring tailoring.toml --catalog catalog.json ARGS…` in `dir`.
fn inspect_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
        .args([
            "inspect",
            "--tailoring",
            "tailoring.toml",
            "--catalog",
            "catalog.json",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn list_is_what_each_reader_gets_as_the_file_says() {
    let description = |args: &[&str]| {
        let output = inspect(args);
        assert!(output.status.success(), "{output:?}");
        let listed: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let search = listed["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "search_notes")
            .cloned()
            .unwrap();
        (
            search["description"].clone(),
            search["inputSchema"]["properties"]["query"]["description"].clone(),
        )
    };
    assert_eq!(
        description(&["list", "--verbosity", "0"]),
        ("Search notes.".into(), "words".into())
    );
    assert_eq!(
        description(&["list", "--verbosity", "9"]),
        (
            "Full-text search over every note; returns matching ids and text.".into(),
            "Words to look for.".into()
        )
    );
    assert_eq!(
        description(&["list", "--runner", "grok", "--verbosity", "0"]).0,
        "Search notes. Pass `query` as plain words."
    );
    // A tool the file does not name keeps the server's own wording.
    let output = inspect(&["list"]);
    assert!(
        stdout(&output).contains("\"description\":\"Get a note.\""),
        "{}",
        stdout(&output)
    );
}

#[test]
fn matrix_and_tokens_cover_every_reader_class() {
    let matrix = stdout(&inspect(&["matrix"]));
    assert!(matrix.contains("grok"), "{matrix}");
    assert!(matrix.contains("\"Search notes.\" (3 tokens)"), "{matrix}");
    let tokens = inspect(&["tokens"]);
    assert!(tokens.status.success(), "{tokens:?}");
}

#[test]
fn lint_names_what_the_file_declares_and_the_catalog_lacks() {
    let output = inspect(&["lint"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let text = format!(
        "{}{}",
        stdout(&output),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains(
            "gone tool: the tailoring file declares what the catalog lacks (tailoring.toml:9:8)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "search_notes argument `missing`: the tailoring file declares what the catalog lacks (tailoring.toml:1:8)"
        ),
        "{text}"
    );
}

#[test]
fn a_catalog_that_is_not_one_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
        .args(["inspect", "--catalog", "tailoring.toml", "list"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inspect"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("tailoring.toml: not JSON"));
}

/// A fresh folder of this test's own holding `catalog.json` and `tailoring.toml`.
fn folder_with(name: &str, catalog: &serde_json::Value, tailoring: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-tailor-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("catalog.json"), catalog.to_string()).unwrap();
    std::fs::write(dir.join("tailoring.toml"), tailoring).unwrap();
    dir
}

/// `lint` of another server's catalog checks the server's own words for signatures only
/// (its prose backticks values, result fields and names of its service: firecrawl-mcp's
/// `status`, `changed`, `cron`), and a tailoring file's words for backticked names too.
#[test]
fn lint_reads_a_server_s_backticks_as_prose_and_the_file_s_as_arguments() {
    let catalog = serde_json::json!({"tools": [{
        "name": "monitor",
        "description": "Create a monitor. Its `status` turns `active` and each check \
                        reports `changed`. Call it as monitor(url, cron).",
        "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}},
                        "additionalProperties": false}
    }]});
    let dir = folder_with(
        "lint-own",
        &catalog,
        "[tools.monitor.description]\n\
         levels = [{ verbosity = \"0..=2\", text = \"Watch `url` every `interval`.\" }]\n",
    );
    let lint = |tailoring: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-tailor"));
        command.arg("inspect").current_dir(&dir);
        if tailoring {
            command.args(["--tailoring", "tailoring.toml"]);
        }
        let output = command
            .args(["--catalog", "catalog.json", "lint"])
            .output()
            .unwrap();
        let named: Vec<String> = stdout(&output)
            .lines()
            .filter_map(|line| {
                Some(
                    line.split("names argument `")
                        .nth(1)?
                        .split('`')
                        .next()?
                        .to_owned(),
                )
            })
            .collect();
        named
    };
    assert_eq!(lint(false), ["cron"]);
    assert_eq!(lint(true), ["interval", "cron"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finding about the server's own schema (it accepts unknown arguments) is the
/// upstream's to fix, not the file's: `lint` prints it as a note and exits 0.
#[test]
fn lint_notes_the_servers_own_schema_without_failing() {
    let catalog = serde_json::json!({"tools": [{
        "name": "search",
        "description": "Search the index of every document for the words a user gives.",
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}
    }]});
    let dir = folder_with(
        "lint-schema",
        &catalog,
        "[tools.search.description]\n\
         levels = [{ verbosity = \"0..=2\", text = \"Search by `query`.\" }]\n",
    );
    let output = inspect_in(&dir, &["lint"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.starts_with("lint: no findings (1 tool"), "{text}");
    assert!(
        text.contains("note: 1 finding about the server's own schema")
            && text.contains("search schema: accepts unknown arguments"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A hand-written level of an upstream's tool is held to the server's words as `init`'s
/// drafts are: `lint` names a rule it drops and a value the server never said.
#[test]
fn lint_names_a_dropped_rule_and_a_value_the_server_never_said() {
    let catalog = serde_json::json!({"tools": [{
        "name": "list_issues",
        "description": "List the issues of a project.",
        "inputSchema": {"type": "object", "properties": {
            "assignee_id": {"type": "string", "description":
                "Return issues assigned to the given user ID. Mutually exclusive with assignee_username."},
            "assignee_username": {"type": "string"}
        }}
    }]});
    let dir = folder_with(
        "lint-rules",
        &catalog,
        "[tools.list_issues.arguments.assignee_id]\n\
         description = { levels = [{ verbosity = \"0..=2\", text = \"The assignee's ID ('42').\" }] }\n",
    );
    let output = inspect_in(&dir, &["lint"]);
    let text = stdout(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("drops the server's rule \"Mutually exclusive with assignee_username.\""),
        "{text}"
    );
    assert!(
        text.contains("says 42, which the server's words do not"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_index_surface_is_listed_counted_and_evaluated_offline() {
    // A catalog this small is all but names at the default 7%: half of it holds words.
    let output = inspect(&[
        "--surface",
        "index",
        "--index-budget",
        "50%",
        "list",
        "--verbosity",
        "0",
    ]);
    assert!(output.status.success(), "{output:?}");
    let listed: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["search_tools", "call_tool"]);
    let index = listed["tools"][0]["description"].as_str().unwrap();
    // Level 0 of the file, whole sentences, a line per tool.
    assert!(index.contains("\nsearch_notes: Search notes."), "{index}");
    assert!(index.contains("\nget_note"), "{index}");
    // `tokens` on the catalog shows the index surface beside it, which costs less.
    let tokens = stdout(&inspect(&["tokens"]));
    let (catalog, index) = tokens
        .split_once("on the index surface")
        .unwrap_or_else(|| panic!("{tokens}"));
    let level9 = |block: &str| -> usize {
        let row = block
            .lines()
            .find(|l| l.trim_start().starts_with("9 "))
            .unwrap();
        row.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert!(level9(index) < level9(catalog), "{tokens}");
    // `eval` ranks the tasks through the index's lines.
    let tasks = std::env::temp_dir().join(format!("index-tasks-{}.toml", std::process::id()));
    std::fs::write(
        &tasks,
        "[[task]]\nquery = \"search my notes\"\nexpect = \"search_notes\"\n",
    )
    .unwrap();
    let evaluated = inspect(&[
        "--surface",
        "index",
        "eval",
        "--tasks",
        tasks.to_str().unwrap(),
        "--json",
    ]);
    std::fs::remove_file(&tasks).unwrap();
    let report: serde_json::Value = serde_json::from_str(&stdout(&evaluated)).unwrap();
    assert_eq!(report["readers"]["-"][0]["tasks"][0]["rank"], 1, "{report}");
}
