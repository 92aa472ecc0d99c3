//! The queries a draft is checked with: made of the server's own words, as short as a
//! user's query (a task file's are added by the check).

use super::super::{facts, plain, words};
use rmcp::model::Tool;

/// One query: its words, the tool it should find, and whether a task file asked it.
#[derive(Clone)]
pub(super) struct Query {
    pub(super) text: String,
    pub(super) tool: usize,
    pub(super) task: bool,
    /// The argument whose description it comes from (its path).
    pub(super) argument: Option<String>,
}

/// The queries made of each tool's own words: its title, and each clause ([`clauses`]) of
/// its description's sentences and of its arguments' facts (values, formats, units), and
/// the values its arguments' examples quote (`2 weeks ago, yesterday`). The rest of an
/// argument's text says how to call the tool, not what it is for: no user looks for
/// `Operation to perform`.
pub(super) fn own_queries(tools: &[Tool]) -> Vec<Query> {
    let mut queries: Vec<Query> = Vec::new();
    for (tool, own) in tools.iter().enumerate() {
        let mut push = |text: &str, argument: Option<&str>| {
            let text = text.trim();
            if text.split_whitespace().count() >= 2
                && !queries.iter().any(|q| q.tool == tool && q.text == text)
            {
                queries.push(Query {
                    text: text.to_owned(),
                    tool,
                    task: false,
                    argument: argument.map(str::to_owned),
                });
            }
        };
        let annotated = own.annotations.as_ref().and_then(|a| a.title.as_deref());
        push(own.title.as_deref().or(annotated).unwrap_or_default(), None);
        let mut texts = vec![(
            None,
            own.description.as_deref().unwrap_or_default().to_owned(),
        )];
        let mut described = Vec::new();
        super::super::described(&own.input_schema, &own.input_schema, "", &mut described);
        for (path, text, schema) in described {
            let units = words::argument_units(&text, &schema);
            // Its quoted examples, each aside's as one query: `2 weeks ago, yesterday`.
            for unit in &units {
                for (aside, _) in &unit.asides {
                    let inner = unit.inner(aside);
                    if facts::quoted_examples(inner) {
                        let values: Vec<&str> =
                            inner.split(facts::QUOTES).skip(1).step_by(2).collect();
                        push(&values.join(", "), Some(&path));
                    }
                }
            }
            let facts: Vec<String> = units
                .iter()
                .filter(|u| u.prose() && facts::is_fact(&u.lean(), &schema))
                .map(|u| u.lean())
                .collect();
            if !facts.is_empty() {
                texts.push((Some(path), facts.join(" ")));
            }
        }
        for (argument, text) in &texts {
            for paragraph in plain::paragraphs(text) {
                for sentence in mcp_tailor_inspect::seam::prose::sentences(&paragraph) {
                    for clause in clauses(sentence) {
                        push(&clause, argument.as_deref());
                    }
                }
            }
        }
    }
    queries
}

/// The clauses of `sentence`, as short as a user's query: split at its marks (`, ` `; `
/// `: ` ` - `), before its examples, and around its asides.
fn clauses(sentence: &str) -> Vec<String> {
    let mut text = sentence.to_owned();
    let markers = [
        "for example",
        "for instance",
        "such as",
        "e.g.",
        "including",
        "(",
        ")",
        "[",
        "]",
    ];
    for marker in markers {
        text = text.replace(marker, "|");
    }
    for mark in [", ", "; ", ": ", " - ", " — "] {
        text = text.replace(mark, "|");
    }
    text.split('|')
        .map(|c| c.trim().trim_end_matches(['.', ',']).to_owned())
        .filter(|c| !c.is_empty())
        .collect()
}
