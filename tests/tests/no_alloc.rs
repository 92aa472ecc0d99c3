//! `resolve` never allocates: a counting global allocator sees zero allocations on this
//! thread across every kind of description and context.

use mcp_tailor::{Description, McpTool, RenderCtx, description, mcp_tool};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

static TAILORED: Description = description!(
    allow(dead_variants),
    description = [(verbosity(0), "lo"), (verbosity(9), "hi"), default = "def"],
    descriptions = [a = "A", b = "B", c = "C"],
    verbosity_map = [(0..=3, a)],
    runners = [
        (
            (codex, ["5.4", spark]),
            [(verbosity(0..=4), b), (verbosity(9), c)]
        ),
        ((grok, _), [default = a]),
        ((_, "5.4"), [default = c]),
        (("claude-code", _), []),
    ],
);
static BARE: Description = description!(description = "bare");
static ABSENT: Description = description!();

/// A tool.
#[mcp_tool(
    description = [(verbosity(0), "t"), (verbosity(9), "tool")],
    descriptions = [g = "grok tool"],
    runners = [((grok, _), [default = g])],
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Tool {
    #[mcp(description = [(verbosity(0), "q"), (verbosity(9), "query")])]
    #[allow(dead_code)]
    query: String,
}

#[test]
fn resolve_does_not_allocate() {
    let runner = String::from("codex");
    let model = String::from("spark");
    let contexts = [
        RenderCtx::default(),
        RenderCtx::new().runner(&runner).model(&model).verbosity(2),
        RenderCtx::new().runner("grok").verbosity(12),
        RenderCtx::new().model("5.4").fallback_verbosity(0),
        RenderCtx::new().runner("claude-code"),
    ];
    // The first use of a tool decodes its packed tables, once per process; resolving
    // never allocates after that.
    let _ = Tool::def();
    // The same tables, built at run time from a tailoring file: owned, resolved by the
    // same code.
    let file = mcp_tailor::Tailoring::from_toml_str(
        r#"
        [tools.t.description]
        allow = ["dead_variants"]
        levels = [{ verbosity = 0, text = "lo" }, { verbosity = 9, text = "hi" }]
        default = "def"
        descriptions = { a = "A", b = "B", c = "C" }
        verbosity_map = [{ verbosity = "0..=3", tag = "a" }]
        runners = [
          { runner = "codex", model = ["5.4", "spark"], levels = [{ verbosity = "0..=4", tag = "b" }, { verbosity = 9, tag = "c" }] },
          { runner = "grok", model = "_", default = "a" },
          { runner = "_", model = "5.4", default = "c" },
          { runner = "claude-code", model = "_" },
        ]
        "#,
    )
    .unwrap();
    let owned = file.tool("t").unwrap().description().unwrap();
    let before = allocations();
    let mut seen = 0usize;
    for _ in 0..1000 {
        for ctx in &contexts {
            for d in [&TAILORED, &BARE, &ABSENT, owned] {
                seen += d.resolve(ctx).map_or(0, str::len);
            }
            seen += Tool::description(ctx).map_or(0, str::len);
            seen += Tool::field_description("query", ctx).map_or(0, str::len);
            seen += Tool::title(ctx).map_or(0, str::len);
        }
    }
    let after = allocations();
    assert!(seen > 0);
    assert_eq!(
        after - before,
        0,
        "resolve allocated {} times",
        after - before
    );
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v = std::hint::black_box(vec![1u8, 2, 3]);
    assert_eq!(allocations() - before, 1);
    drop(v);
}
