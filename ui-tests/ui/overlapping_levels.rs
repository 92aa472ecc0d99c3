use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(3), "three"), (verbosity(2..=4), "overlap")]);

fn main() {}
