use super::*;
use crate::init::clip::without_asides;
use serde_json::json;

mod examples;
mod middle;

/// mcp-server-git's `git_log.start_timestamp`: three formats, each with examples.
const GIT_LOG_START: &str = "Start timestamp for filtering commits. Accepts: ISO 8601 format \
    (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or \
    absolute dates (e.g., '2024-01-15', 'Jan 15 2024')";

/// The middle wording with no terse facts to state.
fn argument_sentence_of(description: &str, schema: &serde_json::Value, budget: usize) -> String {
    argument_sentence(description, schema, None, budget)
}

#[test]
fn facts_are_what_name_and_type_do_not_say() {
    let none = json!({"type": "string"});
    let facts = |text: &str| facts(text, &none, 12);
    assert_eq!(facts("The path of the file."), None);
    assert_eq!(
        facts("The expected SHA of the pull request's HEAD ref"),
        None
    );
    assert_eq!(facts("Branch to push to (e.g., 'main' or 'master')"), None);
    assert_eq!(
        facts("Page number for pagination (default: 1)").as_deref(),
        Some("Default: 1")
    );
    assert_eq!(
        facts("Number of results per page (default: 30, max: 100)").as_deref(),
        Some("Default: 30, max: 100")
    );
    assert_eq!(
        facts("Timeout in milliseconds").as_deref(),
        Some("Timeout in milliseconds")
    );
    assert!(facts("If provided, returns only the last N lines").is_some());
    assert!(facts("Wait 10s between tries").is_some());
    // A name with a digit in it is no number.
    assert_eq!(facts("The query is sent to the Context7 API."), None);
    let with_default = json!({"type": "string", "default": "name"});
    assert_eq!(super::facts("Defaults to name.", &with_default, 12), None);
    assert_eq!(
        argument_sentence_of("Page number (default: 1, e.g. 2). More.", &none, 24),
        "Page number (default: 1)"
    );
    // Quoted values a user types stay in the middle wording (the terse one has no fact).
    assert_eq!(
        argument_sentence_of("Branch (e.g. 'main').", &none, 24),
        "Branch (e.g. 'main')"
    );
}

#[test]
fn labelled_good_and_bad_examples_are_no_facts() {
    let none = json!({"type": "string"});
    // Context7's `query`: the quoted examples are not what the argument must be.
    let text = "What to look up, scoped to a single concept. Good: 'How to set up JWT' or \
                'React useEffect cleanup'. Bad (too vague): 'auth' or 'hooks'. Do not \
                include any sensitive or confidential information such as API keys, \
                passwords, credentials, personal data, or proprietary code in your query.";
    assert_eq!(
        facts(text, &none, 12).as_deref(),
        Some("Do not include any sensitive or confidential information")
    );
    assert_eq!(
        without_asides("Bad (too vague): 'auth' , or 'hooks' ."),
        "Bad: 'auth', or 'hooks'."
    );
}

#[test]
fn a_condition_cut_off_from_what_it_conditions_is_no_fact() {
    let none = json!({"type": "string"});
    let text = "If supplied, this endpoint will return a page of results starting after the \
                cursor provided. If not supplied, this endpoint will return the first page \
                of results.";
    assert_eq!(facts(text, &none, 6), None);
    assert_eq!(
        facts(
            "Maximum: 100. If not supplied, returns everything there is to return.",
            &none,
            8
        )
        .as_deref(),
        Some("Maximum: 100.")
    );
}

#[test]
fn code_is_no_prose_to_shorten() {
    let none = json!({"type": "string"});
    // Playwright's `browser_evaluate.function`: left to its own words.
    let function = "() => { /* code */ } or (element) => { /* code */ } when element is provided";
    assert_eq!(argument_sentence_of(function, &none, 24), "");
    assert_eq!(facts(function, &none, 12), None);
    // Playwright's `browser_run_code_unsafe.code`: its example's parentheticals are the
    // example's, no facts.
    let code = "A JavaScript function containing Playwright code to execute. For example: \
                `async (page) => { await page.getByRole('button', { name: 'Submit' }).click(); }`";
    assert_eq!(facts(code, &none, 12), None);
    assert_eq!(
        argument_sentence_of(code, &none, 24),
        "A JavaScript function containing Playwright code to execute"
    );
}

#[test]
fn what_the_schema_states_is_no_fact() {
    // mcp-server-kubernetes' `output`: its values and its format are the enum's.
    let output = json!({"type": "string", "enum": ["json", "yaml", "name"], "default": "yaml"});
    assert_eq!(
        facts("Output format. One of: json|yaml|name", &output, 12),
        None
    );
    // chrome-devtools-mcp's `navigate_page.type`: `url` is a value, not a format.
    let kind = json!({"type": "string", "enum": ["url", "back", "forward", "reload"]});
    assert_eq!(
        facts(
            "Navigate the page by URL, back or forward in history, or reload.",
            &kind,
            12
        ),
        None
    );
    // Values no enum states are facts (mcp-server-git's `branch_type`, its last one
    // written without a space).
    assert_eq!(
        facts(
            "Whether to list local branches ('local'), remote branches ('remote') or all \
             branches('all').",
            &json!({"type": "string"}),
            12
        )
        .as_deref(),
        Some("'local'; 'remote'; 'all'")
    );
    // `take_screenshot.format`: a quoted default the schema states.
    let format = json!({"type": "string", "enum": ["png", "jpeg"], "default": "png"});
    assert_eq!(
        facts(
            "Type of format to save the screenshot as. Default is \"png\"",
            &format,
            12
        ),
        None
    );
    // `performance_start_trace.reload`: a boolean has no format; a URL it mentions is none.
    let flag = json!({"type": "boolean", "default": true});
    assert_eq!(
        facts(
            "Determines if the page should be reloaded. Navigate the page to the right URL \
             using the navigate_page tool BEFORE starting the trace.",
            &flag,
            12
        ),
        None
    );
}

#[test]
fn a_fact_is_read_whole_or_not_at_all() {
    let none = json!({"type": "string"});
    // chrome-devtools-mcp's `upload_file.filePaths`: a qualifier is read with its sentence.
    assert_eq!(
        facts(
            "One or more files paths to upload. File paths have to be local to the browser \
             instance (not the MCP).",
            &json!({"type": "array"}),
            16
        )
        .as_deref(),
        Some("File paths have to be local to the browser instance (not the MCP)")
    );
    // mcp-server-kubernetes' `timeout`: an aside's examples are no fact.
    assert_eq!(
        facts(
            "The length of time to wait before giving up (for drain operation, e.g., '5m', '1h')",
            &none,
            12
        ),
        None
    );
    // A cut that loses what made a piece a fact (`Omit or set the rate to 1 …` → `Omit`;
    // `… use 'manifest' instead` → `Safe on all transports`) leaves nothing.
    assert_eq!(
        facts(
            "Inline file contents. Safe on all transports; use this instead of \"fromFile\" \
             on remote (SSE/Streamable HTTP) servers.",
            &none,
            8
        ),
        None
    );
    // A condition left at a cut's end, after a dash: `optional - if not provided.`
    assert_eq!(
        facts(
            "Name of the resource (optional - if not provided, lists all resources of the \
             specified type)",
            &none,
            8
        ),
        None
    );
}

#[test]
fn a_lone_fact_word_stays_where_it_stands() {
    // arxiv-mcp-server's `sort_by`: the default is `relevance`, not `date`.
    let sort = json!({"type": "string", "enum": ["relevance", "date"]});
    let text = "Sort by 'relevance' (default) or 'date' (newest first).";
    assert_eq!(
        argument_sentence_of(text, &sort, 24),
        "Sort by 'relevance' (default) or 'date'"
    );
    assert_eq!(
        facts(text, &sort, 16).as_deref(),
        Some("Sort by 'relevance' (default) or 'date'")
    );
}

#[test]
fn a_list_of_values_is_read_whole_or_not_at_all() {
    let none = json!({"type": "string"});
    // mcp-atlassian's `jira_create_customer_request.attachments`: two keys of three read as
    // all of them.
    assert_eq!(
        facts(
            "JSON array string of files to attach to the created request. Each object must \
             contain 'filename', 'mime_type', and base64-encoded 'base64' content.",
            &none,
            12
        ),
        None
    );
    // Its `content_format`: "format" names the argument, no format.
    assert_eq!(
        facts("The format of the content parameter", &none, 12),
        None
    );
    assert!(facts("Start time in ISO format", &none, 12).is_some());
}

#[test]
fn values_speak_for_their_sentence_where_both_do_not_fit() {
    // @modelcontextprotocol/server-slack's `limit` (the schema states the default).
    let limit = json!({"type": "number", "default": 100});
    assert_eq!(
        facts(
            "Maximum number of channels to return (default 100, max 200)",
            &limit,
            12
        )
        .as_deref(),
        Some("Default 100, max 200")
    );
    // Where both fit, both stay.
    assert_eq!(
        facts(
            "Number of results per page (default: 30, max: 100)",
            &json!({}),
            12
        )
        .as_deref(),
        Some("Default: 30, max: 100")
    );
}

#[test]
fn a_cut_keeps_a_fact_s_condition_or_drops_the_fact() {
    // mcp-server-git's `git_branch.contains`: "Do not pass anything to this param." alone
    // says never to pass it.
    let sha = json!({"type": "string"});
    let text = "The commit sha that branch should contain. Do not pass anything to this param \
                if no commit sha is specified";
    assert_eq!(super::facts(text, &sha, 8), None);
    assert_eq!(
        super::facts(text, &sha, 24).as_deref(),
        Some("Do not pass anything to this param if no commit sha is specified")
    );
}

#[test]
fn a_fact_cut_inside_is_no_terse_fact() {
    // mcp-server-git's `git_log.start_timestamp`: one format of three would read as the
    // only one.
    let text = GIT_LOG_START;
    let string = json!({"type": "string"});
    assert_eq!(super::whole_facts(text, &string, 12), None);
    assert_eq!(
        super::facts(text, &string, 24).as_deref(),
        Some("Accepts: ISO 8601 format, relative dates, or absolute dates")
    );
    // Whole pieces fit: they are the facts.
    assert_eq!(
        super::whole_facts("Page size. Default 10. At most 50.", &string, 12).as_deref(),
        Some("Default 10; At most 50")
    );
}

#[test]
fn what_an_argument_does_when_left_out_is_a_fact() {
    let string = json!({"type": "string"});
    let facts = |text: &str, budget| facts(text, &string, budget);
    // chrome-devtools-mcp 1.11.0's `networkConditions` and `reqid`; @playwright/mcp
    // 0.0.83's `type` of a screenshot.
    assert_eq!(
        facts("Throttle network. Omit to disable throttling.", 12).as_deref(),
        Some("Omit to disable throttling")
    );
    assert_eq!(
        facts(
            "Image format for the screenshot. If unset, inferred from the filename \
             extension, otherwise png.",
            24
        )
        .as_deref(),
        Some("If unset, inferred from the filename extension, otherwise png")
    );
    // A whole sentence that begins with its condition is no lone condition.
    assert_eq!(
        facts(
            "The reqid of the network request. If omitted returns the currently selected \
             request in the DevTools Network panel.",
            24
        )
        .as_deref(),
        Some("If omitted returns the currently selected request in the DevTools Network panel")
    );
    // A constraint (`fullPage`), not a "cannot" of the server's own (mcp-atlassian's
    // `content_base64`), nor "ignored" that names what the argument is about (Sentry's
    // `ignoreMode`).
    let boolean = json!({"type": "boolean"});
    assert_eq!(
        super::facts(
            "When true, takes a screenshot of the full scrollable page. Cannot be used with \
             element screenshots.",
            &boolean,
            12
        )
        .as_deref(),
        Some("Cannot be used with element screenshots")
    );
    assert_eq!(
        facts(
            "Use this when the server cannot access host file paths.",
            12
        ),
        None
    );
    assert_eq!(facts("How ignored issues should behave.", 12), None);
    assert_eq!(
        facts("Ignored when the query is empty. Be ignored.", 12).as_deref(),
        Some("Be ignored")
    );
}

#[test]
fn a_condition_of_required_a_standard_and_a_default_are_facts_a_limit_s_name_is_none() {
    let string = json!({"type": "string"});
    let facts = |text: &str| facts(text, &string, 12);
    // mcp-server-kubernetes 4.1.7: `container`, `sinceTime`, `filename`.
    assert_eq!(
        facts("Container name (required when pod has multiple containers)").as_deref(),
        Some("Required when pod has multiple containers")
    );
    assert_eq!(facts("Container name (required)"), None);
    assert_eq!(
        facts("Show logs since absolute time (RFC3339)").as_deref(),
        Some("Show logs since absolute time; RFC3339")
    );
    assert_eq!(
        facts("Path to a YAML file to apply (optional - use either manifest or filename)")
            .as_deref(),
        Some("Use either manifest or filename")
    );
    // chrome-devtools-mcp's `pageSize`: "Maximum number of" is what a limit is.
    assert_eq!(
        facts("Maximum number of CSS rules to return per page. Defaults to 10.").as_deref(),
        Some("Defaults to 10")
    );
}

#[test]
fn facts_begin_with_a_capital_unless_with_a_name_or_a_value() {
    let string = json!({"type": "string"});
    let facts = |text: &str| facts(text, &string, 12);
    // @playwright/mcp 0.0.86's `browser_find.text`: an aside's fact first.
    assert_eq!(
        facts("Plain text to search for in the page snapshot (case-insensitive substring match).")
            .as_deref(),
        Some("Case-insensitive substring match")
    );
    // @notionhq/notion-mcp-server 2.5.2's `API-update-page-markdown.type`: a value first.
    let kinds = "The kind of edit to apply. insert_content and replace_content_range are \
                 deprecated.";
    assert_eq!(
        facts(kinds).as_deref(),
        Some("insert_content and replace_content_range are deprecated")
    );
    assert_eq!(
        facts("Which list ('local' or 'remote')").as_deref(),
        Some("'local' or 'remote'")
    );
}

#[test]
fn a_semicolon_inside_an_aside_parts_no_facts() {
    // @cyanheads/git-mcp-server 2.15.3's `git_tag.force`: "Overwrite an existing tag
    // (create mode only." was drafted: the facts were parted at a `; ` inside the aside.
    let boolean = json!({"type": "boolean"});
    let force = "Overwrite an existing tag (create mode only; has no effect on list or delete).";
    assert_eq!(
        facts(force, &boolean, 24).as_deref(),
        Some("Overwrite an existing tag (create mode only; has no effect on list or delete)")
    );
    assert_eq!(parts("a (b; c); d"), ["a (b; c)", "d"]);
}
