use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity([1, 1]), "twice")]);

fn main() {}
