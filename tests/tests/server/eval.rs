//! `inspect eval`: it agrees rank for rank with the Codex CLI's tool search written out
//! directly, on a 120-tool catalog listed in two pages; it flags the words a terser level
//! lost on a catalog built to lose them; its JSON has the documented keys.

use bm25::{Document, Language, SearchEngineBuilder};
use mcp_tailor::FileError;
use mcp_tailor::inspect::eval::{self, Evaluation, Tasks};
use mcp_tailor::inspect::{CallerCatalog, InspectError, Inspection, ReaderClass};
use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, Principal, Server};
use serde_json::Value;

include!(concat!(env!("OUT_DIR"), "/eval_catalog_120.rs"));

/// A tasks file in the temporary directory, removed when dropped.
struct TasksFile(std::path::PathBuf);

impl TasksFile {
    fn new(name: &str, tasks: &[(&str, &str)]) -> TasksFile {
        let mut text = String::new();
        for (query, expect) in tasks {
            text.push_str(&format!(
                "[[task]]\nquery = {query:?}\nexpect = {expect:?}\n\n"
            ));
        }
        TasksFile::raw(name, &text)
    }

    fn raw(name: &str, text: &str) -> TasksFile {
        let path =
            std::env::temp_dir().join(format!("mcp-tailor-{}-{name}.toml", std::process::id()));
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

/// `eval` of `server`'s catalog (an anonymous caller on 2025-11-25) for the tasks file,
/// ranked by the Codex CLI's search.
async fn evaluate(
    server: &Server,
    tasks: &TasksFile,
    k: usize,
) -> Result<Evaluation, InspectError> {
    let tasks = Tasks::load(tasks.path()).map_err(InspectError::Tasks)?;
    let mut evaluations = Inspection::new(server, Principal::anonymous(), "2025-11-25")
        .eval(&tasks, Some(k), &[eval::Search::Codex])
        .await?;
    Ok(evaluations.remove(0))
}

/// The Codex CLI's procedure, written out over one listing: tools whose lower-cased name is
/// a query word or ends in `_word` first (catalog order), then the `bm25` crate's matches
/// over name, title, description and sorted property keys, by falling score (catalog order
/// on a tie).
struct Reference {
    names: Vec<String>,
    engine: bm25::SearchEngine<usize>,
}

impl Reference {
    fn new(tools: &[Value]) -> Reference {
        let texts: Vec<String> = tools
            .iter()
            .map(|t| {
                let mut parts = vec![t["name"].as_str().unwrap().to_owned()];
                for key in ["title", "description"] {
                    if let Some(s) = t[key].as_str().filter(|s| !s.trim().is_empty()) {
                        parts.push(s.trim().to_owned());
                    }
                }
                let mut keys: Vec<String> = t["inputSchema"]["properties"]
                    .as_object()
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                keys.sort();
                parts.extend(keys);
                parts.join(" ")
            })
            .collect();
        Reference {
            names: tools
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_owned())
                .collect(),
            engine: SearchEngineBuilder::<usize>::with_documents(
                Language::English,
                texts
                    .iter()
                    .enumerate()
                    .map(|(i, t)| Document::new(i, t.clone())),
            )
            .build(),
        }
    }

    fn rank(&self, query: &str, expect: &str) -> Option<u64> {
        let words: Vec<String> = query
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let mut out: Vec<usize> = (0..self.names.len())
            .filter(|&i| {
                let n = self.names[i].to_ascii_lowercase();
                words
                    .iter()
                    .any(|w| n == *w || n.ends_with(&format!("_{w}")))
            })
            .collect();
        let mut results = self.engine.search(query, self.names.len());
        results.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.document.id.cmp(&b.document.id))
        });
        for result in results {
            if !out.contains(&result.document.id) {
                out.push(result.document.id);
            }
        }
        out.iter()
            .position(|&i| self.names[i] == expect)
            .map(|at| at as u64 + 1)
    }
}

#[tokio::test]
async fn eval_agrees_rank_for_rank_with_the_codex_tool_search_written_out() {
    let server = eval_server();
    let tasks = TasksFile::new("agree", EVAL_TASKS);
    let evaluation = evaluate(&server, &tasks, eval::CODEX_LIMIT).await.unwrap();
    let report = eval::json(&evaluation, &[]);
    let readers = report["readers"].as_object().unwrap();
    assert_eq!(
        readers.keys().collect::<Vec<_>>(),
        ["-", "codex", "codex/5.4", "grok"]
    );
    let catalog = CallerCatalog::new(&server, Principal::anonymous(), "2025-11-25");
    let (mut compared, mut found, mut missed) = (0, 0, 0);
    for (label, levels) in readers {
        let class = ReaderClass::parse(label);
        for (level, row) in levels.as_array().unwrap().iter().enumerate() {
            let pages = catalog.pages(class.reader(level as u8)).await.unwrap();
            assert_eq!(pages.len(), 2, "120 tools list in two pages of 100");
            let tools: Vec<Value> = pages
                .iter()
                .flat_map(|p| {
                    serde_json::from_str::<Value>(p).unwrap()["tools"]
                        .as_array()
                        .unwrap()
                        .clone()
                })
                .collect();
            assert_eq!(tools.len(), 120);
            let reference = Reference::new(&tools);
            for (task, (query, expect)) in row["tasks"].as_array().unwrap().iter().zip(EVAL_TASKS) {
                assert_eq!(task["query"], *query);
                let rank = reference.rank(query, expect);
                assert_eq!(
                    task["rank"].as_u64(),
                    rank,
                    "{label} level {level}: {query:?}"
                );
                compared += 1;
                if rank.is_some() {
                    found += 1
                } else {
                    missed += 1
                }
            }
        }
    }
    assert_eq!(compared, 4 * 10 * EVAL_TASKS.len());
    // Both outcomes occur, so the comparison covers ranked and unreturned tools alike.
    assert!(found > 0 && missed > 0, "found {found}, missed {missed}");
}

/// Pay a supplier's invoice.
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
#[mcp_tool(name = "list_customers")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListCustomers {}

fn broken() -> Server {
    Server::builder()
        .tool(|_: Settle, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .tool(|_: ListCustomers, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .build()
        .unwrap()
}

#[tokio::test]
async fn eval_names_the_words_a_terser_level_lost() {
    let server = broken();
    let tasks = TasksFile::new(
        "broken",
        &[
            ("pay the invoice from our supplier", "settle"),
            ("show all customers", "list_customers"),
        ],
    );
    let evaluation = evaluate(&server, &tasks, eval::CODEX_LIMIT).await.unwrap();
    let lost: Vec<String> = eval::lost_at_terser_levels(&evaluation)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lost,
        [
            "settle search text (codex) [-@0..=3]: \"pay the invoice from our supplier\" is not in the top 8 at level 0..=3 \
          but ranks 1 at level 4; the text there no longer contains `pay`, `invoice`, `supplier`"
        ]
    );
    let below: Vec<String> = eval::below_floor(&evaluation, 0.9)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        below,
        [
            "(catalog) hit@1 [-]: 0.50 at level 0, 0.50 at level 1, 0.50 at level 2, 0.50 at level 3 is below the floor 0.9"
        ]
    );

    let top_1 = evaluate(&server, &tasks, 1).await.unwrap();
    let lost_at_1: Vec<String> = eval::lost_at_terser_levels(&top_1)
        .iter()
        .map(ToString::to_string)
        .collect();
    let json = eval::json(&top_1, &lost_at_1);
    assert_eq!(json["k"], 1);
    let levels = json["readers"]["-"].as_array().unwrap();
    let mut keys: Vec<&str> = levels[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        ["hit_at_1", "hit_at_k", "level", "mrr", "tasks", "tokens"]
    );
    assert_eq!(levels[0]["tasks"][0]["rank"], Value::Null);
    assert_eq!(levels[9]["tasks"][0]["rank"], 1);
    assert_eq!(levels[9]["hit_at_1"], 1.0);
    assert_eq!(levels[0]["hit_at_1"], 0.5);
    assert_eq!(levels[0]["mrr"], 0.5);
    assert!(levels[0]["tokens"].as_u64().unwrap() < levels[9]["tokens"].as_u64().unwrap());
    assert_eq!(json["findings"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn eval_reports_every_mistake_in_the_tasks_file_with_its_place() {
    let server = broken();
    let tasks = TasksFile::raw(
        "mistakes",
        "[[task]]\nquery = \"pay\"\nexpect = \"pay_bill\"\nreaders = [\"codex\"]\n",
    );
    let Err(InspectError::Tasks(errors)) = evaluate(&server, &tasks, 8).await else {
        panic!("the tasks file's mistakes are errors");
    };
    let path = tasks.path();
    let FileError::Invalid(found) = &errors else {
        panic!("mistakes, not a read error: {errors}");
    };
    assert_eq!(found.len(), 2, "one diagnostic a mistake");
    assert_eq!((found[0].at.line, found[0].at.column), (3, 10));
    assert_eq!(
        errors.to_string(),
        format!(
            "{path}:3:10: `expect` names `pay_bill`, which the catalog does not list; its tools: list_customers, settle\n\
             {path}:4:12: reader `codex` is no reader class of this catalog; its classes: -"
        )
    );
    let unread = Tasks::load("/nonexistent/tasks.toml").err().unwrap();
    assert!(matches!(unread, FileError::Read { .. }), "{unread}");
    assert!(
        unread
            .to_string()
            .starts_with("/nonexistent/tasks.toml: cannot read"),
        "{unread}"
    );
}
