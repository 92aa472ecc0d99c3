#![deny(warnings)]
use mcp_tailor::{description, Description};

// A rule's `default` next to its level entries is never served.
static D: Description = description!(
    descriptions = [a = "A", b = "B"],
    runners = [((codex, _), [(verbosity(0), a), default = b])],
);

fn main() {}
