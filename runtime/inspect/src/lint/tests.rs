use super::named_arguments;

/// The names `text` mentions that it does not give as values.
fn names(text: &str, tool: &str) -> Vec<String> {
    named_arguments(text, tool)
        .into_iter()
        .filter(|(_, value)| !value)
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn finds_backticked_names_and_signature_parameters() {
    assert_eq!(
        names(
            "search_notes(query, tag?, limit?) -> [{id}]",
            "search_notes"
        ),
        ["query", "tag", "limit"]
    );
    assert_eq!(
        names("Pass `query` as plain words, no `#`; see `a b`.", "x"),
        ["query"]
    );
    assert_eq!(names("f(a: string, b?: number)", "f"), ["a", "b"]);
    assert!(names("no names here", "t").is_empty());
    // Desktop Commander's `write_file`, three calls: each name once.
    assert_eq!(
        names(
            "1. write_file(filePath, firstChunk, {mode: 'rewrite'}) \
             2. write_file(filePath, secondChunk, {mode: 'append'}) with `mode`",
            "write_file"
        ),
        ["mode", "filePath", "firstChunk", "secondChunk"]
    );
}

#[test]
fn a_name_given_as_a_value_is_none() {
    // Notion's `API-post-search`, as its server words it.
    assert_eq!(
        names(
            "The direction to sort. Possible values include `ascending` and `descending`.",
            "t"
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        names(
            "Possible values include `object`. Currently the only filter allowed is \
             `object` which filters by `kind`.",
            "t"
        ),
        ["kind"]
    );
    assert_eq!(
        names("A `cursor` value returned in a previous response.", "t"),
        Vec::<String>::new()
    );
    // Named in a sentence about values: a name, and given as a value there (an
    // argument the tool has still counts as named: `unknown_arguments`).
    assert_eq!(
        named_arguments("Pass `query`; its values are words.", "t"),
        [("query".to_owned(), true)]
    );
}

#[test]
fn a_schema_s_values_and_types_are_known() {
    let mut values = super::BTreeSet::new();
    let schema = serde_json::json!({"type": "object", "properties": {
        "value": {"type": "string", "enum": ["page", "data_source"]},
        "sort": {"const": "asc", "default": "desc", "examples": ["newest"]}}});
    super::schema_values(&schema, &mut values);
    assert_eq!(
        values.into_iter().collect::<Vec<_>>(),
        [
            "asc",
            "data_source",
            "desc",
            "newest",
            "object",
            "page",
            "string"
        ]
    );
}
