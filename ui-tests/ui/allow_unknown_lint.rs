use mcp_tailor::{description, Description};

static D: Description = description!(allow(dead_varients), description = "x");

fn main() {}
