//! `eval --search fastmcp` against FastMCP itself: on every real catalog in
//! `cli/tests/init/` (excerpts of twenty-odd public MCP servers), for queries made of each
//! tool's name and first sentence, the tasks files written as users ask, and words that
//! need NFKC and case folding, the port ranks every tool exactly as FastMCP's
//! `BM25SearchTransform` does (`tests/python/fastmcp_rank.py`, FastMCP pinned in
//! `tests/python/requirements.txt`). `.ci/run` installs it into a virtual environment and
//! runs this with `--ignored` and `MCP_TAILOR_PYTHON`.

use mcp_tailor::inspect::eval::{FastmcpSearch, SearchEntry};
use mcp_tailor_test_support::workspace;
use serde_json::{Value, json};
use std::io::Write as _;
use std::process::{Command, Stdio};

/// What FastMCP returns for each query over `tools`: names, best first.
fn fastmcp_ranks(tools: &[Value], queries: &[String]) -> Vec<Vec<String>> {
    let python = std::env::var("MCP_TAILOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = workspace().join("tests/python/fastmcp_rank.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("running {python}: {e}"));
    let input = json!({"tools": tools, "queries": queries}).to_string();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "FastMCP's ranking failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Queries over `tools`: each name in words, each description's first sentence, and a few
/// that only NFKC and case folding make match.
fn queries(tools: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for tool in tools {
        out.push(tool["name"].as_str().unwrap().replace(['_', '-'], " "));
        if let Some(description) = tool["description"].as_str() {
            let first = description.split(". ").next().unwrap_or_default();
            out.push(
                first
                    .split_whitespace()
                    .take(14)
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
    }
    out.extend(
        [
            "READ the FILE ①",
            "ＦＩＬＥ ｓｅａｒｃｈ", // full-width forms: NFKC makes them ASCII
            "Straße ﬁle créer",      // ß folds to ss; the ligature ﬁ is fi
            "x y z",                 // one-letter words are no words
            "",
        ]
        .map(str::to_owned),
    );
    out
}

/// The tasks files' queries.
fn task_queries() -> Vec<String> {
    let mut out = Vec::new();
    for name in ["filesystem-tasks.toml", "github-tasks.toml"] {
        let text = std::fs::read_to_string(workspace().join("cli/tests/init").join(name)).unwrap();
        let file: toml::Value = toml::from_str(&text).unwrap();
        for task in file["task"].as_array().unwrap() {
            out.push(task["query"].as_str().unwrap().to_owned());
        }
    }
    out
}

#[test]
#[ignore = "needs FastMCP: .ci/run installs it and sets MCP_TAILOR_PYTHON"]
fn fastmcp_ranks_every_real_catalog_as_the_port_does() {
    let dir = workspace().join("cli/tests/init");
    let mut catalogs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    catalogs.sort();
    assert!(catalogs.len() >= 20, "{} catalogs", catalogs.len());
    let tasks = task_queries();
    let (mut compared, mut returned) = (0, 0);
    for path in catalogs {
        let listing: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let tools = listing["tools"].as_array().unwrap();
        let mut asked = queries(tools);
        asked.extend(tasks.iter().cloned());
        let entries: Vec<SearchEntry> = tools.iter().filter_map(SearchEntry::from_tool).collect();
        let search = FastmcpSearch::new(&entries);
        let theirs = fastmcp_ranks(tools, &asked);
        for (query, theirs) in asked.iter().zip(theirs) {
            let ours: Vec<&str> = search
                .rank(query)
                .into_iter()
                .map(|i| entries[i].name.as_str())
                .collect();
            assert_eq!(ours, theirs, "{}: {query:?}", path.display());
            compared += 1;
            returned += ours.len();
        }
    }
    println!("{compared} queries, {returned} ranks agree");
    assert!(compared > 500 && returned > compared);
}
