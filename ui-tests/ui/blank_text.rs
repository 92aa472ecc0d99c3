use mcp_tailor::{description, Description};

static D: Description = description!(description = "  \t ");

fn main() {}
