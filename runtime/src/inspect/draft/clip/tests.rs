use super::*;
use serde_json::json;

#[test]
fn markup_and_asides_go() {
    assert_eq!(
        plain("# Title\n\nRead **a** file (`path`).\n\n```js\nx()\n```\n- see [docs](http://x)"),
        "Title\nRead a file (path).\nsee docs"
    );
    // HTML tags go; a placeholder in angle brackets is words the text needs.
    assert_eq!(
        plain("Show <b>a</b> file given as <revision>:<path><br/>"),
        "Show a file given as <revision>:<path>"
    );
    assert_eq!(
        without_asides("Search files (recursively) by pattern, e.g. '*.rs' in src."),
        "Search files by pattern"
    );
}

#[test]
fn sentences_respect_abbreviations_and_numbers() {
    assert_eq!(
        sentences("Use e.g. globs. Version 1.5 works! Done"),
        ["Use e.g. globs.", "Version 1.5 works!", "Done"]
    );
}

#[test]
fn terse_and_middle_fit_their_budgets() {
    let text = "Read the complete contents of a file from the file system as text. Handles \
                various text encodings and provides detailed error messages if the file \
                cannot be read. Use this tool when you need to examine a file.";
    let terse = terse(text, 12);
    assert!(count_tokens(&terse) <= 12, "{terse}");
    assert!(terse.starts_with("Read the complete contents"), "{terse}");
    let middle = middle(text, 40);
    assert!(count_tokens(&middle) <= 40, "{middle}");
    assert!(middle.len() > terse.len());
    assert_eq!(fit("Short.", 12), "Short.");
}

#[test]
fn a_cut_drops_a_list_of_examples_whole() {
    let number = json!({"type": "number"});
    assert_eq!(
        fit("Current thought number, e.g., 1, 2, 3, 4, 5, 6, 7, 8", 8),
        "Current thought number."
    );
    assert_eq!(
        facts(
            "Current thought number (numeric value, e.g., 1, 2, 3)",
            &number,
            6
        )
        .as_deref(),
        Some("numeric value.")
    );
    // Not a list of examples: cut at its last clause break, as elsewhere.
    assert_eq!(
        fit(
            "Use a name, e.g. alpha, and a size, counted in whole bytes of the file on disk",
            16
        ),
        "Use a name, e.g. alpha, and a size."
    );
    // Cut at a clause break, its full stop counted, before word by word.
    assert_eq!(
        fit("Alpha beta, gamma delta, epsilon zeta eta theta", 5),
        "Alpha beta."
    );
    // server-filesystem's `directory_tree`-like sentence: no "…, including."
    assert_eq!(
        fit(
            "Get a detailed listing of all files and directories in a specified path, \
             including their sizes",
            16
        ),
        "Get a detailed listing of all files and directories in a specified path."
    );
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
        Some("default: 1")
    );
    assert_eq!(
        facts("Number of results per page (default: 30, max: 100)").as_deref(),
        Some("default: 30, max: 100")
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
        argument_sentence("Page number (default: 1, e.g. 2). More.", &none, 24),
        "Page number (default: 1, e.g. 2)"
    );
    assert_eq!(
        argument_sentence("Branch (e.g. 'main').", &none, 24),
        "Branch"
    );
}

#[test]
fn a_cut_does_not_break_off_mid_phrase() {
    // Context7's `libraryId`, its facts cut word by word.
    assert_eq!(
        fit(
            "Exact Context7-compatible library ID retrieved from 'resolve-library-id' or \
             directly from user query",
            12
        ),
        "Exact Context7-compatible library ID retrieved."
    );
    assert_eq!(
        fit("Alpha beta of the gamma delta epsilon", 5),
        "Alpha beta."
    );
    // Nor on the dash its examples began after (Context7's `libraryName`).
    assert_eq!(
        fit(
            "Use the official library name with proper punctuation — e.g., 'Next.js' \
             instead of 'nextjs', 'Three.js' instead of 'threejs'",
            12
        ),
        "Use the official library name with proper punctuation."
    );
    // Two words are left at least.
    assert_eq!(fit("Read from the file on the disk", 3), "Read from.");
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
        Some("Do not include any sensitive or confidential information.")
    );
    assert_eq!(
        without_asides("Bad (too vague): 'auth' , or 'hooks' ."),
        "Bad: 'auth', or 'hooks'."
    );
}

#[test]
fn a_list_s_heading_ends_the_first_paragraph() {
    // Notion's tools: the first line is the description, then a list of error responses.
    let text = "Notion | Retrieve a user\nError Responses:\n400: Bad request";
    assert_eq!(
        plain(text),
        "Notion | Retrieve a user\nError Responses: 400: Bad request"
    );
    assert_eq!(terse(text, 16), "Notion | Retrieve a user");
    // A line wrapped mid-sentence is still one sentence.
    assert_eq!(plain("Read a file\nas text."), "Read a file as text.");
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
    assert_eq!(argument_sentence(function, &none, 24), "");
    assert_eq!(facts(function, &none, 12), None);
    // Playwright's `browser_run_code_unsafe.code`: its example's parentheticals are the
    // example's, no facts.
    let code = "A JavaScript function containing Playwright code to execute. For example: \
                `async (page) => { await page.getByRole('button', { name: 'Submit' }).click(); }`";
    assert_eq!(facts(code, &none, 12), None);
    assert_eq!(
        argument_sentence(code, &none, 24),
        "A JavaScript function containing Playwright code to execute"
    );
}
