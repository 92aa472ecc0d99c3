//! `mcp-tailor init` on the catalogs of two real servers nobody here wrote, captured from
//! pinned npm packages (`tests/init/server-*.json`: `@modelcontextprotocol/server-filesystem`
//! 2026.8.31 and `server-github` 2025.4.8, their raw `tools/list` results), with tasks
//! written as users ask (`tests/init/*-tasks.toml`); and (`drafts`) the servers where
//! drafts once read broken.
//! `.ci/run` also runs `init` on live servers (`tests/third_party.rs` in the tests crate).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-tailor");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/init")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn out_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "mcp-tailor-init-{}-{name}.toml",
        std::process::id()
    ))
}

/// `init` on `server`, with its tasks when `tasks`: the draft's path and the command's
/// stderr (the cost table).
fn init(server: &str, tasks: bool) -> (PathBuf, String) {
    let catalog = fixture(&format!("server-{server}.json"));
    let tasks_file = fixture(&format!("{server}-tasks.toml"));
    let out = out_file(&format!("{server}-{tasks}"));
    let table = init_catalog(&catalog, &out, tasks.then_some(tasks_file.as_path()));
    (out, table)
}

/// `init --catalog catalog --out out [--tasks tasks]`, which succeeds: its stderr (the
/// cost table).
fn init_catalog(catalog: &Path, out: &Path, tasks: Option<&Path>) -> String {
    let mut args = vec![
        "init",
        "--catalog",
        catalog.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(tasks) = tasks {
        args.extend(["--tasks", tasks.to_str().unwrap()]);
    }
    let output = run(&args);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// What `inspect list` serves of `catalog` through `draft` at `level`: the `tools/list`
/// result, as JSON text.
fn served(draft: &Path, catalog: &Path, level: &str) -> String {
    let output = run(&[
        "inspect",
        "--tailoring",
        draft.to_str().unwrap(),
        "--catalog",
        catalog.to_str().unwrap(),
        "list",
        "--verbosity",
        level,
    ]);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The `n`th column of a table's row for `level` (the cost table, `inspect tokens`).
fn column(table: &str, level: usize, n: usize) -> &str {
    table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&level.to_string()))
        .and_then(|row| row.split_whitespace().nth(n))
        .unwrap_or_else(|| panic!("no row {level}: {table}"))
}

/// The saving the cost table prints for `level`, in percent.
fn saving(table: &str, level: usize) -> f64 {
    column(table, level, 3)
        .trim_end_matches('%')
        .parse()
        .unwrap()
}

#[test]
fn the_draft_passes_check_and_makes_the_terse_levels_cheaper() {
    for (server, floor) in [("filesystem", 8.0), ("github", 15.0)] {
        let (draft, table) = init(server, false);
        let checked = run(&["check", draft.to_str().unwrap()]);
        assert!(checked.status.success(), "{server}: {checked:?}");
        assert!(
            checked.stderr.is_empty(),
            "{server}: no warning: {checked:?}"
        );
        assert!(saving(&table, 0) >= floor, "{server}: {table}");
        assert!(saving(&table, 4) > 0.0, "{server}: {table}");
        assert_eq!(
            saving(&table, 9),
            0.0,
            "{server}: 7..=9 are the server's: {table}"
        );
        assert!(
            table.contains("structure (names, types, no words)"),
            "{table}"
        );
        // Findability beside tokens: the band's tokens are the cost table's.
        let band = table
            .lines()
            .find(|line| line.starts_with("0..=2 "))
            .unwrap_or_else(|| panic!("{table}"));
        assert_eq!(
            band.split_whitespace().nth(1),
            Some(column(&table, 0, 2)),
            "{table}"
        );
        // Deterministic: the same catalog drafts the same file.
        let (again, _) = init(server, false);
        assert_eq!(
            std::fs::read_to_string(&draft).unwrap(),
            std::fs::read_to_string(&again).unwrap()
        );
        std::fs::remove_file(&draft).unwrap();
    }
}

#[test]
fn every_described_argument_is_drafted_by_its_path() {
    let (draft, table) = init("github", false);
    let text = std::fs::read_to_string(&draft).unwrap();
    // Inside an array's items, in both `anyOf` branches that describe it; a fact the name
    // and type do not carry stays, the rest says nothing at 0..=2. An argument whose words
    // are all such facts keeps its own at every level: it is not drafted (`comments[].path`,
    // "The relative path to the file being commented on").
    assert!(
        text.contains("[tools.create_pull_request_review.arguments.\"comments[].body\"]"),
        "{text}"
    );
    assert!(!text.contains("arguments.\"comments[].path\""), "{text}");
    // A fact stays as the server wrote it, its sentence whole (`Results per page (default
    // 30, max 100)`), never gathered into words of the draft's own.
    let first = out_file("github-first");
    drafts::first_draft(&fixture("server-github.json"), &first);
    let first_text = std::fs::read_to_string(&first).unwrap();
    assert!(
        !first_text.contains("Default: 30, max: 100"),
        "{first_text}"
    );
    std::fs::remove_file(&first).unwrap();
    assert!(table.contains("74 arguments"), "{table}");
    // A level 0 reader of the upstream through this file reads no argument description;
    // level 9 reads the server's own.
    let catalog = fixture("server-github.json");
    let list = |level: &str| served(&draft, &catalog, level);
    let terse = list("0");
    assert!(!terse.contains("Text of the review comment"), "{terse}");
    assert!(terse.contains("The relative path to the file being commented on"));
    assert!(list("9").contains("Text of the review comment"));
    std::fs::remove_file(&draft).unwrap();
}

/// With `--tasks`, the draft loses no task the server's own words find: every level finds
/// what level 9 (the server's words) finds, and the file names the words it kept.
#[test]
fn with_tasks_the_draft_loses_no_task() {
    for server in ["filesystem", "github"] {
        let (draft, _) = init(server, true);
        let catalog = fixture(&format!("server-{server}.json"));
        let tasks = fixture(&format!("{server}-tasks.toml"));
        let eval = run(&[
            "inspect",
            "--tailoring",
            draft.to_str().unwrap(),
            "--catalog",
            catalog.to_str().unwrap(),
            "eval",
            "--tasks",
            tasks.to_str().unwrap(),
        ]);
        let report = String::from_utf8_lossy(&eval.stdout);
        assert!(
            eval.status.success() && report.contains("eval: no findings"),
            "{server}: {report}"
        );
        let text = std::fs::read_to_string(&draft).unwrap();
        if server == "filesystem" {
            assert!(text.contains("keep words a search finds it by"), "{text}");
        }
        std::fs::remove_file(&draft).unwrap();
    }
}

#[test]
fn init_needs_a_catalog() {
    let output = run(&["init", "--out", "x.toml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains(
            "give one upstream: `--upstream URL`, `--catalog FILE` or `-- COMMAND ARGS…`"
        )
    );
}

/// A server of one tool with one described argument is counted in the singular, in the
/// cost table, the file's header and `lint`'s summary.
#[test]
fn one_tool_is_counted_as_one() {
    let catalog = out_file("one-tool-catalog");
    let one = serde_json::json!({"tools": [{
        "name": "think",
        "description": "Think one step further about a problem.",
        "inputSchema": {"type": "object", "properties": {
            "thought": {"type": "string", "description": "The next step of the problem, one \
                sentence. Longer thoughts are split by the client into several steps."}
        }}
    }]});
    std::fs::write(&catalog, one.to_string()).unwrap();
    let out = out_file("one-tool");
    let table = init_catalog(&catalog, &out, None);
    assert!(
        table.starts_with("drafted 1 tool and 1 argument of 1 tool;"),
        "{table}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.lines().next().unwrap().ends_with(": 1 tool."),
        "{text}"
    );
    let lint = run(&[
        "inspect",
        "--tailoring",
        out.to_str().unwrap(),
        "--catalog",
        catalog.to_str().unwrap(),
        "lint",
    ]);
    let report = String::from_utf8_lossy(&lint.stdout);
    assert!(report.contains("(1 tool, 1 reader class)"), "{report}");

    std::fs::remove_file(&out).unwrap();
    std::fs::remove_file(&catalog).unwrap();
}

/// The cost table counts the listing as it is served: a tool the server wrote in its own
/// order, with fields rmcp's types do not know, costs at level 9 what `inspect tokens`
/// counts for it (what rmcp's types could not hold is carried with each tool, and not
/// counted as if it were sent).
#[test]
fn the_cost_table_counts_the_listing_as_served() {
    let catalog = out_file("written-catalog");
    std::fs::write(
        &catalog,
        r#"{"tools":[{"inputSchema":{"properties":{"q":{"description":"The query to run against the index.","type":"string"}},"type":"object"},"name":"search","x-vendor":{"rank":1},"execution":{"taskSupport":"forbidden"},"description":"Search the index for documents. Returns the hits, best first."}]}"#,
    )
    .unwrap();
    let out = out_file("written");
    let table = init_catalog(&catalog, &out, None);
    let tokens = run(&["inspect", "--catalog", catalog.to_str().unwrap(), "tokens"]);
    let tokens = String::from_utf8_lossy(&tokens.stdout);
    // The cost table's "before" at level 9; `tokens`'s count.
    assert_eq!(
        column(&table, 9, 1),
        column(&tokens, 9, 1),
        "{table}\n{tokens}"
    );
    // And what is counted is the tool as written, every field in its place.
    let listed = run(&[
        "inspect",
        "--catalog",
        catalog.to_str().unwrap(),
        "list",
        "--verbosity",
        "9",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout).trim_end(),
        std::fs::read_to_string(&catalog).unwrap()
    );
    std::fs::remove_file(&out).unwrap();
    std::fs::remove_file(&catalog).unwrap();
}

#[path = "init/drafts.rs"]
mod drafts;
#[path = "init/words.rs"]
mod words;

/// `--fit` holds a band's `tools/list` to a budget, or names the structure floor under it.
#[test]
fn fit_holds_the_terse_levels_to_a_budget_or_names_the_floor() {
    let catalog = fixture("server-filesystem.json");
    let catalog = catalog.to_str().unwrap();
    let out = out_file("filesystem-fit");
    let fitted = run(&[
        "init",
        "--catalog",
        catalog,
        "--out",
        out.to_str().unwrap(),
        "--fit",
        "0..=2=2000",
    ]);
    assert!(fitted.status.success(), "{fitted:?}");
    let table = String::from_utf8_lossy(&fitted.stderr);
    let tokens: usize = column(&table, 0, 2).parse().unwrap();
    assert!(tokens <= 2000, "{table}");
    assert!(run(&["check", out.to_str().unwrap()]).status.success());
    std::fs::remove_file(&out).unwrap();
    let under = run(&["init", "--catalog", catalog, "--fit", "0..=2=1000"]);
    assert_eq!(under.status.code(), Some(1), "{under:?}");
    assert!(
        String::from_utf8_lossy(&under.stderr)
            .contains("structure alone (names, types, `required`, no words) costs 1422 tokens"),
        "{under:?}"
    );
    let split = run(&["init", "--catalog", catalog, "--fit", "0..=3=2000"]);
    assert_eq!(split.status.code(), Some(2), "{split:?}");
    assert!(String::from_utf8_lossy(&split.stderr).contains("0..=2, 3..=6 or 0..=6"));
}
