//! `init`'s drafting on random server words: markup, bullets, numbered lists, headings,
//! tags, asides left open or inside words, quotes, lists, conditions, numbers and non-ASCII
//! text, for up to four tools' descriptions (at times with a first paragraph they share) and
//! their arguments' of each kind of schema. No draft panics, each is a tailoring file
//! that passes every rule `check` applies, its audit finds nothing broken (each level the
//! server's own units, its rules kept, shrinking as it falls), and no drafted text is
//! longer than the server's.

use mcp_tailor::Tailoring;
use mcp_tailor::init::draft;
use mcp_tailor::inspect::count_tokens;
use proptest::prelude::*;
use rmcp::model::Tool;
use serde_json::{Value, json};

/// What server words are made of, the marks a draft reads included.
const PIECES: &[&str] = &[
    "Read",
    "the",
    "file",
    "path",
    "to",
    "from",
    "or",
    "and",
    "one or more",
    "papers",
    "that",
    "which",
    "using",
    "over",
    "last",
    "3",
    "1.5",
    "0-based",
    "e.g.",
    "such as",
    "including:",
    "default:",
    "Default is",
    "'x'",
    "\"json\"",
    "`code`",
    "**bold**",
    "[link](http://x)",
    "<b>",
    "<path>",
    "(",
    ")",
    "[",
    "]",
    "field(s)",
    "items[0]",
    "branches('all')",
    ",",
    ";",
    ":",
    ".",
    " - ",
    " — ",
    "\n",
    "\n\n",
    "\n- ",
    "\n* ",
    "If not supplied",
    "only",
    "not",
    "must",
    "format",
    "ISO",
    "url",
    "ms",
    "é",
    "日本語",
    "=> {",
    "}",
    "Good:",
    "Bad:",
    "optional",
    "(default)",
    "\n1. ",
    "2)",
    "\n🎯 Purpose:\n",
    "\n## Overview\n",
    "<use_case>",
    "</use_case>",
    " – ",
    "will",
    "most relevant",
    "generating",
];

fn words() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|p| p.join(" "))
}

fn schema_kind() -> impl Strategy<Value = Value> {
    prop::sample::select(vec![
        json!({"type": "string"}),
        json!({"type": "boolean", "default": false}),
        json!({"type": "integer", "minimum": 1}),
        json!({"type": "string", "enum": ["url", "json", "x"], "default": "json"}),
        json!({"type": "array", "items": {"type": "string"}}),
    ])
}

fn tool(name: String, description: String, arguments: Vec<(String, Value)>) -> Tool {
    let properties: serde_json::Map<String, Value> = arguments
        .into_iter()
        .enumerate()
        .map(|(i, (text, mut schema))| {
            schema["description"] = json!(text);
            (format!("arg{i}"), schema)
        })
        .collect();
    let Value::Object(schema) = json!({"type": "object", "properties": properties}) else {
        unreachable!()
    };
    Tool::new(name, description, std::sync::Arc::new(schema))
}

/// Every `text = "…"` of a draft, read back as TOML strings.
fn drafted(text: &str) -> Vec<String> {
    let value: toml::Value = toml::from_str(text).unwrap();
    let mut out = Vec::new();
    fn walk(value: &toml::Value, out: &mut Vec<String>) {
        match value {
            toml::Value::Table(table) => {
                if let Some(toml::Value::String(text)) = table.get("text") {
                    out.push(text.clone());
                }
                table.values().for_each(|v| walk(v, out));
            }
            toml::Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    walk(&value, &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// One to four tools, their descriptions at times beginning with one paragraph they
    /// share (which leads none of them where enough share it).
    #[test]
    fn drafts_of_any_words_are_files_that_pass_check(
        preamble in prop::option::of(words()),
        described in prop::collection::vec(
            (words(), prop::collection::vec((words(), schema_kind()), 0..4)),
            1..5,
        ),
    ) {
        let tools: Vec<Tool> = described
            .iter()
            .enumerate()
            .map(|(i, (own, arguments))| {
                let description = match &preamble {
                    Some(preamble) => format!("{preamble}\n\n{own}"),
                    None => own.clone(),
                };
                tool(format!("tool_{i}"), description, arguments.clone())
            })
            .collect();
        let drafted_file = draft(&tools, "random words");
        if let Err(error) = Tailoring::parse("draft.toml", &drafted_file.text) {
            prop_assert!(false, "{error}\n{}", drafted_file.text);
        }
        // Every level the server's own units, its rules kept, shrinking as it falls.
        prop_assert!(
            drafted_file.audit.is_clean(),
            "{}\n{}",
            drafted_file.audit.summary(),
            drafted_file.text
        );
        let longest = tools
            .iter()
            .map(|tool| count_tokens(tool.description.as_deref().unwrap_or_default()))
            .chain(described.iter().flat_map(|(_, arguments)| {
                arguments.iter().map(|(text, _)| count_tokens(text))
            }))
            .max()
            .unwrap_or(0);
        for text in drafted(&drafted_file.text) {
            prop_assert!(!text.trim().is_empty(), "{}", drafted_file.text);
            prop_assert!(count_tokens(&text) <= longest, "{text:?}\n{}", drafted_file.text);
        }
    }
}
