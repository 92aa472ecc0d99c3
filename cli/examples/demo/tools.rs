//! The demo's tool set: a small notes server whose five tools together use every form of
//! the DSL, with variants for the runners `codex` and `grok` and for low and high verbosity.

use mcp_tailor::mcp_tool;
use serde::Deserialize;

/// The longest wording of `create_note`, kept as a const to show const texts.
const CREATE_RICH: &str = "Create a note with a title, a Markdown body and optional tags. \
    Returns the new note's id. Titles need not be unique; tags are lower-case words.";

/// Create a note.
#[mcp_tool(
    // The list's `default` is never served next to level entries; it is kept as the
    // definitive text that `inspect list` shows, so its warning is silenced.
    allow(dead_variants),
    title = [(verbosity(0..=4), "New note"), (verbosity(5..=9), "Create a note")],
    description = [
        // `eval` found level 0..=6 losing "save this paragraph in markdown…": they say Markdown.
        (verbosity(0..=2), "Create a Markdown note."),
        (verbosity(3..=6), "Create a note from a title, a Markdown body and tags; returns its id."),
        (verbosity([7, 8, 9]), CREATE_RICH),
        default = "Create a note from a title, a body and tags; returns its id.",
    ],
    descriptions = [
        codex_create = "Create a note. Arguments: title (string), body (Markdown string), tags (array of strings). Returns {\"id\": number}.",
    ],
    runners = [((codex, _), [default = codex_create])],
    annotations(title = "Create a note", read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false),
)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateNote {
    /// The note's title.
    #[mcp(description = [(verbosity(0..=3), "title"), (verbosity(4..=9), "The note's title, one line.")])]
    pub title: String,
    /// The note's body, in Markdown.
    #[mcp(description = [(verbosity(0..=3), "Markdown body"), (verbosity(4..=9), "The note's body, in Markdown. May be empty.")])]
    pub body: String,
    /// Tags for the note.
    #[serde(default)]
    #[mcp(
        description = [(verbosity(0..=3), "tags"), (verbosity(4..=9), "Tags for the note: lower-case words, no `#`.")],
        descriptions = [grok_tags = "Tags as a JSON array of strings, e.g. [\"work\", \"ideas\"]; never a comma-separated string."],
        runners = [((grok, _), [default = grok_tags])],
    )]
    pub tags: Vec<String>,
}

/// Search notes by text.
#[mcp_tool(
    allow(dead_variants), // `default` is the definitive text, as on `CreateNote`
    name = "search_notes",
    title = "Search notes",
    description = [
        (verbosity(0), "Search notes."),
        (verbosity(4), concat!("Search notes by words in their title or body", "; optional tag filter.")),
        (verbosity(9), include_str!("texts/search_rich.md")),
        default = "Search notes by text.",
        default_verbosity = 4,
    ],
    descriptions = [
        grok_plain = "Search notes. `query` is plain words: no quotes, no AND/OR, no wildcards.",
        grok_rich = "Search notes by the words of their title or body. `query` is plain words only: no quotes, no boolean operators, no wildcards. Filter with `tag`. Returns ids, titles and snippets, newest first.",
        "codex-5.4" = "search_notes(query, tag?, maxResults?) -> [{id, title, tags, snippet}]",
    ],
    runners = [
        ((grok, _), [(verbosity(0..=5), grok_plain), (verbosity(6..=9), grok_rich)]),
        ((codex, ["5.4", "5.4-mini"]), [default = "codex-5.4"]),
    ],
    annotations(read_only_hint = true, open_world_hint = false),
)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(rename_all = "camelCase")]
pub struct SearchNotes {
    /// Words to look for.
    #[mcp(
        description = [(verbosity(0..=2), "words"), (verbosity(3..=9), "Words to look for; every word must appear.")],
        descriptions = [grok_query = "Plain words only, e.g. `groceries milk`. Do not quote."],
        verbosity_map = [],
        runners = [((grok, _), [default = grok_query])],
    )]
    pub query: String,
    /// Only notes with this tag.
    pub tag: Option<String>,
    /// At most this many results (default 10).
    #[mcp(description = [(verbosity(0..=3), "max results"), (verbosity(4..=9), "At most this many results, 1 to 50 (default 10).")])]
    pub max_results: Option<u32>,
}

/// Read one note: title, body and tags.
#[mcp_tool(annotations(read_only_hint = true, idempotent_hint = true))]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadNote {
    /// The note's id, from `create_note` or `search_notes`.
    pub id: u64,
}

/// Delete a note for good.
#[mcp_tool(
    title = [(verbosity(0..=4), "Delete"), (verbosity(5..=9), "Delete a note")],
    description = [
        (verbosity(0..=3), "Delete a note."),
        (verbosity(4..=9), "Delete a note for good. There is no undo: confirm with the user first."),
    ],
    descriptions = [grok_delete = "Delete a note for good. Call only after the user confirmed in this conversation; pass the id as a number, not a string."],
    runners = [(("grok", _), [default = grok_delete])],
    annotations(destructive_hint = true, idempotent_hint = true),
    scopes = ["notes.delete" | "notes.admin"],
)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteNote {
    /// The note's id.
    #[mcp(description = [(verbosity(0..=3), "id"), (verbosity(4..=9), "The id of the note to delete.")])]
    pub id: u64,
}

/// Replace a note's tags.
#[mcp_tool(
    name = "tag_note",
    description = "Replace a note's tags with the given list.",
    descriptions = [
        terse = "Set tags.",
        rich = "Replace every tag of a note with the given list. Tags are lower-case words; an empty list removes all tags. Returns the note's new tags.",
        codex_tags = "Set tags: replaces all tags of note `id` with `tags` (array of strings).",
    ],
    verbosity_map = [(verbosity(0..=3), terse), (7..=9, rich)],
    runners = [((codex, _), [default = codex_tags]), ((_, spark), [(verbosity(0..=9), terse)])],
)]
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TagNote {
    /// The note's id.
    pub id: u64,
    /// The new tags.
    #[serde(rename = "tags")]
    #[mcp(description = [(verbosity(0..=3), "tags"), (verbosity(4..=9), "The complete new list of tags.")])]
    pub new_tags: Vec<String>,
}

/// The server's instructions, tailored like the tools.
pub static GUIDE: mcp_tailor::Description = mcp_tailor::description!(
    description = [
        (
            verbosity(0..=3),
            "Notes server: create, search, read, tag, delete."
        ),
        (
            verbosity(4..=9),
            "A notes server. Create notes with `create_note`, find them with `search_notes`, read one with `read_note`, replace its tags with `tag_note`. `delete_note` needs the `notes.delete` scope."
        ),
    ],
    descriptions = [grok_guide =
        "A notes server. Pass ids as numbers and tags as JSON arrays; search with plain words."],
    runners = [((grok, _), [default = grok_guide])],
);
