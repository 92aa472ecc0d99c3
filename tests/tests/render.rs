//! Rendering a tool — the MCP `Tool` object per context, for every DSL form.
#![allow(dead_code)]

use mcp_tailor::{McpTool, RenderCtx, mcp_tool};
use serde_json::{Value, json};

const LONG: &str = "List every note, newest first, with ids, titles and tags.";

/// List the notes.
#[mcp_tool(
    allow(dead_variants),
    title = [(verbosity(0..=4), "Notes"), (verbosity(5..=9), "List notes")],
    description = [(verbosity(0), "List notes."), (verbosity(9), LONG), default = "List the notes."],
    annotations(title = "List notes", read_only_hint = true, open_world_hint = false),
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListNotes {
    /// How many notes to return.
    #[mcp(description = [(verbosity(0), "max"), (verbosity(9), "How many notes to return, 1..=100.")])]
    max_results: Option<u32>,
    /// Only notes with this tag.
    #[serde(rename = "tag")]
    #[mcp(descriptions = [codex_tag = "Tag filter (exact, case-sensitive)."], runners = [((codex, _), [default = codex_tag])])]
    tag_filter: Option<String>,
    /// Skip this many notes.
    offset: Option<u32>,
    /// Only returned when the reader is codex.
    #[mcp(descriptions = [c = "cursor from a previous call"], runners = [((codex, _), [default = c])])]
    cursor: Option<String>,
}

/// Delete a note.
#[mcp_tool(name = "notes.delete", scopes = ["notes.write", "notes.admin" | "root"])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct DeleteNote {
    /// The note's id.
    id: u64,
}

/// A tool whose every string is bare.
#[mcp_tool(title = "Bare", description = "The same for everyone.")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct BareTool {
    /// The argument.
    #[mcp(description = "An argument.")]
    arg: String,
}

/// Texts from macros and consts.
#[mcp_tool(description = [
    (verbosity(0), concat!("con", "cat")),
    (verbosity(5), include_str!("fixtures/included.txt")),
    (verbosity(9), LONG),
])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct TextForms {}

fn at(level: u8) -> RenderCtx<'static> {
    RenderCtx::new().verbosity(level)
}

/// The schema with every `description` removed: what must never vary.
fn structure(mut value: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("description");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

#[test]
fn name_defaults_to_snake_case_and_can_be_given() {
    assert_eq!(ListNotes::NAME, "list_notes");
    assert_eq!(DeleteNote::NAME, "notes.delete");
    assert_eq!(ListNotes::render(&at(5))["name"], "list_notes");
}

#[test]
fn title_and_description_follow_the_level() {
    let terse = ListNotes::render(&at(0));
    assert_eq!(terse["title"], "Notes");
    assert_eq!(terse["description"], "List notes.");
    let rich = ListNotes::render(&at(9));
    assert_eq!(rich["title"], "List notes");
    assert_eq!(rich["description"], LONG);
}

#[test]
fn annotated_properties_are_keyed_by_serialized_name() {
    let tool = ListNotes::render(&at(0));
    let props = &tool["inputSchema"]["properties"];
    assert_eq!(props["maxResults"]["description"], "max");
    assert_eq!(
        ListNotes::field_description("maxResults", &at(9)),
        Some("How many notes to return, 1..=100.")
    );
    assert_eq!(ListNotes::field_description("max_results", &at(9)), None);
    // `tag` has runners only: its doc comment is the text everyone else reads.
    assert_eq!(props["tag"]["description"], "Only notes with this tag.");
    let codex = ListNotes::render(&RenderCtx::new().runner("codex"));
    assert_eq!(
        codex["inputSchema"]["properties"]["tag"]["description"],
        "Tag filter (exact, case-sensitive)."
    );
}

#[test]
fn unannotated_properties_keep_what_schemars_wrote() {
    for level in [0, 9] {
        let tool = ListNotes::render(&at(level));
        assert_eq!(
            tool["inputSchema"]["properties"]["offset"]["description"],
            "Skip this many notes."
        );
    }
}

#[test]
fn a_property_that_resolves_to_nothing_loses_its_description() {
    // `cursor` has a doc comment, so it always resolves; this one has runners only and no doc.
    /// Tool.
    #[mcp_tool(description = "Tool.")]
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Quiet {
        #[mcp(descriptions = [c = "codex only"], runners = [((codex, _), [default = c])])]
        value: String,
    }
    let plain = Quiet::render(&at(5));
    assert_eq!(
        plain["inputSchema"]["properties"]["value"],
        json!({"type": "string"})
    );
    let codex = Quiet::render(&RenderCtx::new().runner("codex"));
    assert_eq!(
        codex["inputSchema"]["properties"]["value"]["description"],
        "codex only"
    );
}

#[test]
fn schema_structure_never_varies_with_the_context() {
    let reference = structure(ListNotes::render(&RenderCtx::default())["inputSchema"].clone());
    for runner in [None, Some("codex"), Some("grok")] {
        for level in 0..=9 {
            let mut ctx = at(level);
            if let Some(r) = runner {
                ctx = ctx.runner(r);
            }
            let schema = ListNotes::render(&ctx)["inputSchema"].clone();
            assert_eq!(structure(schema), reference);
        }
    }
    assert_eq!(
        structure(ListNotes::def().input_schema().clone()),
        reference,
        "the static schema has the same structure as every rendered one"
    );
}

#[test]
fn a_bare_tool_renders_byte_identically_for_every_context() {
    let reference = serde_json::to_vec(&BareTool::render(&RenderCtx::default())).unwrap();
    for runner in [None, Some("codex"), Some("grok")] {
        for model in [None, Some("5.4")] {
            for level in 0..=9 {
                let mut ctx = at(level).fallback_verbosity(9 - level);
                if let Some(r) = runner {
                    ctx = ctx.runner(r);
                }
                if let Some(m) = model {
                    ctx = ctx.model(m);
                }
                assert_eq!(
                    serde_json::to_vec(&BareTool::render(&ctx)).unwrap(),
                    reference
                );
            }
        }
    }
    assert!(!BareTool::def().is_tailored());
    assert!(ListNotes::def().is_tailored());
}

#[test]
fn the_whole_tool_object() {
    let tool = ListNotes::render(&at(0));
    assert_eq!(
        tool["annotations"],
        json!({"title": "List notes", "readOnlyHint": true, "openWorldHint": false})
    );
    let schema = &tool["inputSchema"];
    assert_eq!(schema["type"], "object");
    assert!(
        schema.get("title").is_none(),
        "the root title is the tool's business"
    );
    assert!(
        schema.get("description").is_none(),
        "the root description is the tool's business"
    );
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let keys: Vec<_> = tool.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    assert!(DeleteNote::render(&at(5)).get("annotations").is_none());
    assert!(DeleteNote::render(&at(5)).get("title").is_none());
}

#[test]
fn doc_comment_is_the_default_description() {
    assert_eq!(DeleteNote::description(&at(0)), Some("Delete a note."));
    assert_eq!(
        DeleteNote::render(&at(0))["inputSchema"]["properties"]["id"]["description"],
        "The note's id."
    );
}

#[test]
fn scopes_are_recorded_as_groups_of_alternatives() {
    let scopes: Vec<Vec<&str>> = DeleteNote::def()
        .scopes()
        .iter()
        .map(|g| g.to_vec())
        .collect();
    assert_eq!(
        scopes,
        vec![vec!["notes.write"], vec!["notes.admin", "root"]]
    );
    assert!(ListNotes::def().scopes().is_empty());
}

#[test]
fn texts_from_concat_include_str_and_consts() {
    assert_eq!(TextForms::description(&at(0)), Some("concat"));
    assert_eq!(
        TextForms::description(&at(5)),
        Some("Included from a file.")
    );
    assert_eq!(TextForms::description(&at(9)), Some(LONG));
}

#[test]
fn json_and_rmcp_encodings_of_a_tool_agree_for_every_reader() {
    let defs = [
        ListNotes::def(),
        DeleteNote::def(),
        BareTool::def(),
        TextForms::def(),
    ];
    let readers = [
        at(0),
        at(9),
        RenderCtx::new().runner("codex"),
        RenderCtx::new().runner("grok").model("4").verbosity(2),
    ];
    for def in defs {
        for ctx in &readers {
            let rmcp = serde_json::to_value(def.tool(ctx)).unwrap();
            assert_eq!(rmcp, def.render(ctx), "{}", def.name());
        }
    }
}

/// `None` is a wording: where it answers, the key is left out — a tool's title or
/// description, an argument's description — in every DSL form (level entries, a variant a
/// runner rule picks, a bare `None`), checked like any text.
#[test]
fn saying_nothing_leaves_the_key_out() {
    /// Search the notes.
    #[mcp_tool(
        title = [(verbosity(0..=4), None), (verbosity(5..=9), "Search")],
        description = [(verbosity(0), None), (verbosity(1..=9), "Search the notes.")],
        descriptions = [quiet = None],
        runners = [((grok, _), [default = quiet])],
    )]
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Search {
        /// Words to look for.
        #[mcp(description = [(verbosity(0..=2), None), (verbosity(3..=9), "Words to look for.")])]
        query: String,
        /// Always left out.
        #[mcp(description = None)]
        page: Option<u32>,
    }
    let terse = Search::render(&at(0));
    assert_eq!(
        terse,
        json!({
            "name": "search",
            "inputSchema": Search::render(&at(9))["inputSchema"].clone().tap(|schema| {
                schema["properties"]["query"].as_object_mut().unwrap().remove("description");
            }),
        })
    );
    let rich = Search::render(&at(9));
    assert_eq!(rich["title"], "Search");
    assert_eq!(rich["description"], "Search the notes.");
    assert_eq!(
        rich["inputSchema"]["properties"]["query"]["description"],
        "Words to look for."
    );
    assert!(
        rich["inputSchema"]["properties"]["page"]
            .get("description")
            .is_none()
    );
    // The runner rule's variant says nothing: grok reads no description at any level.
    let grok = Search::render(&RenderCtx::new().runner("grok").verbosity(9));
    assert!(grok.get("description").is_none(), "{grok}");
    assert_eq!(grok["title"], "Search");
    // `description!` too: a bare `None` resolves to nothing everywhere.
    static SILENT: mcp_tailor::Description = mcp_tailor::description!(description = None);
    assert_eq!(SILENT.resolve(&at(3)), None);
}

/// `value.tap(f)`: `f` applied to a copy, for building expectations.
trait Tap: Sized {
    fn tap(self, f: impl FnOnce(&mut Self)) -> Self;
}

impl Tap for Value {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}
