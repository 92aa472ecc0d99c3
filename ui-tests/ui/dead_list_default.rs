#![deny(warnings)]
use mcp_tailor::{description, Description};

// `default` is never served while the list has level entries.
static D: Description = description!(description = [(verbosity(0), "zero"), default = "DEF"]);

fn main() {}
