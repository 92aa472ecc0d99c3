use mcp_tailor::{description, Description};

static D: Description = description!(description = [default = "a", default = "b"]);

fn main() {}
