use mcp_tailor::{description, Description};

static D: Description = description!(descriptions = [a = "A", "a" = "B"]);

fn main() {}
