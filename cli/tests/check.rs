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
