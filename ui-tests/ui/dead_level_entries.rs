#![deny(warnings)]
use mcp_tailor::{description, Description};

// A non-empty `verbosity_map` answers every level: the inline entries are dead.
static D: Description = description!(
    description = [(verbosity(0), "zero"), (verbosity(9), "nine")],
    descriptions = [short = "short"],
    verbosity_map = [(0..=9, short)],
);

fn main() {}
