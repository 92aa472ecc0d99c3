//! The descriptions the benchmarks share: one of each shape, each declared once and built
//! both ways — as a `description!` static, and on a struct of its own by `#[mcp_tool]`.

use mcp_tailor::{Description, description, mcp_tool};

/// Declares `$name` (a `description!` static) and `$tool` (an `#[mcp_tool]` struct named
/// `$tool_name`) from one DSL.
macro_rules! both {
    ($name:ident, $tool:ident, $tool_name:literal, $($dsl:tt)*) => {
        pub static $name: Description = description!($($dsl)*);
        #[doc = concat!("`", stringify!($name), "` on a tool.")]
        #[mcp_tool(name = $tool_name, $($dsl)*)]
        #[derive(schemars::JsonSchema)]
        // Benchmarks that only need the statics leave it unused.
        #[allow(dead_code)]
        pub struct $tool {}
    };
}

both!(BARE, BareTool, "bare", description = "Search the notes.");

both!(
    LEVELS,
    LevelsTool,
    "levels",
    description = [
        (verbosity(0), "Search."),
        (verbosity(4), "Search the notes."),
        (verbosity(9), "Search the notes, in full.")
    ]
);

both!(
    LEVELS_VMAP,
    LevelsVmapTool,
    "levels_vmap",
    allow(dead_variants),
    description = [
        (verbosity(0), "Search."),
        (verbosity(9), "Search the notes, in full.")
    ],
    descriptions = [short = "Search notes.", long = "Search every note by text."],
    verbosity_map = [(0..=3, short), (7..=9, long)],
);

both!(
    RUNNERS,
    RunnersTool,
    "runners",
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

/// The same four descriptions as a tailoring file's tables (tools `bare`, `levels`,
/// `levels_vmap`, `runners`): built at run time, owned.
pub const FILE: &str = r#"
[tools.bare]
description = "Search the notes."

[tools.levels.description]
fill = "nearest"
levels = [{ verbosity = 0, text = "Search." }, { verbosity = 4, text = "Search the notes." }, { verbosity = 9, text = "Search the notes, in full." }]

[tools.levels_vmap.description]
fill = "nearest"
allow = ["dead_variants"]
levels = [{ verbosity = 0, text = "Search." }, { verbosity = 9, text = "Search the notes, in full." }]
descriptions = { short = "Search notes.", long = "Search every note by text." }
verbosity_map = [{ verbosity = "0..=3", tag = "short" }, { verbosity = "7..=9", tag = "long" }]

[tools.runners.description]
fill = "nearest"
allow = ["dead_variants"]
levels = [{ verbosity = 0, text = "Search." }, { verbosity = 9, text = "Search the notes, in full." }]
descriptions = { short = "Search notes.", long = "Search every note by text.", codex = "search(query) (codex)", spark = "search(query) (spark)", grok_lo = "Search: plain words.", grok_hi = "Search notes with plain words; no operators.", claude = "Search notes (claude)." }
verbosity_map = [{ verbosity = "0..=3", tag = "short" }, { verbosity = "7..=9", tag = "long" }]
runners = [
  { runner = "codex", model = "_", default = "codex" },
  { runner = "codex", model = ["spark", "5.4-mini"], default = "spark" },
  { runner = "grok", model = "_", levels = [{ verbosity = "0..=3", tag = "grok_lo" }, { verbosity = 8, tag = "grok_hi" }] },
  { runner = "claude-code", model = "opus", default = "claude" },
]
"#;
