use mcp_tailor::{description, Description};

static D: Description = description!(
    descriptions = [a = "A"],
    runners = [((codex, _), [(loud(1), a)])],
);

fn main() {}
