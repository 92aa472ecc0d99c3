use mcp_tailor::{description, Description};

static D: Description = description!(description = [default = 5]);

fn main() {}
