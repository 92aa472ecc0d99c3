use mcp_tailor::{description, Description};

static D: Description = description!(
    descriptions = [a = "A"],
    verbosity_map = [(0..=12, a)],
);

fn main() {}
