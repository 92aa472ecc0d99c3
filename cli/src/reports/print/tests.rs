//! Each report as it prints: findings a line each with their count (and the exit code they
//! make), JSON that parses, a tasks file's mistakes as the error.

use super::*;
use crate::reports::parse;
use mcp_tailor::mcp_tool;
use mcp_tailor::server::CallContext;

/// Put a finished project away: its terse levels lose the words a user asks with.
#[mcp_tool(
    name = "shelve",
    description = [(verbosity(0..=5), "Shelve."), (verbosity(6..=9), "Store a finished project's files in the archive.")],
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read only through its schema
struct Shelve {
    /// Which one.
    id: u64,
}

/// Open a ticket.
#[mcp_tool(name = "open_ticket", description = "Open a support ticket.")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct OpenTicket {}

fn server() -> Server {
    let done = || async { Ok::<_, String>(serde_json::json!({})) };
    Server::builder()
        .tool(move |_: Shelve, _: CallContext| done())
        .tool(move |_: OpenTicket, _: CallContext| done())
        .build()
        .unwrap()
}

/// `text` written as the tasks file `name` in the temporary directory; its path.
fn tasks_file(name: &str, text: &str) -> String {
    let path =
        std::env::temp_dir().join(format!("mcp-tailor-cli-{}-{name}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const TASKS: &str = "[[task]]\nquery = \"store the finished project in the archive\"\n\
                     expect = \"shelve\"\n\n\
                     [[task]]\nquery = \"open a support ticket\"\nexpect = \"open_ticket\"\n";

async fn printed(line: &str) -> Result<Printed, crate::CommandError> {
    let request = parse("test", line.split_whitespace().map(str::to_owned)).unwrap();
    run(&server(), &request).await
}

#[tokio::test]
async fn eval_prints_each_finding_and_their_count() {
    let tasks = tasks_file("findings", TASKS);
    let text = printed(&format!("eval --tasks {tasks} --floor 0.9"))
        .await
        .unwrap();
    assert!(text.findings, "{}", text.text);
    assert!(text.text.ends_with("\neval: 2 findings"), "{}", text.text);
    assert!(
        text.text.contains(
            "\nshelve search text (codex) [-@0..=5]: \"store the finished project in the archive\" is not \
             in the top 8 at level 0..=5 but ranks 1 at level 6"
        ),
        "{}",
        text.text
    );
    // Without the floor, the one lost tool; as JSON, the same finding in `findings`.
    let json = printed(&format!("eval --tasks {tasks} --json"))
        .await
        .unwrap();
    assert!(json.findings);
    let json: Value = serde_json::from_str(&json.text).unwrap();
    assert_eq!(json["findings"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["k"], 8);
    // A task both levels find: no findings, exit 0.
    let found = tasks_file(
        "clean",
        "[[task]]\nquery = \"open a support ticket\"\nexpect = \"open_ticket\"\n",
    );
    let clean = printed(&format!("eval --tasks {found}")).await.unwrap();
    assert!(!clean.findings, "{}", clean.text);
    assert!(clean.text.ends_with("eval: no findings"), "{}", clean.text);
    for file in [tasks, found] {
        let _ = std::fs::remove_file(file);
    }
}

#[tokio::test]
async fn what_cannot_be_reported_is_the_error() {
    let wrong = tasks_file(
        "wrong",
        "[[task]]\nquery = \"pay\"\nexpect = \"pay_bill\"\n",
    );
    let error = printed(&format!("eval --tasks {wrong}"))
        .await
        .unwrap_err()
        .to_string();
    let _ = std::fs::remove_file(&wrong);
    assert_eq!(
        error,
        format!(
            "{wrong}:3:10: `expect` names `pay_bill`, which the catalog does not list; its \
             tools: open_ticket, shelve"
        )
    );
    let unread = printed("eval --tasks /nonexistent/tasks.toml")
        .await
        .unwrap_err()
        .to_string();
    assert!(
        unread.starts_with("/nonexistent/tasks.toml: cannot read"),
        "{unread}"
    );
}

#[tokio::test]
async fn lint_counts_its_findings_and_says_when_there_are_none() {
    let clean = printed("lint").await.unwrap();
    assert!(!clean.findings, "{}", clean.text);
    assert_eq!(clean.text, "lint: no findings (2 tools, 1 reader class)");
    let over = printed("lint --budget 9=2").await.unwrap();
    assert!(over.findings);
    assert_eq!(over.text.lines().count(), 3, "{}", over.text);
    assert!(over.text.ends_with("\nlint: 2 findings"), "{}", over.text);
    let one = printed("lint --budget 9=7").await.unwrap();
    assert!(one.text.ends_with("\nlint: 1 finding"), "{}", one.text);
}

#[tokio::test]
async fn list_pretty_is_the_same_result_indented() {
    let compact = printed("list --verbosity 0").await.unwrap().text;
    let pretty = printed("list --verbosity 0 --pretty").await.unwrap().text;
    assert!(pretty.contains("\n  \"tools\": ["), "{pretty}");
    assert_eq!(
        serde_json::from_str::<Value>(&compact).unwrap(),
        serde_json::from_str::<Value>(&pretty).unwrap()
    );
    let tokens: Value =
        serde_json::from_str(&printed("tokens --json").await.unwrap().text).unwrap();
    assert_eq!(tokens["-"][0]["bytes"], compact.len());
}
