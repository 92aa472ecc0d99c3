//! `proxy` and `inspect` page a listing as the upstream pages its own: an upstream that lists
//! 118 tools on one page (npm `@zereight/mcp-gitlab`) was served as 100 and a cursor, so a
//! client that follows no cursor lost 18 tools it gets directly. `--page-size` chooses.

mod common;

use common::BIN;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tokio::process::Command;

/// A stdio MCP server in `sh`: `tools/list` answers the result in file `$1`, or in `$2` when
/// asked for the cursor `second`.
fn listing() -> String {
    let result = |file: &str| {
        format!(r#"'{{"jsonrpc":"2.0","id":%s,"result":%s}}\n' "$id" "$(cat "{file}")""#)
    };
    common::sh_server(
        "paged",
        &[
            (r#"*'"cursor":"second"'*"#, &result("$2")),
            (r#"*'"method":"tools/list"'*"#, &result("$1")),
        ],
    )
}

/// `tools/list` results in a folder of this test's own: tools `from..to`, with `cursor`.
struct Pages(PathBuf);

impl Pages {
    fn new(name: &str) -> Pages {
        let dir = std::env::temp_dir().join(format!("mcp-tailor-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Pages(dir)
    }

    /// Writes the page of tools `range` as `file`, ending with `cursor`; its path.
    fn page(&self, file: &str, range: std::ops::Range<usize>, cursor: Option<&str>) -> String {
        let tools: Vec<Value> = range
            .map(|i| {
                json!({"name": format!("tool_{i}"), "description": format!("Do thing {i}."),
                "inputSchema": {"type": "object"}})
            })
            .collect();
        let mut result = json!({ "tools": tools });
        if let Some(cursor) = cursor {
            result["nextCursor"] = json!(cursor);
        }
        let path = self.0.join(file);
        std::fs::write(&path, result.to_string()).unwrap();
        path.to_str().unwrap().to_owned()
    }

    fn dir(&self) -> &Path {
        &self.0
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Each page's tool count (and whether it had a cursor), as a client that follows every
/// cursor lists them through `proxy ARGS… -- sh -c LISTING first second` ([`listing`]).
async fn pages_through_proxy(args: &[&str], first: &str, second: &str) -> Vec<(usize, bool)> {
    let mut command = Command::new(BIN);
    command
        .args(["proxy", "--http", "127.0.0.1:0"])
        .args(args)
        .args(["--", "sh", "-c", &listing(), "sh"])
        .args([first, second]);
    let proxy = common::spawned(command).await;
    let session = common::RawSession::open(&common::url(&proxy)).await;
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    for id in 2..10 {
        let params = match &cursor {
            Some(cursor) => json!({ "cursor": cursor }),
            None => json!({}),
        };
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params});
        let result = session.ask(request).await["result"].clone();
        let tools = result["tools"].as_array().expect("a listing").len();
        cursor = result["nextCursor"].as_str().map(str::to_owned);
        pages.push((tools, cursor.is_some()));
        if cursor.is_none() {
            break;
        }
    }
    pages
}

#[tokio::test(flavor = "multi_thread")]
async fn proxy_lists_on_one_page_what_the_upstream_lists_on_one_page() {
    let pages = Pages::new("one-page");
    let all = pages.page("all.json", 0..150, None);
    let none = pages.page("none.json", 0..0, None);
    assert_eq!(pages_through_proxy(&[], &all, &none).await, [(150, false)]);
    // Unless the command line pages it.
    assert_eq!(
        pages_through_proxy(&["--page-size", "100"], &all, &none).await,
        [(100, true), (50, false)]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn proxy_pages_as_the_upstream_pages() {
    let pages = Pages::new("paged");
    let first = pages.page("first.json", 0..60, Some("second"));
    let second = pages.page("second.json", 60..90, None);
    assert_eq!(
        pages_through_proxy(&[], &first, &second).await,
        [(60, true), (30, false)]
    );
}

/// `inspect OPTIONS… list UPSTREAM…` prints the first page a reader gets: as `proxy`
/// serves it.
async fn first_page_inspected(options: &[&str], upstream: &[&str], dir: &Path) -> Value {
    let output = Command::new(BIN)
        .arg("inspect")
        .args(options)
        .arg("list")
        .args(upstream)
        .current_dir(dir)
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn inspect_pages_as_the_upstream_pages() {
    let pages = Pages::new("inspected");
    pages.page("all.json", 0..150, None);
    let first = pages.page("first.json", 0..60, Some("second"));
    let second = pages.page("second.json", 60..90, None);
    // A captured listing is one page; a live upstream's pages are as it pages.
    let captured = first_page_inspected(&["--catalog", "all.json"], &[], pages.dir()).await;
    assert_eq!(captured["tools"].as_array().unwrap().len(), 150);
    assert!(captured.get("nextCursor").is_none(), "{captured}");
    let script = listing();
    let live = ["--", "sh", "-c", &script, "sh", &first, &second];
    let live = first_page_inspected(&[], &live, pages.dir()).await;
    assert_eq!(live["tools"].as_array().unwrap().len(), 60);
    assert!(live["nextCursor"].is_string(), "{live}");
}
