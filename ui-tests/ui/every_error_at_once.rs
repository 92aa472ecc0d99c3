use mcp_tailor::{description, Description};

static D: Description = description!(
    description = [(verbosity(10), "ten"), (verbosity(0..3), "x"), default = 5],
    descriptions = [a = "A", a = "again"],
    verbosity_map = [(0, nope)],
    runners = [((codex, 5.4), [default = a])],
    descriptoins = [],
);

fn main() {}
