use mcp_tailor::mcp_tool;

/// A tool.
#[mcp_tool]
enum Tool {
    A,
}

fn main() {}
