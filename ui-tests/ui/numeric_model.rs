use mcp_tailor::{description, Description};

static D: Description = description!(
    descriptions = [a = "A"],
    runners = [((codex, 5.4), [default = a])],
);

fn main() {}
