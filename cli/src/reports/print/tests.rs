//! Each report as it prints: findings a line each with their count (and the exit code they
//! make), JSON that parses, a tasks file's mistakes as the error.

use super::*;
use crate::reports::parse;
use mcp_tailor::mcp_tool;
use mcp_tailor::server::CallContext;

/// Pay a supplier's invoice: its terse levels lose the words a user asks with.
#[mcp_tool(
    name = "settle",
    description = [(verbosity(0..=3), "Settle up."), (verbosity(4..=9), "Pay a supplier invoice by bank transfer.")],
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read only through its schema
struct Settle {
    /// The invoice's id.
    id: u64,
}

/// Show the customers.
#[mcp_tool(name = "list_customers", description = "Show the customers.")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListCustomers {}

fn server() -> Server {
    Server::builder()
        .tool(|_: Settle, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .tool(|_: ListCustomers, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .build()
        .unwrap()
}

/// A tasks file in the temporary directory, removed when dropped.
struct TasksFile(std::path::PathBuf);

impl TasksFile {
    fn new(name: &str, text: &str) -> TasksFile {
        let path =
            std::env::temp_dir().join(format!("mcp-tailor-cli-{}-{name}.toml", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TasksFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TasksFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const TASKS: &str = "[[task]]\nquery = \"pay the invoice from our supplier\"\nexpect = \"settle\"\n\n\
                     [[task]]\nquery = \"show all customers\"\nexpect = \"list_customers\"\n";

async fn printed(line: &str) -> Result<Printed, String> {
    let request = parse("test", line.split_whitespace().map(str::to_owned)).unwrap();
    run(&server(), &request).await
}

#[tokio::test]
async fn eval_prints_each_finding_and_their_count() {
    let tasks = TasksFile::new("findings", TASKS);
    let text = printed(&format!("eval --tasks {} --floor 0.9", tasks.path()))
        .await
        .unwrap();
    assert!(text.findings, "{}", text.text);
    assert!(text.text.ends_with("\neval: 2 findings"), "{}", text.text);
    assert!(
        text.text.contains(
            "\nsettle search text [-@0..=3]: \"pay the invoice from our supplier\" is not in the \
             top 8 at level 0..=3 but ranks 1 at level 4"
        ),
        "{}",
        text.text
    );
    // Without the floor, the one lost tool; as JSON, the same finding in `findings`.
    let json = printed(&format!("eval --tasks {} --json", tasks.path()))
        .await
        .unwrap();
    assert!(json.findings);
    let json: Value = serde_json::from_str(&json.text).unwrap();
    assert_eq!(json["findings"].as_array().unwrap().len(), 1, "{json}");
    assert_eq!(json["k"], 8);
    // A task both levels find: no findings, exit 0.
    let clean = TasksFile::new(
        "clean",
        "[[task]]\nquery = \"show all customers\"\nexpect = \"list_customers\"\n",
    );
    let clean = printed(&format!("eval --tasks {}", clean.path()))
        .await
        .unwrap();
    assert!(!clean.findings, "{}", clean.text);
    assert!(clean.text.ends_with("eval: no findings"), "{}", clean.text);
}

#[tokio::test]
async fn what_cannot_be_reported_is_the_error() {
    let wrong = TasksFile::new(
        "wrong",
        "[[task]]\nquery = \"pay\"\nexpect = \"pay_bill\"\n",
    );
    let error = printed(&format!("eval --tasks {}", wrong.path()))
        .await
        .unwrap_err();
    assert_eq!(
        error,
        format!(
            "{}:3:10: `expect` names `pay_bill`, which the catalog does not list; its tools: \
             list_customers, settle",
            wrong.path()
        )
    );
    let unread = printed("eval --tasks /nonexistent/tasks.toml")
        .await
        .unwrap_err();
    assert!(
        unread.starts_with("/nonexistent/tasks.toml: cannot read"),
        "{unread}"
    );
}

#[tokio::test]
async fn lint_counts_its_findings_and_says_when_there_are_none() {
    let clean = printed("lint").await.unwrap();
    assert!(!clean.findings, "{}", clean.text);
    assert_eq!(clean.text, "lint: no findings (2 tools, 1 reader classes)");
    let over = printed("lint --budget 9=2").await.unwrap();
    assert!(over.findings);
    assert_eq!(over.text.lines().count(), 3, "{}", over.text);
    assert!(over.text.ends_with("\nlint: 2 findings"), "{}", over.text);
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
