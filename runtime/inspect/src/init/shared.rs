//! What many tools' descriptions repeat tells no tool apart: a first paragraph, a label
//! their terse texts begin with, a phrase they end with. Each is where at least 3 tools and
//! a quarter of them share it ([`enough`]).

use super::ToolDraft;

/// How many tools of `count` must share a text for it to tell none apart.
pub(super) fn enough(count: usize) -> usize {
    3.max(count.div_ceil(4))
}

/// Which paragraph of each tool's `paragraphs` its terse and middle texts lead with: the
/// first, but where enough tools begin with the same one (`Data Modification Warning: This
/// tool modifies HubSpot data. …`) and the tool says more, the next (the middle level keeps
/// both where they fit).
pub(super) fn leads(paragraphs: &[Vec<String>]) -> Vec<usize> {
    let needed = enough(paragraphs.len());
    let shared = |first: &String| {
        let begin = paragraphs
            .iter()
            .filter(|p| p.first() == Some(first))
            .count();
        begin >= needed
    };
    paragraphs
        .iter()
        .map(|own| usize::from(own.len() > 1 && own.first().is_some_and(shared)))
        .collect()
}

/// A label many tools' terse texts begin with (`Notion | Retrieve a user`) tells no tool
/// apart either: it is cut from theirs where at least 3 tools and a quarter of them begin
/// with it, the label set off by ` | `, `: `, ` - ` or ` — ` and at most three words, and
/// at least two words stay. (Their middle and rich levels keep it.)
pub(super) fn heads(drafts: &mut [ToolDraft]) {
    let head = |text: &str| -> Option<String> {
        [" | ", ": ", " - ", " — "]
            .iter()
            .filter_map(|mark| text.find(mark).map(|at| &text[..at + mark.len()]))
            .filter(|head| head.split_whitespace().count() <= 4)
            .min_by_key(|head| head.len())
            .map(str::to_owned)
    };
    let terse = |draft: &ToolDraft| draft.terse.clone().unwrap_or_else(|| draft.own.clone());
    let heads: Vec<Option<String>> = drafts.iter().map(|d| head(&terse(d))).collect();
    let needed = enough(drafts.len());
    for (draft, head) in drafts.iter_mut().zip(&heads) {
        let Some(head) = head else { continue };
        let shared = heads.iter().filter(|h| h.as_ref() == Some(head)).count();
        let text = terse(draft);
        let rest = text[head.len()..].trim();
        if shared >= needed && rest.split_whitespace().count() >= 2 {
            draft.terse = Some(rest.to_owned());
        }
    }
}

/// A closing phrase many tools' terse texts share (`… in a GitHub repository`) tells no
/// tool apart: it is cut from theirs, where at least 3 tools and a quarter of them end with
/// it and at least three words stay. (Their middle and rich levels keep it.)
pub(super) fn tails(drafts: &mut [ToolDraft]) {
    let starts = [
        " in ", " from ", " to ", " on ", " across ", " for ", " of ", " within ",
    ];
    let tails = |text: &str| -> Vec<String> {
        let text = text.trim_end_matches('.').to_lowercase();
        starts
            .iter()
            .flat_map(|start| text.match_indices(start).map(|(at, _)| at))
            .map(|at| text[at..].to_owned())
            .collect()
    };
    let mut counts: Vec<(String, usize)> = Vec::new();
    for draft in drafts.iter() {
        let text = draft.terse.clone().unwrap_or_else(|| draft.own.clone());
        for tail in tails(&text) {
            match counts.iter_mut().find(|(t, _)| *t == tail) {
                Some((_, n)) => *n += 1,
                None => counts.push((tail, 1)),
            }
        }
    }
    let needed = enough(drafts.len());
    for draft in drafts.iter_mut() {
        let text = draft.terse.clone().unwrap_or_else(|| draft.own.clone());
        let trimmed = text.trim_end_matches('.');
        let lower = trimmed.to_lowercase();
        // The longest shared tail that leaves three words.
        let cut = counts
            .iter()
            .filter(|(tail, n)| *n >= needed && lower.ends_with(tail.as_str()))
            .map(|(tail, _)| trimmed.len() - tail.len())
            .filter(|&at| trimmed[..at].split_whitespace().count() >= 3)
            .min();
        if let Some(at) = cut {
            draft.terse = Some(format!("{}.", &trimmed[..at]));
        }
    }
}
