//! Shortening a server's own words (as plain prose), deterministically and without a
//! model: examples and parentheticals cut, the first sentence (or paragraph) kept, clauses
//! then words trimmed to a token budget. (What an argument's description says that its name
//! and type do not is the facts room's.)

use super::asides::{asides, outside};
use crate::count_tokens;

/// The sentences of a text: split after `.`, `!` or `?` followed by a space (or the end),
/// except after an abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`) or inside a number.
pub(crate) fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, c) in text.char_indices() {
        if !matches!(c, '.' | '!' | '?') {
            continue;
        }
        let next = bytes.get(i + 1).copied();
        if next.is_some_and(|b| !b.is_ascii_whitespace() && b != b'\n') {
            continue;
        }
        let so_far = text[start..=i].to_ascii_lowercase();
        if ["e.g.", "i.e.", "etc.", "vs.", "approx."]
            .iter()
            .any(|a| so_far.ends_with(a))
        {
            continue;
        }
        let sentence = text[start..=i].trim();
        if !sentence.is_empty() {
            out.push(sentence);
        }
        start = i + 1;
    }
    let tail = text[start..].trim();
    if !tail.is_empty() {
        out.push(tail);
    }
    out
}

/// `text` without its asides (`( … )`, `[ … ]`: [`asides`]) and without its examples
/// (from "e.g.", "for example", "such as" or "Example:" to the end of the sentence).
pub(crate) fn without_asides(text: &str) -> String {
    tidy(without_examples(&outside(text)))
}

/// `text` up to its examples ([`examples_at`]).
pub(super) fn without_examples(text: &str) -> &str {
    match examples_at(text) {
        Some(at) => text[..at].trim_end_matches(BREAKS),
        None => text,
    }
}

/// Where `text`'s examples begin: at "e.g.", "for example", "such as", "Example:" or "for
/// instance".
pub(super) fn examples_at(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    ["e.g.", "for example", "such as", "example:", "for instance"]
        .iter()
        .filter_map(|marker| lower.find(marker))
        .min()
}

/// `text` with its whitespace made single spaces, and none before a comma, period, colon
/// or semicolon that ends a word (as cutting out an aside leaves it: `Bad (too vague):
/// 'x'`; `a .heapsnapshot file` keeps its space).
pub(super) fn tidy(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let mut ahead = chars.clone();
            let mark = ahead.next().filter(|m| matches!(m, ',' | '.' | ':' | ';'));
            if mark.is_some() && ahead.next().is_none_or(|after| after == ' ') {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// What a cut text must not end on: the marks and spaces of the break it was cut at.
pub(super) const BREAKS: &[char] = &[' ', ',', ';', ':', '-', '—', '–'];

/// Words a cut text must not end on: it would break off mid-phrase ("retrieved from.").
const DANGLING: &str = "a an the and or but nor of to from in into on onto at by for with \
    without via per as than if when where which that whose its their your this these is are \
    be over under after before about between through during against within across using \
    like including such last first next based according depending";

/// Whether `word` is one a cut text must not end on ([`DANGLING`]).
pub(super) fn dangling(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    DANGLING.split_whitespace().any(|w| w == word)
}

/// `text` without the words it ends on that would leave it broken off (`DANGLING`), while
/// two words are left.
fn without_dangling_end(text: &str) -> &str {
    let mut kept = text.trim_end();
    while let Some(at) = kept.rfind(' ') {
        let last = kept[at + 1..].trim_end_matches(BREAKS);
        if !dangling(last) || kept[..at].split_whitespace().count() < 2 {
            break;
        }
        kept = kept[..at].trim_end();
    }
    kept
}

/// `text` within `budget` tokens: whole when it fits; else cut at its last clause break
/// ([`clause_break`]) while that helps — a cut inside a list of examples drops the whole
/// list, not its last items — then before its examples, then before a phrase
/// ([`phrase_end`]), else word by word, never inside an aside it leaves open; ended with a
/// period.
pub(crate) fn fit(text: &str, budget: usize) -> String {
    let text = text.trim();
    if count_tokens(text) <= budget {
        return text.to_owned();
    }
    let mut kept = clauses(text, budget);
    if count_tokens(&kept) + 1 > budget {
        let at = phrase_end(&kept, budget).unwrap_or_else(|| word_end(&kept, budget));
        kept.truncate(at);
    }
    ended(&kept)
}

/// [`fit`] where its clause breaks and examples make `text` fit, else `None`: nothing cut
/// inside a clause.
pub(super) fn fit_clauses(text: &str, budget: usize) -> Option<String> {
    let text = text.trim();
    if count_tokens(text) <= budget {
        return Some(text.to_owned());
    }
    let kept = clauses(text, budget);
    (count_tokens(&kept) < budget).then(|| ended(&kept))
}

/// `text` (over `budget`) cut at its clause breaks while they help, then before its
/// examples.
fn clauses(text: &str, budget: usize) -> String {
    let mut kept = text.trim_end_matches(['.', '!', '?']).to_owned();
    while count_tokens(&kept) + 1 > budget {
        match clause_break(&kept) {
            Some(at) => {
                let list = examples_start(&kept[..at], kept[at..].starts_with(", "));
                kept.truncate(list.unwrap_or(at));
            }
            None => break,
        }
    }
    // Examples that do not fit go whole (`such as, 'left', 'right', 'justify'` of four).
    if count_tokens(&kept) + 1 > budget
        && let Some(at) = examples_at(&kept)
        && kept[..at].split_whitespace().count() >= 3
    {
        kept.truncate(at);
    }
    kept
}

/// A cut text ended: no aside left open, no word that leaves it broken off, a period.
fn ended(kept: &str) -> String {
    let kept = without_open_aside(kept);
    let kept = without_dangling_end(kept.trim_end_matches(BREAKS));
    let kept = kept.trim_end_matches(BREAKS);
    format!("{kept}.")
}

/// Where `text` is cut to fit `budget` tokens (its full stop counted) before a phrase: the
/// last word break followed by a `DANGLING` word (`… arXiv papers | using authoritative
/// metadata`) or an aside that leaves three words at least. Never before a verb (`a url
/// where the Goggle | is hosted`): that would leave its subject without it; nor before the
/// last item of a list (`http:, https:, file: | or data:`), a verb sharing its object
/// (`generating | and executing DDL statements`) or a negated participle's agent (`not
/// managed | by a ReplicaSet`), nor after a modal's verb ([`after_modal`]).
fn phrase_end(text: &str, budget: usize) -> Option<usize> {
    text.match_indices(' ')
        .map(|(at, _)| at)
        .filter(|&at| {
            let next = text[at + 1..].split(' ').next().unwrap_or_default();
            let verb = ["is", "are", "be"].contains(&next);
            // A negated participle's agent (`pods not managed | by a ReplicaSet`: all pods
            // would be meant), whatever dangling words the cut would then drop.
            let stays = without_dangling_end(&text[..at]);
            let dropped = text[stays.len()..].split_whitespace().next();
            let negated = stays.split_whitespace().nth_back(1) == Some("not");
            let agent = dropped == Some("by") && stays.ends_with("ed") && negated;
            let joined = ["and", "or"].contains(&next)
                && (listing(&text[..at]) || shared_object(&text[..at], &text[at..]));
            // `even if`, `even when`, `even though` begin a phrase together.
            let then = text[at + 1..].split(' ').nth(1).unwrap_or_default();
            let even = next == "even" && ["if", "when", "though"].contains(&then);
            let split = text[..at].ends_with(" even");
            ((dangling(next) && !verb && !joined && !agent && !split)
                || even
                || next.starts_with(['(', '[']))
                && text[..at].split_whitespace().count() >= 3
                && !after_modal(stays)
        })
        .rev()
        .find(|&at| count_tokens(&text[..at]) < budget)
}

/// Whether `text` ends on the verb of a modal (`This tool will take | in the user
/// prompt`): what it takes was cut off.
fn after_modal(text: &str) -> bool {
    let modals = [
        "will", "can", "must", "should", "may", "would", "could", "shall",
    ];
    text.split_whitespace()
        .nth_back(1)
        .is_some_and(|word| modals.contains(&word.to_ascii_lowercase().as_str()))
}

/// Where `text` is cut to fit `budget` tokens (its full stop counted), word by word.
fn word_end(text: &str, budget: usize) -> usize {
    let mut end = text.len();
    while count_tokens(&text[..end]) >= budget {
        match text[..end].rfind(' ') {
            Some(at) => end = at,
            None => break,
        }
    }
    end
}

/// The marks that end a clause.
const MARKS: [&str; 5] = ["; ", ", ", " - ", " — ", " – "];

/// Where `text`'s last clause break is, outside its asides: a mark ([`MARKS`]), ` which `,
/// a colon after three words, or a conjunction (` and `, ` or `) where what stays is three
/// words at least, two since its last mark, and does not end inside a list (`The absolute
/// or relative path` is no clause: `by URL, back or forward` neither) or between two words
/// sharing what follows ([`shared_object`]), nor is completed by it (`for one or more
/// papers`). (` that ` begins no clause to cut: `papers that it references` are not all
/// papers.)
fn clause_break(text: &str) -> Option<usize> {
    let conjunctions = [" and ", " or "];
    // What completes the word before it: `one or more`, `5 or fewer`, `and/or`.
    let completing = [
        "more", "less", "fewer", "later", "earlier", "higher", "lower", "equal",
    ];
    let asides = asides(text);
    let outside = |i: usize| !asides.iter().any(|a| a.holds(i));
    let mut found = None;
    for (i, _) in text.char_indices().filter(|&(i, _)| i > 0 && outside(i)) {
        let rest = &text[i..];
        let stays = &text[..i];
        let clause = (MARKS
            .iter()
            .chain(&[" which "])
            .any(|m| rest.starts_with(m))
            && !in_list(stays, rest)
            && !in_colon_list(stays, rest))
            // What a colon opens, after three words (`Interact with a page in a live
            // browser session: click buttons, fill forms, …`; not `Note: …`), or after two
            // where it opens a list (`Manage branches: list all branches, show …`).
            || (rest.starts_with(": ") && {
                let words = since_mark(stays).split_whitespace().count();
                words >= 3 || (words == 2 && rest.contains(", "))
            })
            || (conjunctions.iter().any(|c| rest.starts_with(c))
                && !rest
                    .split_whitespace()
                    .nth(1)
                    .is_some_and(|next| completing.contains(&next.trim_end_matches(BREAKS)))
                && stays.split_whitespace().count() >= 3
                // Two words joined after a mark (`operations - Manage and query …`).
                && since_mark(stays).split_whitespace().count() >= 2
                // The serial comma's conjunction (`format, relative dates, or absolute`).
                && !(stays.ends_with(',') && listing(stays.trim_end_matches(',')))
                && !shared_object(stays, rest));
        if clause {
            found = Some(i);
        }
    }
    found
}

/// Whether the comma `rest` begins parts two items of a list a colon opens in `stays`
/// (no other mark between them): a cut there would keep half the list, where the list is
/// all the tool does (`Manage branches: list all branches, show current branch, …`). Part
/// of a list of examples (`including: size, creation time, …`) says no less than it did.
fn in_colon_list(stays: &str, rest: &str) -> bool {
    let examples = [
        "including",
        "include",
        "includes",
        "such as",
        "like",
        "e.g.",
        "example",
    ];
    rest.starts_with(", ")
        && stays.rfind(": ").is_some_and(|colon| {
            let list = &stays[colon..];
            let opening = stays[..colon].to_ascii_lowercase();
            !MARKS
                .iter()
                .any(|mark| *mark != ", " && list.contains(mark))
                && !examples.iter().any(|e| opening.ends_with(e))
        })
}

/// What `text` says since its last mark ([`MARKS`], or a colon).
fn since_mark(text: &str) -> &str {
    MARKS
        .iter()
        .chain(&[": "])
        .filter_map(|mark| text.rfind(mark).map(|at| at + mark.len()))
        .max()
        .map_or(text, |at| &text[at..])
}

/// Whether the conjunction `rest` begins joins two words sharing what follows: two verbs
/// (`to organize and present information`, `generating and executing DDL statements`), or
/// two adjectives after a degree (`the most relevant and trustworthy content`).
fn shared_object(stays: &str, rest: &str) -> bool {
    let before_last = stays
        .split_whitespace()
        .nth_back(1)
        .map(str::to_ascii_lowercase);
    let infinitive = before_last.as_deref() == Some("to");
    let degree = ["most", "more", "least", "less", "very"]
        .contains(&before_last.as_deref().unwrap_or_default());
    let gerunds = stays.ends_with("ing")
        && rest
            .split_whitespace()
            .nth(1)
            .is_some_and(|next| next.ends_with("ing"));
    infinitive || degree || gerunds
}

/// Whether the comma `rest` begins separates the items of a list of short ones ([`short`])
/// — between two commas, or before the last two (`, or`; `, file: or data:`
/// without the serial comma) — as in firecrawl-mcp's `a recurring scrape, crawl, or search
/// that diffs…`: a cut at either comma would leave half of it. (`by URL, back or forward in
/// history, or reload` has no such list.)
fn in_list(stays: &str, rest: &str) -> bool {
    let Some(after) = rest.strip_prefix(", ") else {
        return false;
    };
    if after.starts_with("and ") || after.starts_with("or ") {
        return listing(stays);
    }
    // The item before the last, its conjunction not a comma (markitdown-mcp's `http:,
    // https:, file: or data: URI`).
    let before_last = [" and ", " or "]
        .iter()
        .filter_map(|c| after.find(c))
        .min()
        .is_some_and(|end| short(&after[..end]) && !after[..end].contains(','));
    // An item between two commas.
    after.find(", ").is_some_and(|end| short(&after[..end])) || (before_last && listing(stays))
}

/// Whether `text` ends in a short item after a comma: a list's, when a comma or a
/// conjunction follows.
fn listing(text: &str) -> bool {
    text.rfind(", ").is_some_and(|at| short(&text[at + 2..]))
}

/// Whether a list's item is short: three words at most (`indexes`, `Azure Developer CLI`).
fn short(item: &str) -> bool {
    item.split_whitespace().count() <= 3
}

/// `text` without the aside a cut left open (`… giving up (for drain`).
fn without_open_aside(text: &str) -> &str {
    match asides(text).into_iter().find(|aside| !aside.closed) {
        Some(aside) => text[..aside.bytes.start].trim_end(),
        None => text,
    }
}

/// Where the list `text` ends in begins (`e.g.`, `for example`, `such as`; `like`,
/// `including` or a colon before two items at least, or one where a comma follows it:
/// `code: GraphQL operations, UI components`), when all that follows its opening words is
/// short items (two words at most) separated by commas: a cut there keeps no half list.
fn examples_start(text: &str, comma_follows: bool) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    let (at, opening) = [
        "e.g.",
        "for example",
        "such as",
        " like ",
        "including",
        ": ",
    ]
    .iter()
    .filter_map(|opening| lower.rfind(opening).map(|at| (at, *opening)))
    .max()?;
    let items = lower[at + opening.len()..].trim_start_matches([',', ':', ' ']);
    let examples = matches!(opening, "e.g." | "for example" | "such as");
    (items
        .split(',')
        .all(|item| item.split_whitespace().count() <= 2)
        && (examples || comma_follows || items.contains(',')))
    .then_some(at)
}

/// The terse wording of a tool's description from its lead paragraph (of
/// plain prose): its first sentence, asides cut, within `budget`
/// tokens.
pub(crate) fn terse(paragraph: &str, budget: usize) -> String {
    let sentence = sentences(paragraph).first().copied().unwrap_or_default();
    let mut first = without_asides(sentence);
    // Its examples cut, it still ends as the server's sentence did.
    let end = ['.', '!', '?'];
    if sentence.trim_end().ends_with(end) && !first.is_empty() && !first.ends_with(end) {
        first.push('.');
    }
    fit(&first, budget)
}

/// The middle wording from a lead paragraph (of plain prose): all
/// of it when it fits `budget` tokens, else as many of its sentences as fit (the first one
/// at least, fitted).
pub(crate) fn middle(paragraph: &str, budget: usize) -> String {
    if count_tokens(paragraph) <= budget {
        return paragraph.to_owned();
    }
    let mut kept = String::new();
    for sentence in sentences(paragraph) {
        let candidate = if kept.is_empty() {
            sentence.to_owned()
        } else {
            format!("{kept} {sentence}")
        };
        if count_tokens(&candidate) > budget {
            break;
        }
        kept = candidate;
    }
    if kept.is_empty() {
        return fit(
            sentences(paragraph).first().copied().unwrap_or(paragraph),
            budget,
        );
    }
    kept
}
