// A tool's input schema comes from `schemars`: without `JsonSchema` the tool is not one, and
// rustc says which bound is missing, on the struct.
use mcp_tailor::mcp_tool;

/// Search the notes.
#[mcp_tool]
#[derive(serde::Deserialize)]
struct SearchNotes {
    query: String,
}

fn main() {}
