//! `mcp_tailor::inspect` on real catalogs: `list` is byte for byte what the server sends,
//! the views add up, and every lint fires on a catalog built to trip it (and stays quiet
//! on a clean one).

use crate::common::*;
use mcp_tailor::inspect::{self, Outcome};
use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, Server};
use serde_json::{Value, json};

async fn run(server: &Server, line: &str) -> Outcome {
    inspect::run(server, line.split_whitespace().map(str::to_owned)).await
}

#[tokio::test]
async fn list_is_byte_for_byte_what_the_server_sends() {
    let server = abc(&Calls::default()).build().unwrap();
    let mut raw = Raw::connect(&server);
    raw.initialize(1, "some-client").await;
    for (id, (flags, meta)) in [
        ("", json!({})),
        ("--runner codex --verbosity 0", json!({"mcp-tailor.dev/runner": "codex", "mcp-tailor.dev/verbosity": 0})),
        ("--runner grok --model 5.4 --verbosity 9", json!({"mcp-tailor.dev/runner": "grok", "mcp-tailor.dev/model": "5.4", "mcp-tailor.dev/verbosity": 9})),
    ]
    .into_iter()
    .enumerate()
    {
        let sent = raw.request(id as u64 + 2, "tools/list", json!({"_meta": meta})).await;
        // serde_json keeps key order here, so this is the response's own compact text.
        let on_wire = serde_json::to_string(&sent["result"]).unwrap();
        let printed = run(&server, &format!("list {flags}")).await;
        assert!(printed.success);
        // The stdio client names no runner; `--runner` stands for the hints above.
        assert_eq!(printed.output, on_wire, "list {flags}");
    }
}

#[tokio::test]
async fn modern_list_carries_the_cache_hints_the_server_sends() {
    let server = abc(&Calls::default()).build().unwrap();
    let client = connect(&server, "stdio", "codex", Era::Modern).await;
    let sent = list(&client, None, json!({})).await.unwrap();
    let printed = run(&server, "list --runner codex --protocol 2026-07-28").await;
    let printed: Value = serde_json::from_str(&printed.output).unwrap();
    assert_eq!(printed["tools"], sent["tools"]);
    assert_eq!(
        (&printed["ttlMs"], &printed["cacheScope"]),
        (&json!(0), &json!("private"))
    );
}

#[tokio::test]
async fn list_applies_visibility_for_the_caller() {
    let server = abc(&Calls::default())
        .tool(|_: Secret, _: CallContext| async { Ok::<_, String>(json!({})) })
        .build()
        .unwrap();
    let names = |out: &Outcome| -> Vec<String> {
        let v: Value = serde_json::from_str(&out.output).unwrap();
        v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(!names(&run(&server, "list").await).contains(&"secret".to_owned()));
    assert!(
        names(&run(&server, "list --principal ada --scopes admin").await)
            .contains(&"secret".to_owned())
    );
}

#[tokio::test]
async fn tokens_matrix_and_diff_agree_with_the_listing() {
    let server = abc(&Calls::default()).build().unwrap();
    let tokens = run(&server, "tokens --json").await;
    let tokens: Value = serde_json::from_str(&tokens.output).unwrap();
    let readers: Vec<&String> = tokens.as_object().unwrap().keys().collect();
    assert_eq!(
        readers,
        ["-", "codex", "grok"],
        "the classes alpha's rules tell apart"
    );
    for (reader, flags) in [("-", ""), ("codex", "--runner codex")] {
        for level in [0usize, 9] {
            let page = run(&server, &format!("list {flags} --verbosity {level}"))
                .await
                .output;
            let cell = &tokens[reader][level];
            assert_eq!(cell["bytes"], page.len(), "{reader} {level}");
            assert_eq!(
                cell["tokens"],
                inspect::count_tokens(&page),
                "{reader} {level}"
            );
        }
    }
    assert_eq!(tokens["-"][9]["saving_percent"], 0.0);
    assert!(tokens["-"][0]["saving_percent"].as_f64().unwrap() > 0.0);

    let matrix: Value = serde_json::from_str(&run(&server, "matrix --json").await.output).unwrap();
    let alpha = &matrix["tools"][0];
    assert_eq!(alpha["name"], "alpha");
    let description = &alpha["strings"][1];
    assert_eq!(description["readers"]["-"][0]["text"], "Alpha.");
    assert_eq!(
        description["readers"]["codex"][5]["text"],
        "alpha (codex wording)"
    );
    assert!(
        run(&server, "matrix")
            .await
            .output
            .contains("alpha (grok wording)")
    );

    let diff = run(&server, "diff codex grok").await.output;
    assert!(diff.contains("alpha description at 0..=9"), "{diff}");
    assert!(diff.contains("codex: \"alpha (codex wording)\""), "{diff}");
    assert!(!diff.contains("bravo"), "{diff}");
}

/// The demo's old wording: a signature naming `limit`, which the tool does not have, and
/// arguments open to unknown names.
#[mcp_tool(
    description = "Search notes.",
    descriptions = [codex = "search_notes(query, tag?, limit?) -> [{id}]"],
    runners = [((codex, _), [default = codex])],
)]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // read only through its schema
pub struct SearchNotes {
    pub query: String,
    pub tag: Option<String>,
    pub max_results: Option<u32>,
}

/// The same, fixed.
#[mcp_tool(
    name = "search_notes",
    description = [(verbosity(0..=4), "Search notes."), (verbosity(5..=9), "Search notes by words.")],
    descriptions = [
        codex_terse = "search_notes(query, tag?, maxResults?)",
        codex = "search_notes(query, tag?, maxResults?) -> [{id}]",
    ],
    runners = [((codex, _), [(verbosity(0..=4), codex_terse), (verbosity(5..=9), codex)])],
)]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)] // read only through its schema
pub struct FixedSearch {
    pub query: String,
    pub tag: Option<String>,
    pub max_results: Option<u32>,
}

/// A terse level longer than the rich one.
#[mcp_tool(description = [
    (verbosity(0), "This terse text goes on and on, costing far more tokens than it should."),
    (verbosity(9), "Short."),
])]
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Backwards {}

fn only<T: mcp_tailor::McpTool + serde::de::DeserializeOwned + Send + 'static>() -> Server {
    Server::builder()
        .tool(|_: T, _: CallContext| async { Ok::<_, String>(json!({})) })
        .build()
        .unwrap()
}

#[tokio::test]
async fn bare_definitions_inspect_like_a_server_of_them() {
    use mcp_tailor::McpTool as _;
    let defs = [Alpha::def(), Bravo::def()];
    let printed = inspect::run_defs(&defs, ["list".to_owned()]).await;
    let server = Server::builder()
        .tool(|_: Alpha, _: CallContext| async { Ok::<_, String>(json!({})) })
        .tool(|_: Bravo, _: CallContext| async { Ok::<_, String>(json!({})) })
        .build()
        .unwrap();
    assert_eq!(printed, run(&server, "list").await);
    let duplicate = inspect::run_defs(&[Alpha::def(), Alpha::def()], ["lint".to_owned()]).await;
    assert!(
        duplicate.output.contains("registered twice"),
        "{}",
        duplicate.output
    );
}

#[tokio::test]
async fn lint_catches_a_wrong_argument_name_and_open_arguments() {
    let out = run(&only::<SearchNotes>(), "lint").await;
    assert!(!out.success);
    assert_eq!(out.print_code(), 1);
    assert!(
        out.output.contains(
            "search_notes description [codex@0..=9]: names argument `limit`, which `search_notes` does not have; its arguments: maxResults, query, tag"
        ),
        "{}",
        out.output
    );
    assert!(
        out.output
            .contains("search_notes schema: accepts unknown arguments"),
        "{}",
        out.output
    );
    // `codex` reads one text at every level: tailoring that does nothing by level.
    assert!(
        out.output.contains(
            "(catalog) every string [codex]: this reader gets the same catalog at every level"
        ),
        "{}",
        out.output
    );
}

#[tokio::test]
async fn lint_is_quiet_on_a_clean_catalog_and_catches_costly_terse_levels_and_budgets() {
    let fixed = run(&only::<FixedSearch>(), "lint").await;
    assert!(fixed.success, "{}", fixed.output);
    let backwards = run(&only::<Backwards>(), "lint").await;
    assert!(
        backwards.output.contains("backwards description [-]: level 0 (16 tokens) costs more than the richer level 5 (2 tokens)"),
        "{}",
        backwards.output
    );
    let budget = run(&only::<FixedSearch>(), "lint --budget 5..=9=3").await;
    assert!(!budget.success);
    assert!(
        budget.output.contains(
            "search_notes description [-@5..=9]: 5 tokens at level 5, over its budget of 3"
        ),
        "{}",
        budget.output
    );
    let usage = run(&only::<FixedSearch>(), "lint --budget 12=3").await;
    assert!(usage.output.starts_with("usage error"), "{}", usage.output);
}
