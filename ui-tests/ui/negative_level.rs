use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(-1), "minus one")]);

fn main() {}
