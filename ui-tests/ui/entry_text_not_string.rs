use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(3), 5)]);

fn main() {}
