//! `mcp_tailor::inspect` on real catalogs: `list` is byte for byte what the server sends,
//! the views add up, and every lint fires on a catalog built to trip it (and stays quiet
//! on a clean one).

use crate::common::*;
use mcp_tailor::inspect::{self, Inspection, LintConfig, ReaderClass};
use mcp_tailor::mcp_tool;
use mcp_tailor::server::{CallContext, NoHandler, Principal, Reader, Server};
use serde_json::{Value, json};

/// The catalog as an anonymous caller on 2025-11-25 sees it (the command line's default).
fn inspection(server: &Server) -> Inspection<'_, NoHandler> {
    Inspection::new(server, Principal::anonymous(), "2025-11-25")
}

/// A reader with a runner, a model and a level.
fn reader(runner: Option<&str>, model: Option<&str>, verbosity: Option<u8>) -> Reader {
    Reader {
        runner: runner.map(str::to_owned),
        model: model.map(str::to_owned),
        verbosity,
    }
}

/// What `lint` finds, a line each.
fn lint(server: &Server, config: &LintConfig) -> Vec<String> {
    inspection(server)
        .lint(config)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[tokio::test]
async fn list_is_byte_for_byte_what_the_server_sends() {
    let server = abc(&Calls::default()).build().unwrap();
    let mut raw = Raw::connect(&server);
    raw.initialize(1, "some-client").await;
    for (id, (as_reader, meta)) in [
        (reader(None, None, None), json!({})),
        (reader(Some("codex"), None, Some(0)), json!({"mcp-tailor.dev/runner": "codex", "mcp-tailor.dev/verbosity": 0})),
        (reader(Some("grok"), Some("5.4"), Some(9)), json!({"mcp-tailor.dev/runner": "grok", "mcp-tailor.dev/model": "5.4", "mcp-tailor.dev/verbosity": 9})),
    ]
    .into_iter()
    .enumerate()
    {
        let sent = raw.request(id as u64 + 2, "tools/list", json!({"_meta": meta})).await;
        // serde_json keeps key order here, so this is the response's own compact text.
        let on_wire = serde_json::to_string(&sent["result"]).unwrap();
        let printed = inspection(&server).list(as_reader.clone()).await.unwrap();
        // The stdio client names no runner; the reader stands for the hints above.
        assert_eq!(printed, on_wire, "{as_reader:?}");
    }
}

#[tokio::test]
async fn a_stateless_list_carries_the_cache_hints_the_server_sends() {
    let server = abc(&Calls::default()).build().unwrap();
    let client = connect(&server, "stdio", "codex", Opening::Stateless).await;
    let sent = list(&client, None, json!({})).await.unwrap();
    let printed = Inspection::new(&server, Principal::anonymous(), "2026-07-28")
        .list(reader(Some("codex"), None, None))
        .await
        .unwrap();
    let printed: Value = serde_json::from_str(&printed).unwrap();
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
    let names = |out: &str| -> Vec<String> {
        let v: Value = serde_json::from_str(out).unwrap();
        v["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let anyone = inspection(&server).list(Reader::default()).await.unwrap();
    assert!(!names(&anyone).contains(&"secret".to_owned()));
    let ada = Principal::new("ada").with_scopes(["admin"]);
    let admin = Inspection::new(&server, ada, "2025-11-25")
        .list(Reader::default())
        .await
        .unwrap();
    assert!(names(&admin).contains(&"secret".to_owned()));
}

#[tokio::test]
async fn tokens_matrix_and_diff_agree_with_the_listing() {
    let server = abc(&Calls::default()).build().unwrap();
    let inspection = inspection(&server);
    let tokens = inspection.tokens().await.unwrap().json();
    let readers: Vec<&String> = tokens.as_object().unwrap().keys().collect();
    assert_eq!(
        readers,
        ["-", "codex", "grok"],
        "the classes alpha's rules tell apart"
    );
    for (label, runner) in [("-", None), ("codex", Some("codex"))] {
        for level in [0u8, 9] {
            let page = inspection
                .list(reader(runner, None, Some(level)))
                .await
                .unwrap();
            let cell = &tokens[label][usize::from(level)];
            assert_eq!(cell["bytes"], page.len(), "{label} {level}");
            assert_eq!(
                cell["tokens"],
                inspect::count_tokens(&page),
                "{label} {level}"
            );
        }
    }
    assert_eq!(tokens["-"][9]["saving_percent"], 0.0);
    assert!(tokens["-"][0]["saving_percent"].as_f64().unwrap() > 0.0);

    let matrix = inspection.matrix().await.unwrap();
    let text = matrix.to_string();
    let matrix = matrix.json();
    let alpha = &matrix["tools"][0];
    assert_eq!(alpha["name"], "alpha");
    let description = &alpha["strings"][1];
    assert_eq!(description["readers"]["-"][0]["text"], "Alpha.");
    assert_eq!(
        description["readers"]["codex"][5]["text"],
        "alpha (codex wording)"
    );
    assert!(text.contains("alpha (grok wording)"), "{text}");
    assert_eq!(matrix["catalog"], tokens);

    let diff = inspection
        .diff(&ReaderClass::parse("codex"), &ReaderClass::parse("grok"))
        .await
        .unwrap()
        .to_string();
    assert!(diff.contains("alpha description at 0..=9"), "{diff}");
    assert!(diff.contains("codex: \"alpha (codex wording)\""), "{diff}");
    assert!(!diff.contains("bravo"), "{diff}");
}

/// A paged catalog costs its pages less each one's `nextCursor`: a signed cursor is new on
/// every listing (its tokens with it), a harness follows it and no model reads it. Counted
/// with it, the same catalog once cost different tokens each time (`-0.0%` saved at levels
/// nothing tailors).
#[tokio::test]
async fn a_paged_catalog_costs_its_pages_without_their_cursors() {
    let server = abc(&Calls::default()).page_size(1).build().unwrap();
    let catalog = inspect::CallerCatalog::new(&server, Principal::anonymous(), "2025-11-25");
    let class = ReaderClass::parse("codex");
    let pages = catalog.pages(class.reader(0)).await.unwrap();
    assert_eq!(pages.len(), 3, "one tool a page");
    let without_cursors: Vec<String> = pages
        .iter()
        .map(|page| {
            let mut page: Value = serde_json::from_str(page).unwrap();
            page.as_object_mut().unwrap().remove("nextCursor");
            page.to_string()
        })
        .collect();
    assert!(!without_cursors[0].contains("nextCursor"));
    let counted = catalog.sizes(&class).await.unwrap()[0];
    let expected = without_cursors.iter().map(|page| page.len()).sum::<usize>();
    assert_eq!(counted.bytes, expected);
    let tokens = without_cursors
        .iter()
        .map(|page| inspect::count_tokens(page));
    assert_eq!(counted.tokens, tokens.sum::<usize>());
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
    let defs = inspect::listing_server(&[Alpha::def(), Bravo::def()]).unwrap();
    let server = Server::builder()
        .tool(|_: Alpha, _: CallContext| async { Ok::<_, String>(json!({})) })
        .tool(|_: Bravo, _: CallContext| async { Ok::<_, String>(json!({})) })
        .build()
        .unwrap();
    assert_eq!(
        inspection(&defs).list(Reader::default()).await.unwrap(),
        inspection(&server).list(Reader::default()).await.unwrap()
    );
    let duplicate = inspect::listing_server(&[Alpha::def(), Alpha::def()])
        .err()
        .unwrap();
    assert!(
        duplicate.to_string().contains("registered twice"),
        "{duplicate}"
    );
}

#[tokio::test]
async fn lint_catches_a_wrong_argument_name_and_open_arguments() {
    let found = lint(&only::<SearchNotes>(), &LintConfig::default());
    let has = |line: &str| found.iter().any(|f| f.starts_with(line));
    assert!(
        has(
            "search_notes description [codex@0..=9]: names argument `limit`, which `search_notes` does not have; its arguments: maxResults, query, tag"
        ),
        "{found:#?}"
    );
    assert!(
        has("search_notes schema: accepts unknown arguments"),
        "{found:#?}"
    );
    // `codex` reads one text at every level: tailoring that does nothing by level.
    assert!(
        has("(catalog) every string [codex]: this reader gets the same catalog at every level"),
        "{found:#?}"
    );
}

#[tokio::test]
async fn lint_is_quiet_on_a_clean_catalog_and_catches_costly_terse_levels_and_budgets() {
    let fixed = lint(&only::<FixedSearch>(), &LintConfig::default());
    assert_eq!(fixed, Vec::<String>::new());
    let backwards = lint(&only::<Backwards>(), &LintConfig::default());
    assert_eq!(
        backwards,
        [
            "backwards description [-]: level 0 (16 tokens) costs more than the richer level 5 (2 tokens); make the terser text shorter"
        ]
    );
    let mut budgets = LintConfig::default();
    budgets.budgets[5..=9].fill(Some(3));
    let budget = lint(&only::<FixedSearch>(), &budgets);
    // Each of levels 5..=9, for both readers.
    assert_eq!(budget.len(), 10, "{budget:#?}");
    assert_eq!(
        budget[0],
        "search_notes description [-@5..=9]: 5 tokens at level 5, over its budget of 3"
    );
}
