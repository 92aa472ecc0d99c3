use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(10), "ten")]);

fn main() {}
