use mcp_tailor::{description, Description};

static D: Description = description!(description = ["no level"]);

fn main() {}
