use mcp_tailor::{description, Description};

static D: Description = description!(description = [default_verbosity = 1, default_verbosity = 2]);

fn main() {}
