use mcp_tailor::{description, Description};

static D: Description = description!(description = [(verbosity(0), "x"), runners = [], defualt = "y"]);

fn main() {}
