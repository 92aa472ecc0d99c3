//! The descriptions the benchmarks share: one of each shape.

use mcp_tailor::{Description, description};

/// A bare text.
pub static BARE: Description = description!(description = "Search the notes.");
/// Three levels.
pub static LEVELS: Description = description!(
    description = [
        (verbosity(0), "Search."),
        (verbosity(4), "Search the notes."),
        (verbosity(9), "Search the notes, in full.")
    ]
);
/// Levels and a verbosity map.
pub static LEVELS_VMAP: Description = description!(
    allow(dead_variants),
    description = [
        (verbosity(0), "Search."),
        (verbosity(9), "Search the notes, in full.")
    ],
    descriptions = [short = "Search notes.", long = "Search every note by text."],
    verbosity_map = [(0..=3, short), (7..=9, long)],
);
/// Four runners, a verbosity map and levels.
pub static RUNNERS: Description = description!(
    allow(dead_variants),
    description = [
        (verbosity(0), "Search."),
        (verbosity(9), "Search the notes, in full.")
    ],
    descriptions = [
        short = "Search notes.",
        long = "Search every note by text.",
        codex = "search(query) (codex)",
        spark = "search(query) (spark)",
        grok_lo = "Search: plain words.",
        grok_hi = "Search notes with plain words; no operators.",
        claude = "Search notes (claude).",
    ],
    verbosity_map = [(0..=3, short), (7..=9, long)],
    runners = [
        ((codex, _), [default = codex]),
        ((codex, [spark, "5.4-mini"]), [default = spark]),
        (
            (grok, _),
            [(verbosity(0..=3), grok_lo), (verbosity(8), grok_hi)]
        ),
        (("claude-code", "opus"), [default = claude]),
    ],
);
