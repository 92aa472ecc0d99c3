use super::*;

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
        "Maximum number of characters to return.",
    ));
    assert_eq!(draft.middle, None);
    assert_eq!(draft.terse, None);
    // All of it a fact, kept at every level: the argument keeps its own words.
    assert!(draft.arguments.is_empty(), "{:?}", draft.arguments[0].terse);
    // Nor is a fact drafted longer than the words it comes from (pieces joined by `; `).
    let joined = tool_draft(&tool("Search.", "If not supplied branches('all')"));
    assert!(
        joined.arguments.is_empty(),
        "{:?}",
        joined.arguments[0].terse
    );
    // A real cut is drafted.
    let longer = tool_draft(&tool(
        "Search the index. Results come back ranked by relevance, best first, with scores.",
        "Maximum number of characters to return. Larger values cost more tokens and time.",
    ));
    assert_eq!(longer.terse.as_deref(), Some("Search the index."));
    // Nor one that only drops the marks of code spans (Playwright's `key`).
    let marked = tool_draft(&tool(
        "Press a key.",
        "Name of the key to press or a character to generate, such as `ArrowLeft` or `a`",
    ));
    assert_eq!(marked.arguments[0].middle, None);
    assert_eq!(
        longer.arguments[0].middle.as_deref(),
        Some("Maximum number of characters to return")
    );
}

#[test]
fn a_label_every_tool_begins_with_is_cut_from_the_terse_texts() {
    let named = |name: &str, description: &str| {
        let mut tool = tool(description, "");
        tool.name = name.to_owned().into();
        tool
    };
    let tools = [
        named(
            "a",
            "Notion | Retrieve a user\nError Responses:\n400: Bad request",
        ),
        named("b", "Notion | List all users\nError Responses:\n400: 400"),
        named(
            "c",
            "Notion | Search by title\nError Responses:\n400: Bad request",
        ),
        named("d", "Notion | Archive"),
        named(
            "e",
            "Slack: Post a message to a channel of the workspace, as the bot user.",
        ),
    ];
    let terse: Vec<Option<String>> = tool_drafts(&tools).into_iter().map(|d| d.terse).collect();
    assert_eq!(
        terse[..4],
        [
            Some("Retrieve a user".to_owned()),
            Some("List all users".to_owned()),
            Some("Search by title".to_owned()),
            // One word would stay: the label stays too.
            None,
        ]
    );
    // A label of one tool tells it apart.
    let slack = terse[4].as_deref().unwrap_or_default();
    assert!(slack.starts_with("Slack: Post a message"), "{slack}");
}
