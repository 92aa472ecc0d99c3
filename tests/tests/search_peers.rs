//! `eval`'s searches against the packages they follow, on every real catalog in
//! `cli/tests/init/` (excerpts of twenty-odd public MCP servers), for queries made of each
//! tool's name and first sentence, the tasks files written as users ask, and words that
//! need NFKC and case folding:
//!
//! * `--search fastmcp` ranks every tool exactly as FastMCP's `BM25SearchTransform` does
//!   (`tests/python/fastmcp_rank.py`);
//! * `--search embedding` finds the similarities WordLlama's own `embed` and
//!   `vector_similarity` find, from the weights and tokenizer its wheel ships
//!   (`tests/python/wordllama_similarity.py`).
//!
//! Both packages are pinned in `tests/python/requirements.txt`. `.ci/run` installs them into
//! a virtual environment and runs these with `--ignored` and `MCP_TAILOR_PYTHON`.

use mcp_tailor::inspect::eval::{EmbeddingModel, FastmcpSearch, Search, SearchEntry};
use mcp_tailor_test_support::workspace;
use serde_json::{Value, json};
use std::io::Write as _;
use std::process::{Command, Stdio};

/// What `tests/python/SCRIPT ARGS…` writes for `input` on its stdin, as JSON.
fn python(script: &str, args: &[&str], input: &Value) -> Value {
    let python = std::env::var("MCP_TAILOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = workspace().join("tests/python").join(script);
    let mut child = Command::new(&python)
        .arg(&script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("running {python}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{} failed", script.display());
    serde_json::from_slice(&output.stdout).unwrap()
}

/// What FastMCP returns for each query over `tools`: names, best first.
fn fastmcp_ranks(tools: &[Value], queries: &[String]) -> Vec<Vec<String>> {
    let ranks = python(
        "fastmcp_rank.py",
        &[],
        &json!({"tools": tools, "queries": queries}),
    );
    serde_json::from_value(ranks).unwrap()
}

/// Every real catalog's tools, by file.
fn catalogs() -> Vec<(String, Vec<Value>)> {
    let dir = workspace().join("cli/tests/init");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "{} catalogs", paths.len());
    paths
        .into_iter()
        .map(|path| {
            let listing: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, listing["tools"].as_array().unwrap().clone())
        })
        .collect()
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
    let tasks = task_queries();
    let (mut compared, mut returned) = (0, 0);
    for (name, tools) in catalogs() {
        let mut asked = queries(&tools);
        asked.extend(tasks.iter().cloned());
        let entries: Vec<SearchEntry> = tools.iter().filter_map(SearchEntry::from_tool).collect();
        let search = FastmcpSearch::new(&entries);
        let theirs = fastmcp_ranks(&tools, &asked);
        for (query, theirs) in asked.iter().zip(theirs) {
            let ours: Vec<&str> = search
                .rank(query)
                .into_iter()
                .map(|i| entries[i].name.as_str())
                .collect();
            assert_eq!(ours, theirs, "{name}: {query:?}");
            compared += 1;
            returned += ours.len();
        }
    }
    println!("{compared} queries, {returned} ranks agree");
    assert!(compared > 500 && returned > compared);
}

#[test]
#[ignore = "needs WordLlama: .ci/run installs it and sets MCP_TAILOR_PYTHON"]
fn wordllama_finds_the_similarities_the_embedding_search_finds() {
    let folder = std::env::var("MCP_TAILOR_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let output = Command::new(&folder)
        .arg(workspace().join("tests/python/wordllama_similarity.py"))
        .output()
        .unwrap();
    let folder = String::from_utf8(output.stdout).unwrap();
    let model = EmbeddingModel::load(folder.trim()).unwrap();
    assert_eq!(model.dimensions(), 256);
    let search = Search::Embedding(model.clone());
    let tasks = task_queries();
    let (mut compared, mut worst) = (0, 0.0f32);
    for (name, tools) in catalogs() {
        let mut asked = queries(&tools);
        asked.extend(tasks.iter().cloned());
        let texts: Vec<String> = tools
            .iter()
            .filter_map(SearchEntry::from_tool)
            .map(|entry| search.text(&entry))
            .collect();
        let theirs: Vec<Vec<f32>> = serde_json::from_value(python(
            "wordllama_similarity.py",
            &["similarities"],
            &json!({"texts": texts, "queries": asked}),
        ))
        .unwrap();
        let embedded: Vec<Vec<f32>> = texts.iter().map(|t| model.embed(t)).collect();
        for (query, theirs) in asked.iter().zip(theirs) {
            let query_vector = model.embed(query);
            for (text, their) in embedded.iter().zip(theirs) {
                let ours = EmbeddingModel::similarity(&query_vector, text);
                let off = (ours - their).abs();
                worst = worst.max(off);
                assert!(
                    off < 1e-4,
                    "{name}: {query:?}: ours {ours}, WordLlama's {their}"
                );
                compared += 1;
            }
        }
    }
    println!("{compared} similarities agree within {worst:e}");
    assert!(compared > 5_000);
}
