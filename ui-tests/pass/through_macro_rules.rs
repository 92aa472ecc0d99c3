//! Tools declared through `macro_rules!`: a `$text:literal`, a `$level:literal` and an
//! `$e:expr` reach the macro wrapped in invisible groups, and read as if written by hand.

use mcp_tailor::{McpTool, RenderCtx, mcp_tool};

macro_rules! tool {
    ($name:ident, $terse:literal, $rich:expr, $level:literal) => {
        #[mcp_tool(description = [(verbosity(0..=$level), $terse), (verbosity(9), $rich)])]
        #[derive(serde::Deserialize, schemars::JsonSchema)]
        struct $name {
            #[mcp(description = $terse)]
            #[allow(dead_code)]
            word: String,
        }
    };
}

tool!(Lookup, "Look up.", "Look a word up in the dictionary.", 3);

static GUIDE_TEXT: &str = "A guide.";

macro_rules! guide {
    ($text:expr) => {
        mcp_tailor::description!(description = [(verbosity(0), $text)])
    };
}

static GUIDE: mcp_tailor::Description = guide!(GUIDE_TEXT);

fn main() {
    assert_eq!(Lookup::description(&RenderCtx::new().verbosity(3)), Some("Look up."));
    assert_eq!(
        Lookup::description(&RenderCtx::new().verbosity(8)),
        Some("Look a word up in the dictionary.")
    );
    assert_eq!(Lookup::field_description("word", &RenderCtx::new()), Some("Look up."));
    assert_eq!(GUIDE.resolve(&RenderCtx::new()), Some("A guide."));
}
