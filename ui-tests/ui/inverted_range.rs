use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(4..=2), "backwards")]);

fn main() {}
