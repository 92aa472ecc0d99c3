use mcp_tailor::{description, Description};

const NOTHING: &str = "";

static D: Description = description!(description = [(verbosity(0), NOTHING)]);

fn main() {}
