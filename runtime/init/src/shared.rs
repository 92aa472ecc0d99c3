//! What many tools' descriptions repeat tells no tool apart: a first paragraph, or a
//! sentence, where at least 3 tools and a quarter of them share it ([`enough`]).

use mcp_tailor_inspect::seam::prose::Unit;

/// How many tools of `count` must share a text for it to tell none apart.
pub(super) fn enough(count: usize) -> usize {
    3.max(count.div_ceil(4))
}

/// Which paragraph of each tool's description (its `units`) its terse and middle texts
/// lead with: its first, but where enough tools begin with the same one (`Data
/// Modification Warning: This tool modifies HubSpot data. …`) and the tool says more, the
/// next (the middle level keeps both where they fit).
pub(super) fn leads(units: &[Vec<Unit>]) -> Vec<usize> {
    // Each tool's paragraphs of prose, in order: their numbers and texts.
    let paragraphs: Vec<Vec<(usize, String)>> = units
        .iter()
        .map(|units| {
            let mut out: Vec<(usize, String)> = Vec::new();
            for unit in units.iter().filter(|u| u.prose()) {
                match out.last_mut() {
                    Some((at, text)) if *at == unit.paragraph => {
                        text.push(' ');
                        text.push_str(&unit.text);
                    }
                    _ => out.push((unit.paragraph, unit.text.clone())),
                }
            }
            out
        })
        .collect();
    let needed = enough(units.len());
    let begin = |first: &str| {
        paragraphs
            .iter()
            .filter(|p| p.first().is_some_and(|(_, text)| text == first))
            .count()
    };
    paragraphs
        .iter()
        .map(|own| match own.as_slice() {
            [(_, first), (next, _), ..] if begin(first) >= needed => *next,
            [(first, _), ..] => *first,
            [] => 0,
        })
        .collect()
}
