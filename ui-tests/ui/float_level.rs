use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(2.5), "a float level")]);

fn main() {}
