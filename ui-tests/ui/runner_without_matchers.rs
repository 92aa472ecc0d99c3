use mcp_tailor::{description, Description};

static D: Description = description!(
    descriptions = [a = "A"],
    runners = [(codex, [default = a])],
);

fn main() {}
