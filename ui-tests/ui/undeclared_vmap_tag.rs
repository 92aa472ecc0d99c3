use mcp_tailor::{description, Description};

static D: Description = description!(
    descriptions = [a = "A", b = "B"],
    verbosity_map = [(0..=4, nope)],
);

fn main() {}
