//! Tests wait on events. Every sleep left in the workspace's tests (Rust and Python) says
//! on its line, or one of the two above, why it is no wait for something: `Sleep:`
//! simulated work, a client's pace, time passing under test, or a window for what must not
//! come. And no test picks a port, lets it go and hands it over (`free_addr`, `free_port`):
//! a process binds port 0 and says where (`mcp_tailor_test_support::process`).

use mcp_tailor_test_support::workspace;
use std::path::{Path, PathBuf};

/// The folders holding tests, from the workspace's root.
const TEST_FOLDERS: &[&str] = &["tests", "cli/tests", "runtime", "macros", "ui-tests"];

/// Whether `path` is test code: a file under a `tests` folder, or any file of the
/// workspace's `tests` crate.
fn is_test_code(root: &Path, path: &Path) -> bool {
    let relative = path.strip_prefix(root).unwrap_or(path);
    let in_tests =
        relative.starts_with("tests") || relative.components().any(|c| c.as_os_str() == "tests");
    let code = path.extension().is_some_and(|e| e == "rs" || e == "py");
    in_tests && code && !relative.components().any(|c| c.as_os_str() == "target")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The lines of `code` (1-based) that sleep without saying why.
fn unexplained_sleeps(code: &str) -> Vec<usize> {
    let lines: Vec<&str> = code.lines().collect();
    (0..lines.len())
        .filter(|&i| lines[i].contains("sleep(") && !lines[i].trim_start().starts_with("//"))
        .filter(|&i| {
            !lines[i.saturating_sub(2)..=i]
                .iter()
                .any(|l| l.contains("Sleep:"))
        })
        .map(|i| i + 1)
        .collect()
}

/// Whether `code` defines a port picker.
fn picks_ports(code: &str) -> bool {
    ["fn free_addr", "fn free_port", "def free_port"]
        .iter()
        .any(|picker| code.contains(picker))
}

#[test]
fn every_sleep_in_the_tests_says_why_and_no_test_hands_a_port_over() {
    let root = workspace();
    let mut all = Vec::new();
    for folder in TEST_FOLDERS {
        files(&root.join(folder), &mut all);
    }
    let this = PathBuf::from(file!());
    let mut found = Vec::new();
    for path in all.iter().filter(|p| is_test_code(&root, p)) {
        if path.ends_with(&this) {
            continue;
        }
        let code = std::fs::read_to_string(path).unwrap_or_default();
        let relative = path.strip_prefix(&root).unwrap_or(path).display();
        for line in unexplained_sleeps(&code) {
            found.push(format!("{relative}:{line}: a sleep that does not say why"));
        }
        if picks_ports(&code) {
            found.push(format!("{relative}: picks a port and hands it over"));
        }
    }
    assert!(
        all.len() > 100,
        "the test folders were read ({})",
        all.len()
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checker_finds_a_silent_sleep_and_a_port_picker() {
    let silent = "let x = 1;\n\ntokio::time::sleep(d).await;\n";
    assert_eq!(unexplained_sleeps(silent), [3]);
    let said = "// Sleep: simulated work.\ntokio::time::sleep(d).await;\n";
    assert!(unexplained_sleeps(said).is_empty());
    let far = "// Sleep: too far.\na();\nb();\ntime.sleep(1)\n";
    assert_eq!(unexplained_sleeps(far), [4]);
    assert!(picks_ports("fn free_addr() -> SocketAddr {"));
    assert!(picks_ports("def free_port() -> int:"));
    assert!(!picks_ports("let addr = proxy.addr;"));
}
