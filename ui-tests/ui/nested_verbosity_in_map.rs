use mcp_tailor::{description, Description};

static D: Description = description!(
    descriptions = [a = "A"],
    verbosity_map = [(verbosity(verbosity(3)), a)],
);

fn main() {}
