use mcp_tailor::{description, Description};

static D: Description = description!(description = "a", description = "b");

fn main() {}
