//! `mcp-tailor check` on files, one per compile error (and warning) of the macro that a
//! tailoring file can make: `tests/check/NAME.toml` against `NAME.stderr` (what the command
//! prints on stderr, then `exit N`). The names are the trybuild cases' (`ui-tests/ui/`)
//! where the file says the same thing; `MCP_TAILOR_BLESS=1` rewrites the expectations.

use std::path::Path;
use std::process::Command;

#[test]
fn check_reports_each_rule_as_the_macro_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let bless = std::env::var_os("MCP_TAILOR_BLESS").is_some();
    let mut failures = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_str().unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
            .args(["check", name])
            .current_dir(&dir)
            .output()
            .unwrap();
        let got = format!(
            "{}exit {}\n",
            String::from_utf8_lossy(&output.stderr),
            output.status.code().unwrap()
        );
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!("== {name}\n-- want\n{want}-- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A file that loads says so, with what it words, on stdout.
#[test]
fn check_of_a_good_file_says_what_it_words() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
        .args(["check", "tailoring.toml"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inspect"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "tailoring.toml: ok: 2 tools and 2 arguments worded\n"
    );
}

#[test]
fn check_of_a_missing_file_fails_and_says_why() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
        .args(["check", "/nonexistent/t.toml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("/nonexistent/t.toml: cannot read"),
        "{stderr}"
    );
}

#[test]
fn bad_usage_exits_2_with_the_usage() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
        .args(["proxy", "--tailoring", "t.toml"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("Usage: mcp-tailor proxy"));
}

/// A drafted file records each tool's fingerprint; `check --catalog` against the server's
/// catalog now names each tool reworded, gone or added since, as warnings at their place.
#[test]
fn check_against_a_catalog_names_what_changed_since_the_draft() {
    let dir = std::env::temp_dir().join(format!("mcp-tailor-check-drift-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tool = |name: &str, description: &str| {
        serde_json::json!({"name": name, "description": description, "inputSchema": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "The file's path, relative to the root folder the server was started with."}}
        }})
    };
    let before = serde_json::json!({"tools": [
        tool("read_file", "Read the complete contents of a file as text. Use it for configuration files and notes."),
        tool("list_directory", "List every file and folder in a directory, with [FILE] and [DIR] prefixes."),
        tool("move_file", "Move or rename a file or a directory. Both paths must be inside the root."),
    ]});
    std::fs::write(dir.join("before.json"), before.to_string()).unwrap();
    let mcp = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mcp-tailor"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let init = mcp(&["init", "--catalog", "before.json", "--out", "t.toml"]);
    assert!(init.status.success(), "{init:?}");
    let drafted = std::fs::read_to_string(dir.join("t.toml")).unwrap();
    assert_eq!(drafted.matches("drafted_from = \"").count(), 3, "{drafted}");
    let same = mcp(&["check", "t.toml", "--catalog", "before.json"]);
    assert!(same.status.success());
    assert_eq!(String::from_utf8_lossy(&same.stderr), "");
    let after = serde_json::json!({"tools": [
        tool("read_file", "Read the complete contents of a file as text, in any encoding."),
        tool("list_directory", "List every file and folder in a directory, with [FILE] and [DIR] prefixes."),
        tool("search_files", "Find files whose names match a glob pattern, below a folder."),
    ]});
    std::fs::write(dir.join("after.json"), after.to_string()).unwrap();
    let changed = mcp(&["check", "t.toml", "--catalog", "after.json"]);
    assert!(changed.status.success(), "warnings only: {changed:?}");
    let stderr = String::from_utf8_lossy(&changed.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    let line_of = |needle: &str| drafted.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].starts_with(&format!(
            "t.toml:{}:16: warning: tool `read_file`: its own words changed since this entry was drafted",
            line_of("[tools.read_file]") + 1
        )),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "t.toml:{}:8: warning: tool `move_file`: the catalog no longer lists it",
            line_of("[tools.move_file]")
        )),
        "{stderr}"
    );
    assert!(
        lines[2].starts_with("t.toml:1:1: warning: tool `search_files`: new in the catalog"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&changed.stdout).ends_with(", 3 warnings\n"));

    // `init --update` brings it up to date; an entry the user edited is kept byte for byte.
    let edited_entry = "[tools.list_directory]";
    let edited = drafted.replacen(
        "# list_directory:",
        "# list_directory (mine, edited by hand):",
        1,
    );
    assert_ne!(edited, drafted);
    std::fs::write(dir.join("t.toml"), &edited).unwrap();
    let update = mcp(&["init", "--update", "t.toml", "--catalog", "after.json"]);
    assert!(update.status.success(), "{update:?}");
    let said = String::from_utf8_lossy(&update.stderr);
    assert_eq!(
        said.lines().collect::<Vec<_>>(),
        [
            "redrafted read_file: its own words changed",
            "added search_files: new in the catalog",
            "dropped move_file: the catalog no longer lists it",
            "t.toml: 3 changes",
        ],
        "{said}"
    );
    let updated = std::fs::read_to_string(dir.join("t.toml")).unwrap();
    let entry = |text: &str| {
        let start = text.find("# list_directory (mine").unwrap();
        let end = text[start..]
            .find("\n\n# ")
            .map_or(text.len(), |e| start + e);
        text[start..end].to_owned()
    };
    assert!(updated.contains(edited_entry));
    assert_eq!(entry(&updated), entry(&edited));
    let clean = mcp(&["check", "t.toml", "--catalog", "after.json"]);
    assert!(clean.status.success());
    assert_eq!(
        String::from_utf8_lossy(&clean.stderr),
        "",
        "nothing drifted now"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
