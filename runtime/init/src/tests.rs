use super::render::comment;
use super::*;

/// One tool's draft, as `draft` makes it among no others.
fn tool_draft(tool: &Tool) -> ToolDraft {
    tool_drafts(std::slice::from_ref(tool), &Budgets::DEFAULT).remove(0)
}

/// What a tool's draft reads at `level` (`None`: the server's words).
fn said(draft: &ToolDraft, level: Band) -> Option<String> {
    draft.text(level)
}

fn tool(description: &str, argument: &str) -> Tool {
    let schema = serde_json::json!({"type": "object", "properties": {
        "limit": {"type": "integer", "description": argument}
    }});
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    Tool::new(
        "search",
        description.to_owned(),
        std::sync::Arc::new(schema),
    )
}

#[test]
fn a_level_that_only_drops_the_full_stop_is_not_drafted() {
    let draft = tool_draft(&tool(
        "Search the index.",
        "Number of characters to return, at most 500.",
    ));
    assert_eq!(said(&draft, Band::Middle), None);
    assert_eq!(said(&draft, Band::Terse), None);
    // All of it a fact, kept at every level: the argument keeps its own words.
    assert!(
        draft.arguments.is_empty(),
        "{:?}",
        draft.arguments[0].text(Band::Terse)
    );
    // Nor is a fact drafted longer than the words it comes from (pieces joined by `; `).
    let joined = tool_draft(&tool("Search.", "If not supplied branches('all')"));
    assert!(
        joined.arguments.is_empty(),
        "{:?}",
        joined.arguments[0].text(Band::Terse)
    );
    // A real cut is drafted.
    let longer = tool_draft(&tool(
        "Search the index. Results come back ranked by relevance, best first, with scores.",
        "Maximum number of characters to return. Larger values cost more tokens and time.",
    ));
    assert_eq!(
        said(&longer, Band::Terse).as_deref(),
        Some("Search the index.")
    );
    // Nor one that only drops the marks of code spans (Playwright's `key`).
    let marked = tool_draft(&tool(
        "Press a key.",
        "Name of the key to press or a character to generate, such as `ArrowLeft` or `a`",
    ));
    assert!(marked.arguments.is_empty());
    assert_eq!(
        longer.arguments[0].text(Band::Middle).as_deref(),
        Some("Maximum number of characters to return.")
    );
}

/// A label many tools begin with (`Notion | Retrieve a user`) is the server's sentence:
/// kept whole, never cut to what follows it.
#[test]
fn a_label_every_tool_begins_with_stays_in_its_sentence() {
    let named = |name: &str, description: &str| {
        let mut tool = tool(description, "");
        tool.name = name.to_owned().into();
        tool
    };
    let tools = [
        named(
            "a",
            "Notion | Retrieve a user. Error Responses: 400 means a bad request.",
        ),
        named(
            "b",
            "Notion | List all users. Error Responses: 400 means a bad request.",
        ),
        named(
            "c",
            "Notion | Search by title. Error Responses: 400 means a bad request.",
        ),
    ];
    let terse: Vec<Option<String>> = tool_drafts(&tools, &Budgets::DEFAULT)
        .iter()
        .map(|d| said(d, Band::Terse))
        .collect();
    assert_eq!(
        terse,
        [
            Some("Notion | Retrieve a user.".to_owned()),
            Some("Notion | List all users.".to_owned()),
            Some("Notion | Search by title.".to_owned()),
        ]
    );
}

/// firecrawl-mcp's `firecrawl_map`: a first paragraph of one sentence, then pages more. Its
/// middle text is its terse one, and levels 3..=6 read it too — not the server's own words
/// (a level the file leaves out reads those, all of them). So for an argument.
#[test]
fn a_middle_text_the_same_as_the_terse_one_still_covers_its_levels() {
    let own = "\nMap a website to discover all indexed URLs on the site.\n\n**Best for:** \
               Discovering URLs on a website before deciding what to scrape; finding specific \
               sections or pages within a large site.\n**Common mistakes:** Using crawl to \
               discover URLs instead of map.";
    let argument = "Absolute or relative path to a local file to parse. Supported: .html, \
                    .htm, .pdf, .docx, .doc, .odt, .rtf, .xlsx and .xls files.";
    let tool = tool(own, argument);
    let drafted = draft(std::slice::from_ref(&tool), "firecrawl-mcp");
    let file = mcp_tailor_core::Tailoring::parse("draft.toml", &drafted.text).expect(&drafted.text);
    let worded = |level: u8| {
        let mut tool = tool.clone();
        let ctx = mcp_tailor_core::RenderCtx::new().verbosity(level);
        file.tool("search").unwrap().tailor_tool(&mut tool, &ctx);
        let limit = tool.input_schema["properties"]["limit"]["description"].clone();
        (tool.description.unwrap_or_default().to_string(), limit)
    };
    let map = "Map a website to discover all indexed URLs on the site.";
    let path = serde_json::json!("Absolute or relative path to a local file to parse.");
    for level in 0..=6 {
        assert_eq!(
            worded(level),
            (map.to_owned(), path.clone()),
            "level {level}"
        );
    }
    assert_eq!(worded(7).0, own);
    // One entry for the levels both cover.
    assert_eq!(
        drafted.text.matches("verbosity = \"0..=6\"").count(),
        2,
        "{}",
        drafted.text
    );
}

/// Slack's `thread_ts`: its one fact (the format) does not fit the terse budget; it gets
/// the middle one, not dropped.
#[test]
fn a_fact_too_long_for_the_terse_budget_is_not_dropped() {
    let draft = tool_draft(&tool(
        "Reply to a thread.",
        "The timestamp of the parent message in the format '1234567890.123456'. Timestamps \
         in the format without the period can be converted by adding the period such that 6 \
         numbers come after it.",
    ));
    let terse = draft.arguments[0].text(Band::Terse).unwrap_or_default();
    assert!(terse.contains("'1234567890.123456'"), "{terse:?}");
}

#[test]
fn the_facts_of_the_terse_levels_stay_at_the_middle_ones() {
    // @modelcontextprotocol/server-puppeteer's `launchOptions`: its middle text was its
    // first sentence, shorter than its facts, and so said at 0..=6 without them.
    let draft = tool_draft(&tool(
        "Navigate to a URL.",
        "PuppeteerJS LaunchOptions. Default null. If changed and not null, browser restarts. \
         Example: { headless: true, args: ['--no-sandbox'] }",
    ));
    let argument = &draft.arguments[0];
    for level in [Band::Terse, Band::Middle] {
        let text = argument.text(level).unwrap_or_default();
        assert!(text.contains("browser restarts"), "{text:?}");
    }
}

#[test]
fn a_first_paragraph_many_tools_share_does_not_lead() {
    // @hubspot/mcp-server: seven of its 21 tools begin with the same warning.
    let warning = "🛡️ Guardrails:\n  1. Data Modification Warning: This tool modifies HubSpot \
                   data. Only use when the user has explicitly requested to update their CRM.\n\n";
    let purposes = [
        "Creates objects.",
        "Updates objects.",
        "Creates a property.",
    ];
    let mut tools: Vec<Tool> = purposes
        .iter()
        .map(|purpose| {
            tool(
                &format!("{warning}🎯 Purpose:\n  1. {purpose}\n"),
                "Max 10.",
            )
        })
        .collect();
    tools.push(tool("Lists objects of a type.\n\nPaginated.", "Max 10."));
    let drafts = tool_drafts(&tools, &Budgets::DEFAULT);
    for (draft, purpose) in drafts.iter().zip(purposes) {
        let item = format!("1. {purpose}");
        assert_eq!(said(draft, Band::Terse), Some(item.clone()));
        // The middle level keeps the warning where both fit.
        let middle = said(draft, Band::Middle).unwrap_or_default();
        assert!(
            middle.starts_with("1. Data Modification Warning:"),
            "{middle}"
        );
        assert!(middle.ends_with(&item), "{middle}");
    }
    // A first paragraph of its own leads.
    assert_eq!(
        said(&drafts[3], Band::Terse).as_deref(),
        Some("Lists objects of a type.")
    );
    // Two tools sharing one are not enough.
    let drafts = tool_drafts(&tools[1..], &Budgets::DEFAULT);
    assert!(
        said(&drafts[0], Band::Terse)
            .unwrap_or_default()
            .starts_with("1. Data Modification Warning: This tool modifies HubSpot data.")
    );
}

#[test]
fn a_comment_keeps_the_servers_markup_on_one_line() {
    assert_eq!(
        comment("Pass `() => { /* code */ }`\n  or **none**."),
        "\"Pass `() => { /* code */ }` or **none**.\" (16 tokens)"
    );
}

#[test]
fn a_command_of_many_lines_is_named_on_one_comment_line() {
    let script = "sh -c '\nwhile read -r line; do\n  echo \"$line\" >> /var/tmp/a-log-file-whose-name-is-long-enough-to-pass-100\ndone\n'";
    let text = draft(&[tool("Search the notes.", "How many.")], script).text;
    mcp_tailor_core::Tailoring::from_toml_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Named whole, however long.
    let named = "sh -c ' while read -r line; do echo \"$line\" >> \
                 /var/tmp/a-log-file-whose-name-is-long-enough-to-pass-100 done '";
    assert!(
        text.starts_with(&format!(
            "# Drafted by `mcp-tailor init` from {named}: 1 tool."
        )),
        "{text}"
    );
}

#[test]
fn a_title_in_the_annotations_is_left_out_at_the_terse_levels_too() {
    let mut titled = tool("Search the notes by their words.", "How many.");
    titled.annotations = Some(rmcp::model::ToolAnnotations::new().read_only(true));
    assert!(tool_draft(&titled).untitled.is_none());
    titled.annotations.as_mut().unwrap().title = Some("Search notes".into());
    assert!(tool_draft(&titled).untitled.is_some());
    let text = draft(&[titled], "test").text;
    assert!(
        text.contains("[tools.search.title]\nlevels = [{ verbosity = \"0..=2\", text = false }]"),
        "{text}"
    );
}

#[test]
fn a_terse_text_with_nothing_of_its_own_says_more_of_its_own_words() {
    let path = format!(
        "{}/../../cli/tests/init/server-filesystem.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let tools = mcp_tailor_inspect::read_catalog(&std::fs::read_to_string(path).unwrap()).unwrap();
    let drafts = tool_drafts(&tools, &Budgets::DEFAULT);
    let media = drafts.iter().find(|d| d.name == "read_media_file").unwrap();
    // "Read a file." alone would read as every reading tool: its first sentence whole
    // says what sets it apart; the next sentence is one step up.
    assert_eq!(
        said(media, Band::Terse).as_deref(),
        Some("Read a file and return it as a base64-encoded content block with its MIME type.")
    );
    let next = media.more[0][0].text(&media.units);
    assert!(next.contains("Image and audio files"), "{next}");
}

#[test]
fn the_middle_text_keeps_what_a_reader_must_not_do() {
    let own = "Query the documentation index of a library and return the passages that match \
               best, ranked by relevance, with their sources and the versions they cover, so \
               that the answer can cite them. Results come from the library's own docs.\n\n\
               The index is rebuilt every night from the upstream repositories, and a page \
               that changed since then may be stale or missing until the next rebuild runs.\n\n\
               Do not call this tool more than 3 times per question.";
    let drafted = tool_draft(&tool(own, ""));
    let middle = said(&drafted, Band::Middle).expect("a middle text");
    assert!(
        middle.ends_with("Do not call this tool more than 3 times per question."),
        "{middle}"
    );
    assert!(!middle.contains("rebuilt every night"), "{middle}");
}

/// An argument's rungs put back its asides whole, where they stood: never values gathered
/// from them into another aside.
#[test]
fn an_asides_rung_puts_them_back_where_they_stood() {
    let own = r#"Only return requests whose URL matches this regexp (e.g. "/api/.*user"). Matching is case-sensitive (unlike `grep -i`), at most 200 results."#;
    let draft = tool_draft(&tool("Search the index.", own));
    let argument = &draft.arguments[0];
    let units = &argument.units;
    for level in [Band::Terse, Band::Middle] {
        let rungs = argument.ladder(level);
        for (at, rung) in rungs.iter().enumerate() {
            // Each rung says more than the one below it, and only the server's units.
            assert!(!rungs[..at].contains(rung), "{rungs:#?}");
            if let Some(rung) = rung {
                let text = rung.text(units);
                assert!(
                    mcp_tailor_inspect::seam::prose::faithful(units, &text).is_some(),
                    "{text}"
                );
            }
        }
    }
}

/// `[schemas]` is drafted with what the catalog's schemas hold (zod's `$schema`, pydantic's
/// titles), at the drafted levels; a catalog with neither gets none, and the floor counts
/// the schemas as served there.
#[test]
fn schemas_are_drafted_lean_where_they_hold_boilerplate() {
    let schema = |value: Value| match value {
        Value::Object(map) => std::sync::Arc::new(map),
        _ => unreachable!(),
    };
    let zod = schema(serde_json::json!({"type": "object", "properties": {"path":
        {"type": "string"}}, "$schema": "http://json-schema.org/draft-07/schema#"}));
    let pydantic = schema(
        serde_json::json!({"title": "logArguments", "type": "object",
        "properties": {"repo_path": {"title": "Repo Path", "type": "string"}}}),
    );
    let plain = tool("Search the index.", "How many.");
    let text = |tools: &[Tool]| draft(tools, "test").text;
    let both = text(&[
        Tool::new("read", "Read a file.", zod),
        Tool::new("log", "Show the log.", pydantic),
        plain.clone(),
    ]);
    assert!(
        both.contains("[schemas]\ndialect = \"0..=6\"") && both.contains("\ntitles = \"0..=6\""),
        "{both}"
    );
    let file = mcp_tailor_core::Tailoring::from_toml_str(&both).unwrap();
    assert!(file.lean().dialect_at(6) && !file.lean().titles_at(7));
    assert!(!text(std::slice::from_ref(&plain)).contains("[schemas]"));
}
