//! `mcp-tailor init` on the catalogs of two real servers nobody here wrote, captured from
//! pinned npm packages (`tests/init/server-*.json`: `@modelcontextprotocol/server-filesystem`
//! 2026.8.31 and `server-github` 2025.4.8, their raw `tools/list` results), with tasks
//! written as users ask (`tests/init/*-tasks.toml`); and seven where drafts once read
//! broken (`context7-mcp.json`: npm `@upstash/context7-mcp` 4.1.1; excerpts, some tools
//! each: `notion-mcp-server-excerpt.json`, `@notionhq/notion-mcp-server` 2.5.2;
//! `chrome-devtools-mcp-excerpt.json`, `chrome-devtools-mcp` 1.11.0;
//! `desktop-commander-excerpt.json`, `@wonderwhy-er/desktop-commander` 0.2.52;
//! `mcp-server-kubernetes-excerpt.json`, `mcp-server-kubernetes` 4.1.7;
//! `arxiv-mcp-server-excerpt.json`, PyPI `arxiv-mcp-server` 0.8.2;
//! `mcp-atlassian-excerpt.json`, PyPI `mcp-atlassian` 0.23.1).
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
    for (server, floor) in [("filesystem", 25.0), ("github", 20.0)] {
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
    assert!(text.contains("text = \"default: 30, max: 100\""), "{text}");
    assert!(table.contains("82 arguments"), "{table}");
    // A level 0 reader of the upstream through this file reads no argument description;
    // level 9 reads the server's own.
    let catalog = fixture("server-github.json");
    let list = |level: &str| {
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
    };
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
            assert!(
                text.contains("keep words a task of the tasks file finds it by"),
                "{text}"
            );
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
            "thought": {"type": "string", "description": "The step, in a sentence or two."}
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

/// Every text a draft gives, as written in its TOML (`text = "…"`).
fn drafted_texts(draft: &str) -> Vec<String> {
    draft
        .split("text = \"")
        .skip(1)
        .map(|rest| {
            // The string up to its closing quote, its escapes (`\"`) read as TOML's basic
            // strings and JSON's share them.
            let mut escaped = false;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    let closing = c == '"' && !escaped;
                    escaped = c == '\\' && !escaped;
                    closing
                })
                .map_or(rest.len(), |(at, _)| at);
            serde_json::from_str(&format!("\"{}\"", &rest[..end])).unwrap()
        })
        .collect()
}

/// Every word of every text in a captured catalog, its marks and punctuation trimmed.
fn catalog_words(catalog: &Path) -> std::collections::HashSet<String> {
    fn walk(value: &serde_json::Value, out: &mut std::collections::HashSet<String>) {
        match value {
            serde_json::Value::String(text) => out.extend(text.split_whitespace().map(word)),
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            serde_json::Value::Object(map) => map.values().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let value = serde_json::from_str(&std::fs::read_to_string(catalog).unwrap()).unwrap();
    let mut out = std::collections::HashSet::new();
    walk(&value, &mut out);
    out
}

/// `text` without its ` (…)` asides.
fn without_asides(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" (") {
        out.push_str(&rest[..at]);
        rest = match rest[at..].find(')') {
            Some(end) => &rest[at + end + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// In a drafted file: no two tools read the same terse text (@hubspot/mcp-server's read
/// "🎯 Purpose: 1." and "🛡️ Guardrails: 1."; seven of 21 would read "This tool modifies
/// HubSpot data." had their shared warning led), and what an argument's terse text states
/// its middle one states too (server-puppeteer's `launchOptions`: "If changed and not
/// null, browser restarts" was said at no level below 7).
fn levels_tell_tools_apart_and_keep_facts(catalog: &str, draft: &str) {
    let file: toml::Table = draft.parse().unwrap();
    let text = |levels: &toml::Value, verbosity: &str| {
        levels.get("levels")?.as_array()?.iter().find_map(|level| {
            (level.get("verbosity")?.as_str()? == verbosity)
                .then(|| level.get("text")?.as_str().map(str::to_owned))?
        })
    };
    let mut terse: Vec<String> = Vec::new();
    for tool in file["tools"].as_table().unwrap().values() {
        if let Some(description) = tool.get("description") {
            let said = text(description, "0..=2").or_else(|| text(description, "0..=6"));
            terse.extend(said);
        }
        let arguments = tool.get("arguments").and_then(toml::Value::as_table);
        for argument in arguments.into_iter().flat_map(|a| a.values()) {
            let description = &argument["description"];
            let (Some(facts), Some(middle)) =
                (text(description, "0..=2"), text(description, "3..=6"))
            else {
                continue;
            };
            for said in facts.split_whitespace().map(word) {
                assert!(
                    middle.split_whitespace().map(word).any(|w| w == said),
                    "{catalog}: {said:?} of {facts:?} not in {middle:?}"
                );
            }
        }
    }
    let mut distinct = terse.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), terse.len(), "{catalog}: {terse:#?}");
}

/// A word without the marks and punctuation around it.
fn word(text: &str) -> String {
    text.trim_matches(|c: char| ",.;:()[]{}*`'\"!?".contains(c))
        .to_owned()
}

/// Servers' own words (captured from context7, notion, chrome-devtools-mcp 1.11.0,
/// desktop-commander 0.2.52, mcp-server-kubernetes 4.1.7, arxiv-mcp-server 0.8.2,
/// mcp-atlassian 0.23.1, firecrawl-mcp 3.22.2, @brave/brave-search-mcp-server 2.1.4,
/// @playwright/mcp 0.0.83, excel-mcp-server 2.2.2, @antv/mcp-server-chart 0.9.10,
/// @hubspot/mcp-server 0.4.0, @neondatabase/mcp-server-neon 0.3.7,
/// @modelcontextprotocol/server-puppeteer 2025.5.12, figma-developer-mcp 0.13.2,
/// @azure/mcp 2.0.5, @shopify/dev-mcp 1.16.0) where a draft once read broken.
#[test]
fn drafts_read_whole_where_they_once_broke_off() {
    for catalog in [
        "context7-mcp.json",
        "notion-mcp-server-excerpt.json",
        "chrome-devtools-mcp-excerpt.json",
        "desktop-commander-excerpt.json",
        "mcp-server-kubernetes-excerpt.json",
        "arxiv-mcp-server-excerpt.json",
        "mcp-atlassian-excerpt.json",
        "firecrawl-mcp-excerpt.json",
        "brave-search-mcp-server-excerpt.json",
        "playwright-mcp-excerpt.json",
        "excel-mcp-server-excerpt.json",
        "mcp-server-chart-excerpt.json",
        "hubspot-mcp-server-excerpt.json",
        "mcp-server-neon-excerpt.json",
        "server-puppeteer-excerpt.json",
        "figma-developer-mcp-excerpt.json",
        "azure-mcp-excerpt.json",
        "shopify-dev-mcp-excerpt.json",
    ] {
        let out = out_file(catalog);
        init_catalog(&fixture(catalog), &out, None);
        let draft = std::fs::read_to_string(&out).unwrap();
        let texts = drafted_texts(&draft);
        assert!(texts.len() >= 6, "{catalog}: {draft}");
        let words = catalog_words(&fixture(catalog));
        let written = std::fs::read_to_string(fixture(catalog)).unwrap();
        let written = format!("{written}\n{}", without_asides(&written));
        for text in &texts {
            // A sentence the server wrote whole ends where it ended (its asides dropped).
            let whole = |text: &str| {
                let text = text.trim_end_matches('.');
                [".", "\""]
                    .iter()
                    .any(|end| written.contains(&format!("{text}{end}")))
            };
            let last = text
                .trim_end_matches('.')
                .rsplit(' ')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            // Cut mid-phrase, on a dash, inside a list, a list's heading in the first
            // sentence, a labelled example, a lone condition.
            let dangling = [
                "from", "to", "the", "of", "a", "—", "-", ":", "over", "last", "based", "relevant",
                "commands", "manage", "take",
            ];
            assert!(
                whole(text) || !dangling.contains(&last.as_str()),
                "{catalog}: {text:?}"
            );
            assert!(!text.contains("Error Responses"), "{catalog}: {text:?}");
            assert!(!text.starts_with("Bad"), "{catalog}: {text:?}");
            assert!(!text.starts_with("If not supplied."), "{catalog}: {text:?}");
            // No condition cut off from what it conditions ("If supplied.").
            for sentence in text.split(". ") {
                let words: Vec<&str> = sentence.split_whitespace().collect();
                let condition = words
                    .first()
                    .is_some_and(|first| ["If", "When", "Unless"].contains(first));
                assert!(!(condition && words.len() <= 3), "{catalog}: {text:?}");
            }
            assert!(!text.ends_with("if not provided."), "{catalog}: {text:?}");
            // No aside left open, no word the server did not write (`a.heapsnapshot`,
            // list items run together).
            for (open, close) in [('(', ')'), ('{', '}')] {
                assert_eq!(
                    text.matches(open).count(),
                    text.matches(close).count(),
                    "{catalog}: {text:?}"
                );
            }
            for said in text.split_whitespace().map(word) {
                assert!(words.contains(&said), "{catalog}: {said:?} in {text:?}");
            }
            // No tag the server closes (`<use_case>`).
            for tag in text.split('<').skip(1).filter_map(|t| t.split('>').next()) {
                assert!(
                    !written.contains(&format!("</{tag}>")),
                    "{catalog}: {text:?}"
                );
            }
        }
        levels_tell_tools_apart_and_keep_facts(catalog, &draft);
        // The server's own words, linted: values are no missing arguments; Desktop
        // Commander's `write_file` does word calls with arguments it lacks
        // (`write_file(filePath, firstChunk, …)`; they are `path` and `content`), each
        // named once.
        let linted = run(&[
            "inspect",
            "--tailoring",
            out.to_str().unwrap(),
            "--catalog",
            fixture(catalog).to_str().unwrap(),
            "lint",
        ]);
        let linted = String::from_utf8_lossy(&linted.stdout);
        let named: Vec<&str> = linted
            .lines()
            .filter_map(|line| line.split("names argument `").nth(1)?.split('`').next())
            .collect();
        let lacking: &[&str] = match catalog {
            "desktop-commander-excerpt.json" => {
                &["filePath", "firstChunk", "secondChunk", "nextChunk"]
            }
            _ => &[],
        };
        assert_eq!(named, lacking, "{catalog}: {linted}");
        std::fs::remove_file(&out).unwrap();
    }
}
