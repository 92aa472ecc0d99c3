//! `description!` in a `static`, a `const` and an expression, with every text form.
#![deny(warnings)]

use mcp_tailor::{Description, RenderCtx, description};

const TERSE: &str = "terse";

static ALL_KEYS: Description = description!(
    allow(dead_variants),
    description = [(verbosity(0), TERSE), (verbosity(9), include_str!("included.txt")), default = "def"],
    descriptions = [a = "A", "b-2" = concat!("B", "2")],
    verbosity_map = [(0..=4, a)],
    runners = [((codex, _), [default = "b-2"])],
);
static ONLY_NAMED: Description = description!(descriptions = [a = "A"], runners = [((_, "5.4"), [default = a])]);
static BARE: Description = description!(description = TERSE);
static NOTHING: Description = description!();
const IN_A_CONST: Description = description!(description = [(verbosity(1), "one")]);

fn main() {
    let ctx = RenderCtx::new();
    assert_eq!(ALL_KEYS.resolve(&ctx.runner("codex")), Some("B2"));
    assert_eq!(ALL_KEYS.resolve(&ctx.verbosity(2)), Some("A"));
    assert_eq!(ONLY_NAMED.resolve(&ctx), None);
    assert_eq!(ONLY_NAMED.resolve(&ctx.model("5.4")), Some("A"));
    assert_eq!(BARE.resolve(&ctx), Some("terse"));
    assert_eq!(NOTHING.resolve(&ctx), None);
    assert_eq!(IN_A_CONST.resolve(&ctx), Some("one"));
    let local = description!(description = "local");
    assert_eq!(local.resolve(&ctx), Some("local"));
}
