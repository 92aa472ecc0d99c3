//! The index surface's two tools. `search_tools`' description is the index: one line per
//! tool, its exact name first, then its words at the index level: as many whole sentences
//! as the budget leaves room for, every tool's first before any tool's second (past it,
//! the longest first sentences leave, whole, and those lines are names alone). Its answer is
//! the found tools as MCP `Tool` objects: name, the reader's description, the whole input
//! schema. `call_tool` calls a tool by name (`session` serves both).

use super::{Budget, IndexSurface};
use crate::listing::list::{ListingInputs, own_words, paged, presented};
use crate::request::info::RequestInfo;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, ListToolsResult, Tool};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::time::Instant;

/// The index surface's search: `{"query": string, "limit": integer}`.
pub const SEARCH_TOOLS: &str = "search_tools";
/// The index surface's call: `{"name": string, "arguments": object}`.
pub const CALL_TOOL: &str = "call_tool";
/// How many tools `search_tools` answers when the call names no `limit`.
pub const DEFAULT_LIMIT: usize = 5;
/// The most tools one `search_tools` answer holds, whatever `limit` says.
const MAX_LIMIT: usize = 50;

/// How `search_tools`' description opens, before the index's lines.
const SEARCH_OPENING: &str = "Find tools for a task; answers their input schemas. Tools:";
/// `call_tool`'s description.
const CALL_DESCRIPTION: &str = "Call a tool by name with its arguments.";

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::default(),
    }
}

/// The index's lines of `tools` (presented at the index level), one per tool: its name,
/// then its first sentence (within `budget`, as many whole sentences as fit, in turn).
pub(crate) fn lines(surface: &IndexSurface, tools: &[Tool], budget: Option<usize>) -> String {
    let sentences: Vec<Vec<String>> = tools
        .iter()
        .map(|tool| {
            let text = tool.description.as_deref().unwrap_or_default();
            surface
                .finder
                .sentences(text)
                .into_iter()
                .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|s| !s.is_empty())
                .collect()
        })
        .collect();
    // A tool's line with its first `n` sentences (its name alone for none).
    let line = |i: usize, n: usize| match n {
        0 => tools[i].name.to_string(),
        _ => format!("{}: {}", tools[i].name, sentences[i][..n].join(" ")),
    };
    let written = |taken: &[usize]| {
        let lines: Vec<String> = taken.iter().enumerate().map(|(i, &n)| line(i, n)).collect();
        lines.join("\n")
    };
    let first: Vec<usize> = sentences.iter().map(|s| s.len().min(1)).collect();
    let Some(budget) = budget else {
        return written(&first);
    };
    // Counted line by line (a line with its newline, which may share a token with the
    // line's last mark), each line once per change.
    let line_cost = |i: usize, n: usize| surface.finder.tokens(&format!("{}\n", line(i, n)));
    let mut taken = first;
    let mut cost: Vec<usize> = (0..tools.len()).map(|i| line_cost(i, taken[i])).collect();
    let mut total: usize = cost.iter().sum();
    if total > budget {
        // The longest first sentences leave first, whole, until it fits; a second sentence
        // of one tool never stands before the first of another.
        let mut longest: Vec<usize> = (0..tools.len()).filter(|&i| taken[i] > 0).collect();
        longest.sort_by_key(|&i| std::cmp::Reverse(sentences[i][0].len()));
        for i in longest {
            taken[i] = 0;
            let named = line_cost(i, 0);
            total = total - cost[i] + named;
            cost[i] = named;
            if total <= budget {
                break;
            }
        }
        return written(&taken);
    }
    // One more sentence per tool in turn, while the index fits; a tool whose next sentence
    // does not fit says no more.
    let mut growing: Vec<bool> = taken.iter().map(|&n| n > 0).collect();
    while growing.iter().any(|&g| g) {
        for i in 0..tools.len() {
            if !growing[i] || taken[i] >= sentences[i].len() {
                growing[i] = false;
                continue;
            }
            let grown = line_cost(i, taken[i] + 1);
            if total - cost[i] + grown <= budget {
                total = total - cost[i] + grown;
                cost[i] = grown;
                taken[i] += 1;
            } else {
                growing[i] = false;
            }
        }
    }
    written(&taken)
}

/// The lines of an index (`search_tools`' description, as this layer writes it): each
/// tool's name and its words; `None` when `description` is not an index.
pub fn index_lines(description: &str) -> Option<Vec<(&str, &str)>> {
    let lines = description
        .strip_prefix(SEARCH_OPENING)?
        .strip_prefix('\n')?;
    Some(
        lines
            .lines()
            .map(|line| line.split_once(": ").unwrap_or((line, "")))
            .collect(),
    )
}

/// The two tools the index surface lists, `search_tools` carrying `lines`.
pub(crate) fn listed(lines: &str) -> [Tool; 2] {
    let search = Tool::new(
        SEARCH_TOOLS,
        format!("{SEARCH_OPENING}\n{lines}"),
        schema(json!({
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query"],
        })),
    );
    let call = Tool::new(
        CALL_TOOL,
        CALL_DESCRIPTION,
        schema(json!({
            "type": "object",
            "properties": {"name": {"type": "string"}, "arguments": {"type": "object"}},
            "required": ["name"],
        })),
    );
    [search, call]
}

/// The index surface's `tools/list` page at `cursor`: `search_tools` with the index's lines,
/// `call_tool`, then (where the surface loads what it finds) the tools in `found`, as the
/// reader reads them natively. `wrapped` is the wrapped handler's whole tool list.
pub(crate) async fn index_listing(
    listing: &ListingInputs,
    surface: &IndexSurface,
    info: &Arc<RequestInfo>,
    wrapped: Vec<Tool>,
    found: &BTreeSet<String>,
    cursor: Option<&str>,
    deadline: Instant,
) -> Result<ListToolsResult, ErrorData> {
    let mut at_level = (**info).clone();
    at_level.reader.verbosity = Some(surface.level);
    let lined = presented(listing, &Arc::new(at_level), wrapped.clone(), deadline).await?;
    let budget = match surface.budget {
        Budget::Tokens(tokens) => tokens,
        Budget::Share(share) => {
            let own = own_words(listing, info, wrapped.clone(), deadline).await;
            let own = serde_json::to_string(&json!({ "tools": own })).unwrap_or_default();
            (surface.finder.tokens(&own) as f64 * share) as usize
        }
    };
    let mut tools = listed(&lines(surface, &lined, Some(budget))).to_vec();
    if surface.load_on_find && !found.is_empty() {
        let native = presented(listing, info, wrapped, deadline).await?;
        tools.extend(
            native
                .into_iter()
                .filter(|tool| found.contains(tool.name.as_ref())),
        );
    }
    paged(listing, info, tools, cursor)
}

/// What a `search_tools` call asks.
#[derive(Debug)]
pub(crate) struct SearchQuery {
    pub(crate) query: String,
    pub(crate) limit: usize,
}

/// What a `call_tool` call names.
#[derive(Debug)]
pub(crate) struct Named {
    pub(crate) name: String,
    pub(crate) arguments: JsonObject,
}

fn refused(tool: &str, why: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("`{tool}`: {why}"),
        Some(json!({ "reason": super::arguments::INVALID_ARGUMENTS, "name": tool })),
    )
}

impl SearchQuery {
    /// The query and limit of `search_tools`' arguments.
    pub(crate) fn read(arguments: Option<&JsonObject>) -> Result<SearchQuery, ErrorData> {
        let arguments = arguments.ok_or_else(|| refused(SEARCH_TOOLS, "`query` is required"))?;
        let query = match arguments.get("query") {
            Some(Value::String(query)) => query.clone(),
            _ => return Err(refused(SEARCH_TOOLS, "`query` is required: a string")),
        };
        let limit = match arguments.get("limit") {
            None | Some(Value::Null) => DEFAULT_LIMIT,
            Some(limit) => match limit.as_u64() {
                Some(n) if n >= 1 => (n as usize).min(MAX_LIMIT),
                _ => {
                    return Err(refused(
                        SEARCH_TOOLS,
                        "`limit` is a whole number, 1 or more",
                    ));
                }
            },
        };
        Ok(SearchQuery { query, limit })
    }
}

impl Named {
    /// The tool and arguments of `call_tool`'s arguments.
    pub(crate) fn read(arguments: Option<&JsonObject>) -> Result<Named, ErrorData> {
        let arguments = arguments.ok_or_else(|| refused(CALL_TOOL, "`name` is required"))?;
        let name = match arguments.get("name") {
            Some(Value::String(name)) => name.clone(),
            _ => return Err(refused(CALL_TOOL, "`name` is required: a tool's name")),
        };
        let arguments = match arguments.get("arguments") {
            None | Some(Value::Null) => JsonObject::new(),
            Some(Value::Object(arguments)) => arguments.clone(),
            Some(_) => return Err(refused(CALL_TOOL, "`arguments` is an object")),
        };
        Ok(Named { name, arguments })
    }
}

/// `search_tools`' answer: the found tools (name, description, input schema), in
/// `structuredContent` and as the same JSON in text.
pub(crate) fn answer(found: &[Tool]) -> CallToolResult {
    let tools: Vec<Value> = found
        .iter()
        .map(|tool| {
            let mut object = json!({ "name": tool.name });
            if let Some(description) = &tool.description {
                object["description"] = json!(description);
            }
            object["inputSchema"] = Value::Object((*tool.input_schema).clone());
            object
        })
        .collect();
    let structured = json!({ "tools": tools });
    let mut result = CallToolResult::success(vec![ContentBlock::text(structured.to_string())]);
    result.structured_content = Some(structured);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface::Finder;

    /// Sentences cut after ". ", and a token per word.
    struct Words;
    impl Finder for Words {
        fn rank(&self, _: &[Tool], _: &str) -> Vec<usize> {
            Vec::new()
        }
        fn sentences<'a>(&self, description: &'a str) -> Vec<&'a str> {
            description.split_inclusive(". ").collect()
        }
        fn tokens(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    fn tool(name: &str, description: &str) -> Tool {
        Tool::new(name.to_owned(), description.to_owned(), Arc::default())
    }

    #[test]
    fn a_line_is_the_name_then_whole_sentences_as_the_budget_allows() {
        let tools = [
            tool(
                "read_file",
                "Read a file\nfrom disk. Large files are cut. Binary too.",
            ),
            tool("list", "List. Sorted."),
            tool("ping", ""),
        ];
        let surface = IndexSurface::new(Words);
        let first = "read_file: Read a file from disk.\nlist: List.\nping";
        assert_eq!(lines(&surface, &tools, None), first);
        // Counted line by line, a word a token: the first sentences are 9.
        assert_eq!(lines(&surface, &tools, Some(9)), first);
        assert_eq!(
            lines(&surface, &tools, Some(10)),
            "read_file: Read a file from disk.\nlist: List. Sorted.\nping"
        );
        assert_eq!(
            lines(&surface, &tools, Some(14)),
            "read_file: Read a file from disk. Large files are cut.\nlist: List. Sorted.\nping"
        );
        // 7: read_file's first sentence, the longest, leaves; 3: every one.
        assert_eq!(
            lines(&surface, &tools, Some(7)),
            "read_file\nlist: List.\nping"
        );
        assert_eq!(lines(&surface, &tools, Some(3)), "read_file\nlist\nping");
        let [search, call] = listed("read_file\nlist");
        assert!(
            search
                .description
                .unwrap()
                .ends_with("Tools:\nread_file\nlist")
        );
        assert_eq!(call.input_schema["required"], json!(["name"]));
    }

    #[test]
    fn a_search_and_a_call_are_read_or_refused_with_why() {
        let args = |v: Value| v.as_object().cloned();
        let q = SearchQuery::read(args(json!({"query": "move"})).as_ref()).unwrap();
        assert_eq!((q.query.as_str(), q.limit), ("move", DEFAULT_LIMIT));
        assert_eq!(
            SearchQuery::read(args(json!({"query": "x", "limit": 900})).as_ref())
                .unwrap()
                .limit,
            MAX_LIMIT
        );
        assert!(SearchQuery::read(args(json!({"query": "x", "limit": 0})).as_ref()).is_err());
        assert!(
            SearchQuery::read(None)
                .unwrap_err()
                .message
                .contains("`query` is required")
        );
        let n = Named::read(args(json!({"name": "read_file"})).as_ref()).unwrap();
        assert_eq!((n.name.as_str(), n.arguments.len()), ("read_file", 0));
        assert!(Named::read(args(json!({"name": "a", "arguments": [1]})).as_ref()).is_err());
        let answered = answer(&[tool("read_file", "Read a file.")]);
        let structured = answered.structured_content.unwrap();
        assert_eq!(structured["tools"][0]["name"], "read_file");
        assert_eq!(structured["tools"][0]["inputSchema"], json!({}));
    }
}
