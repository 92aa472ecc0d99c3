use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(0..5), "exclusive")]);

fn main() {}
