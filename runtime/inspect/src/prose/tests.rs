use super::rules::is_rule;
use super::unit::Kind;
use super::*;

fn units(text: &str) -> Vec<Unit> {
    super::units(text, &is_rule)
}

fn texts(units: &[Unit]) -> Vec<&str> {
    units.iter().map(|u| u.text.as_str()).collect()
}

#[test]
fn sentences_are_never_cut_inside_brackets_quotes_or_code() {
    let text = "Must be a full country name (e.g., 'United States'. 'Japan'). Say \"Hi. There\" \
                now. Run `a. B` here. Version 1.2 works. See docs etc. Then go.";
    let units = units(text);
    assert_eq!(
        texts(&units),
        [
            "Must be a full country name (e.g., 'United States'. 'Japan').",
            "Say \"Hi. There\" now.",
            "Run `a. B` here.",
            "Version 1.2 works.",
            "See docs etc. Then go.",
        ]
    );
}

#[test]
fn a_lean_unit_leaves_out_whole_asides_that_state_no_rule() {
    let unit =
        &units("ISO codes (e.g., 'us', 'jp') are not supported (required when x is set).")[0];
    assert!(unit.rule);
    assert_eq!(
        unit.lean(),
        "ISO codes are not supported (required when x is set)."
    );
    assert_eq!(
        faithful(std::slice::from_ref(unit), &unit.lean()),
        Some(vec![0])
    );
}

#[test]
fn items_code_and_headings_are_units_of_their_own() {
    let text = "Analyze a config.\n\n  Example usage:\n  {\n    \"a\": \"version: 2.1\norbs:\n  x\"\n  }\n\n  Input options (EXACTLY ONE of these options must be used):\n  - Option 1 - by slug\n  - Option 2 - by URL\n\n  If using Option 1, pass the slug.";
    let units = units(text);
    let kinds: Vec<Kind> = units.iter().map(|u| u.kind).collect();
    assert_eq!(
        kinds,
        [
            Kind::Sentence,
            Kind::Heading,
            Kind::Code,
            Kind::Sentence,
            Kind::Item,
            Kind::Item,
            Kind::Sentence
        ]
    );
    assert!(units[2].text.contains("orbs:"));
    // The rule opens its options: all or nothing; "Option 1" is read with where it is named.
    assert!(units[3].rule);
    assert_eq!(units[3].needs, [4, 5]);
    assert_eq!(units[4].needs, [3]);
    assert_eq!(units[6].needs, [4]);
    let picks = Picks::of(&units, [6], Form::Lean);
    assert_eq!(
        picks.text(&units),
        "Input options (EXACTLY ONE of these options must be used):\n- Option 1 - by slug\n\
         - Option 2 - by URL\nIf using Option 1, pass the slug."
    );
}

#[test]
fn a_text_not_made_of_the_units_is_not_faithful() {
    let units = units("Read a file (UTF-8). Paths must be absolute. Returns its text.");
    assert_eq!(
        faithful(&units, "Read a file. Paths must be absolute."),
        Some(vec![0, 1])
    );
    assert_eq!(
        faithful(&units, "Paths must be absolute. Read a file."),
        None
    );
    assert_eq!(faithful(&units, "Read a file (UTF-8, absolute)."), None);
    assert_eq!(faithful(&units, "Read a file"), None);
}

#[test]
fn rules_come_with_anything_a_level_says() {
    let units = units("Search issues. Mutually exclusive with assignee_username. Returns a page.");
    let picks = Picks::of(&units, [0], Form::Lean).with_rules(&units);
    assert_eq!(
        picks.text(&units),
        "Search issues. Mutually exclusive with assignee_username."
    );
    assert!(Picks::default().with_rules(&units).is_empty());
}
