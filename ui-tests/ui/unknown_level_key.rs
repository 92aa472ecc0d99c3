use mcp_tailor::{description, Description};

static D: Description = description!(description = [(loudness(1), "x")]);

fn main() {}
