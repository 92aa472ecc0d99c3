use mcp_tailor::{description, Description};

static D: Description = description!(descriptioon = "x");

fn main() {}
