//! Runners and tiers, and the whole `RunnerTool`. One test per vector.

use mcp_tailor::{Description, McpTool, RenderCtx, description, mcp_tool};

fn ctx(runner: &'static str, model: &'static str) -> RenderCtx<'static> {
    RenderCtx::new().runner(runner).model(model)
}

static S1: Description = description!(
    descriptions = [a = "A", b = "B", c = "C", d = "D"],
    runners = [
        ((_, _), [default = a]),
        ((codex, _), [default = b]),
        ((_, "5.4"), [default = c]),
        ((codex, "5.4"), [default = d]),
    ],
);

#[test]
fn s1_exact_runner_and_model_is_most_specific() {
    assert_eq!(S1.resolve(&ctx("codex", "5.4")), Some("D"));
}

#[test]
fn s1_exact_runner_with_other_model() {
    assert_eq!(S1.resolve(&ctx("codex", "other")), Some("B"));
}

#[test]
fn s1_exact_model_with_other_runner() {
    assert_eq!(S1.resolve(&ctx("grok", "5.4")), Some("C"));
}

#[test]
fn s1_wildcard_for_everything_else() {
    assert_eq!(S1.resolve(&ctx("grok", "other")), Some("A"));
}

#[test]
fn s1_wildcard_matches_a_context_without_runner_or_model() {
    assert_eq!(S1.resolve(&RenderCtx::default()), Some("A"));
}

#[test]
fn model_outranks_provider() {
    static D: Description = description!(
        descriptions = [provider = "provider", model = "model"],
        runners = [
            ((codex, _), [default = provider]),
            ((_, "5.4"), [default = model])
        ],
    );
    assert_eq!(D.resolve(&ctx("codex", "5.4")), Some("model"));
}

#[test]
fn no_matching_rule_and_no_other_tier_is_nothing() {
    static D: Description = description!(
        descriptions = [x = "X"],
        runners = [((codex, "5.4"), [default = x])]
    );
    assert_eq!(D.resolve(&ctx("codex", "5.5")), None);
}

#[test]
fn runner_rule_levels_are_gap_filled() {
    static D: Description = description!(
        descriptions = [lo = "LO", hi = "HI"],
        runners = [((grok, _), [(verbosity(0), lo), (verbosity(9), hi)])],
    );
    let grok = |level| D.resolve(&RenderCtx::new().runner("grok").verbosity(level));
    assert_eq!(grok(0), Some("LO"));
    assert_eq!(grok(3), Some("LO"));
    assert_eq!(grok(8), Some("HI"));
    assert_eq!(grok(9), Some("HI"));
}

#[test]
fn rule_with_levels_never_uses_its_default() {
    static D: Description = description!(
        allow(dead_variants),
        descriptions = [a = "A", b = "B"],
        runners = [((codex, _), [(verbosity(0), a), default = b])],
    );
    for level in 0..=9 {
        assert_eq!(
            D.resolve(&RenderCtx::new().runner("codex").verbosity(level)),
            Some("A")
        );
    }
}

#[test]
fn empty_best_rule_falls_to_next_tier_not_next_rule() {
    static D: Description = description!(
        description = "DEF",
        descriptions = [a = "A", vm = "VM"],
        verbosity_map = [(5, vm)],
        runners = [((_, _), [default = a]), ((codex, _), [])],
    );
    let at5 = |runner| D.resolve(&RenderCtx::new().runner(runner).verbosity(5));
    assert_eq!(at5("codex"), Some("VM"));
    assert_eq!(at5("grok"), Some("A"));
}

#[test]
fn empty_best_rule_without_vmap_falls_to_default_text() {
    static D: Description = description!(
        description = "DEF",
        descriptions = [a = "A"],
        runners = [((_, _), [default = a]), ((codex, _), [])],
    );
    assert_eq!(
        D.resolve(&RenderCtx::new().runner("codex").verbosity(5)),
        Some("DEF")
    );
}

#[test]
fn equally_specific_rules_keep_declaration_order() {
    static D: Description = description!(
        allow(dead_variants),
        descriptions = [x = "X", y = "Y"],
        runners = [((codex, _), [default = x]), (("codex", _), [default = y])],
    );
    assert_eq!(D.resolve(&RenderCtx::new().runner("codex")), Some("X"));
}

#[test]
fn runner_breaks_a_model_score_tie() {
    static D: Description = description!(
        descriptions = [p = "P", q = "Q"],
        runners = [
            ((codex, ["x"]), [default = p]),
            ((_, ["x", "y"]), [default = q])
        ],
    );
    assert_eq!(D.resolve(&ctx("codex", "x")), Some("P"));
}

#[test]
fn runner_tier_then_vmap_tier() {
    static D: Description = description!(
        description = "definitive",
        descriptions = [vm = "vm", rk = "rk"],
        verbosity_map = [(0..=9, vm)],
        runners = [((codex, _), [default = rk])],
    );
    let at5 = |c: RenderCtx<'static>| D.resolve(&c.verbosity(5));
    assert_eq!(at5(RenderCtx::new().runner("codex")), Some("rk"));
    assert_eq!(at5(RenderCtx::new().runner("grok")), Some("vm"));
    assert_eq!(at5(RenderCtx::new()), Some("vm"));
}

#[test]
fn runner_tier_then_default_text() {
    static D: Description = description!(
        description = "definitive",
        descriptions = [vm = "vm"],
        runners = [((codex, _), [default = vm])],
    );
    assert_eq!(
        D.resolve(&RenderCtx::new().runner("grok").verbosity(5)),
        Some("definitive")
    );
    assert_eq!(
        D.resolve(&RenderCtx::new().runner("codex").verbosity(5)),
        Some("vm")
    );
}

#[test]
fn runner_tier_then_level_tier() {
    static D: Description = description!(
        allow(dead_variants),
        description = [
            (verbosity(0), "lvl-terse"),
            (verbosity(9), "lvl-rich"),
            default = "def"
        ],
        descriptions = [rk = "rk"],
        runners = [((codex, _), [default = rk])],
    );
    let r = |runner, level| D.resolve(&RenderCtx::new().runner(runner).verbosity(level));
    assert_eq!(r("codex", 0), Some("rk"));
    assert_eq!(r("grok", 0), Some("lvl-terse"));
    assert_eq!(r("grok", 9), Some("lvl-rich"));
    assert_eq!(D.definitive(), Some("def"));
}

#[test]
fn non_empty_vmap_shadows_inline_levels() {
    static D: Description = description!(
        allow(dead_variants),
        description = [(verbosity(9), "rich")],
        descriptions = [base = "base"],
        verbosity_map = [(0..=4, base)],
    );
    assert_eq!(D.resolve(&RenderCtx::new().verbosity(9)), Some("base"));
}

#[test]
fn comparison_is_exact_and_case_sensitive() {
    assert_eq!(S1.resolve(&ctx("Codex", "5.4")), Some("C"));
    assert_eq!(S1.resolve(&ctx("codex", "5.40")), Some("B"));
}

/// definitive tool
#[mcp_tool(
    description = "definitive tool",
    descriptions = [
        base = "base",
        grok_terse = "grok_terse",
        grok_rich = "grok_rich",
        codex_default = "codex_default",
        spark_hi = "spark_hi",
    ],
    verbosity_map = [(0..=4, base), (5..=9, spark_hi)],
    runners = [
        ((grok, _), [(verbosity(0..=3), grok_terse), (verbosity(9), grok_rich)]),
        ((codex, [spark, "5.4"]), [default = codex_default]),
    ],
)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct RunnerTool {
    /// The input.
    input: String,
}

fn runner_tool(c: RenderCtx<'_>) -> Option<&'static str> {
    RunnerTool::description(&c)
}

#[test]
fn runner_tool_without_runner_uses_the_vmap() {
    assert_eq!(runner_tool(RenderCtx::new().verbosity(3)), Some("base"));
    assert_eq!(runner_tool(RenderCtx::new().verbosity(7)), Some("spark_hi"));
}

#[test]
fn runner_tool_grok_levels() {
    let grok = |level| runner_tool(RenderCtx::new().runner("grok").verbosity(level));
    assert_eq!(grok(0), Some("grok_terse"));
    assert_eq!(grok(3), Some("grok_terse"));
    assert_eq!(grok(7), Some("grok_rich"));
    assert_eq!(grok(9), Some("grok_rich"));
    assert_eq!(grok(5), Some("grok_terse"));
    assert_eq!(grok(6), Some("grok_terse"));
}

#[test]
fn runner_tool_codex_model_list() {
    let codex = |model, level| runner_tool(ctx("codex", model).verbosity(level));
    assert_eq!(codex("spark", 3), Some("codex_default"));
    assert_eq!(codex("5.4", 8), Some("codex_default"));
    assert_eq!(codex("nope", 3), Some("base"));
    assert_eq!(
        runner_tool(RenderCtx::new().runner("openai").verbosity(7)),
        Some("spark_hi")
    );
}

#[test]
fn runner_tool_default_context_and_model_without_runner() {
    assert_eq!(runner_tool(RenderCtx::default()), Some("spark_hi"));
    assert_eq!(
        runner_tool(RenderCtx::new().model("spark").verbosity(2)),
        Some("base")
    );
}

#[test]
fn runner_tool_renders_its_name_and_definitive_text() {
    assert_eq!(RunnerTool::NAME, "runner_tool");
    assert_eq!(
        RunnerTool::def().description().definitive(),
        Some("definitive tool")
    );
    let tool = RunnerTool::render(&RenderCtx::new().runner("grok").verbosity(0));
    assert_eq!(tool["description"], "grok_terse");
    assert_eq!(
        tool["inputSchema"]["properties"]["input"]["description"],
        "The input."
    );
}
