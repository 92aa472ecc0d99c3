use super::*;
use serde_json::json;

#[test]
fn markup_and_asides_go() {
    assert_eq!(
        plain("# Title\n\nRead **a** file (`path`).\n\n```js\nx()\n```\n- see [docs](http://x)"),
        "Title\nRead a file (path).\nsee docs"
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
    // Cut elsewhere as before.
    assert_eq!(
        fit("Alpha beta, gamma delta, epsilon zeta eta theta", 5),
        "Alpha beta, gamma."
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
