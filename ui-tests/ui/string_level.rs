use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity("3"), "a string level")]);

fn main() {}
