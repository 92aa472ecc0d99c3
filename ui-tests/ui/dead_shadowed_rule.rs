#![deny(warnings)]
use mcp_tailor::{description, Description};

// The second rule has the same matchers as the first, and the third's model list is inside
// the first's reach: neither ever wins.
static D: Description = description!(
    descriptions = [a = "A", b = "B"],
    runners = [
        ((codex, ["5.4", spark]), [default = a]),
        ((codex, ["5.4", spark]), [default = b]),
        ((codex, [spark]), [default = b]),
    ],
);

fn main() {}
