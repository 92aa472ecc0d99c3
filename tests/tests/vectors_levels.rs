//! Gap-fill and levels. One test per vector, named after what it shows.

use mcp_tailor::{Description, RenderCtx, description};

fn at(d: &Description, level: u8) -> Option<&str> {
    d.resolve(&RenderCtx::new().verbosity(level))
}

#[test]
fn bare_text_is_the_same_at_every_level() {
    static D: Description = description!(description = "only text");
    for level in 0..=12 {
        assert_eq!(at(&D, level), Some("only text"));
    }
    assert_eq!(
        D.resolve(&RenderCtx::new().runner("codex").model("5.4")),
        Some("only text")
    );
}

#[test]
fn default_alone_answers_every_level() {
    static D: Description = description!(description = [default = "fallback"]);
    assert_eq!(at(&D, 0), Some("fallback"));
    assert_eq!(at(&D, 9), Some("fallback"));
}

#[test]
fn exact_levels_win() {
    static D: Description = description!(description = [(verbosity(3), "a"), (verbosity(5), "b")]);
    assert_eq!(at(&D, 3), Some("a"));
    assert_eq!(at(&D, 5), Some("b"));
}

#[test]
fn inclusive_range_covers_both_bounds() {
    static D: Description = description!(description = [(verbosity(3..=6), "mid")]);
    assert_eq!(at(&D, 3), Some("mid"));
    assert_eq!(at(&D, 6), Some("mid"));
}

#[test]
fn set_member_beats_default() {
    static D: Description = description!(
        allow(dead_variants),
        description = [(verbosity([1, 4, 7]), "set"), default = "d"]
    );
    assert_eq!(at(&D, 4), Some("set"));
}

#[test]
fn uncovered_level_takes_nearest_entry() {
    static D: Description =
        description!(description = [(verbosity(2..=3), "mid"), (verbosity(0), "terse")]);
    assert_eq!(at(&D, 1), Some("terse"));
}

#[test]
fn gap_fill_between_three_and_nine() {
    static D: Description =
        description!(description = [(verbosity(3), "three"), (verbosity(9), "nine")]);
    let expected = [
        (8, "nine"),
        (5, "three"),
        (6, "three"),
        (0, "three"),
        (3, "three"),
        (9, "nine"),
        (7, "nine"),
    ];
    for (level, want) in expected {
        assert_eq!(at(&D, level), Some(want), "level {level}");
    }
}

#[test]
fn explicit_level_is_clamped_to_nine() {
    static D: Description =
        description!(description = [(verbosity(0), "lo"), (verbosity(9), "hi")]);
    assert_eq!(at(&D, 12), Some("hi"));
    assert_eq!(at(&D, 5), Some("hi"));
}

#[test]
fn ties_go_to_the_lower_level() {
    static D: Description = description!(
        description = [
            (verbosity(0), "0"),
            (verbosity(5), "5"),
            (verbosity(9), "9")
        ]
    );
    let expected = ["0", "0", "0", "5", "5", "5", "5", "5", "9", "9"];
    for (level, want) in expected.iter().enumerate() {
        assert_eq!(at(&D, level as u8), Some(*want), "level {level}");
    }
}

#[test]
fn default_verbosity_outranks_fallback_but_not_explicit_level() {
    static D: Description = description!(
        description = [
            (verbosity(0), "t0"),
            (verbosity(9), "t9"),
            default_verbosity = 9
        ]
    );
    assert_eq!(at(&D, 0), Some("t0"));
    assert_eq!(D.resolve(&RenderCtx::default()), Some("t9"));
    assert_eq!(
        D.resolve(&RenderCtx::new().fallback_verbosity(0)),
        Some("t9")
    );
}

#[test]
fn fallback_verbosity_applies_without_explicit_level() {
    static D: Description = description!(description = [(verbosity(3), "a"), (verbosity(5), "b")]);
    assert_eq!(D.resolve(&RenderCtx::default()), Some("b"));
    assert_eq!(
        D.resolve(&RenderCtx::new().fallback_verbosity(3)),
        Some("a")
    );
}

#[test]
fn list_default_is_never_chosen_while_levels_exist() {
    static D: Description = description!(
        allow(dead_variants),
        description = [(verbosity(0), "zero"), default = "DEF"]
    );
    for level in [0, 5, 9] {
        assert_eq!(at(&D, level), Some("zero"));
    }
    assert_eq!(D.definitive(), Some("DEF"));
}

#[test]
fn empty_list_resolves_to_nothing() {
    static D: Description = description!(description = []);
    for level in 0..=9 {
        assert_eq!(at(&D, level), None);
    }
    assert!(D.is_absent());
    static E: Description = description!();
    assert_eq!(E.resolve(&RenderCtx::default()), None);
}
