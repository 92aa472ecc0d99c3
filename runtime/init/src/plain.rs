//! A description's markup reduced to plain prose, a line per paragraph: what the searches
//! of `init`'s check read (a drafted level keeps the server's units as written).

/// Words a phrase does not end on: a code span of one is read with its marks.
const DANGLING: &str = "a an the and or but nor of to from in into on onto at by for with \
    without via per as than if when where which that whose its their your this these is are \
    be over under after before about between through during against within across using \
    like including such last first next based according depending";

/// Whether `word` is one a phrase does not end on ([`DANGLING`]).
fn dangling(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    DANGLING.split_whitespace().any(|w| w == word)
}

/// `text` as plain prose, a line per paragraph: fenced code dropped, Markdown emphasis,
/// headings, bullets, links and HTML tags reduced to their words, whitespace collapsed; a
/// line that introduces a list (ends with a colon) begins a paragraph, and the items of a
/// bulleted or numbered list are separated by commas. A tag the text closes (`<use_case>` …
/// `</use_case>`) is markup too, and a heading ([`heading`]) is a paragraph break.
pub(crate) fn plain(text: &str) -> String {
    let mut out = String::new();
    let (mut fenced, mut listing) = (false, false);
    let closed = closed_tags(text);
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let unmarked = trimmed.trim_start_matches('#');
        let numbered = numbered_item(unmarked);
        let line = numbered
            .unwrap_or_else(|| unmarked.trim_start_matches(['-', '*', '•']))
            .trim();
        let bullet =
            numbered.is_some() || ["- ", "* ", "• "].iter().any(|m| unmarked.starts_with(m));
        // A heading (`🎯 Purpose:`, `## Overview`) names no content.
        let line = match heading(trimmed, line) {
            true => String::new(),
            false => inline(line, &closed),
        };
        if line.is_empty() {
            // A blank line, a heading or a line of tags alone (`<use_case>`) ends a
            // paragraph: the break survives as one marker, for `paragraphs`.
            if !out.ends_with('\n') && !out.is_empty() {
                out.push('\n');
            }
            continue;
        }
        // A line that introduces a list (`Retrieve metadata about a file including:`)
        // begins a paragraph of its own; a list's items are read as one (`including: size,
        // creation time, type`).
        let separator = match line.ends_with(':') {
            true => "\n",
            false if bullet && listing && !out.ends_with(['.', '!', '?', ':', ';', ',']) => ", ",
            false => " ",
        };
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(separator);
        }
        out.push_str(&line);
        listing = bullet;
    }
    out.trim().to_owned()
}

/// The HTML tags a description's markup may hold, dropped from it; any other `<word>` is a
/// placeholder the text needs (`given as <revision>:<path>`).
const HTML: &[&str] = &[
    "b", "i", "u", "s", "em", "strong", "code", "pre", "kbd", "tt", "mark", "small", "sub", "sup",
    "br", "hr", "p", "span", "div", "ul", "ol", "li",
];

/// The item of a numbered list's line (`1. Retrieves…`, `2) Sets…`), without its number.
fn numbered_item(line: &str) -> Option<&str> {
    let digits = line.find(|c: char| !c.is_ascii_digit())?;
    let rest = line[digits..].strip_prefix(['.', ')'])?;
    (digits > 0 && rest.starts_with(' ')).then_some(rest)
}

/// Whether a line (`trimmed`; `line` without its markup) is a heading: three words at most,
/// a Markdown heading, one that ends with a colon, or one that begins with a symbol (an
/// emoji: `🎯 Purpose`).
fn heading(trimmed: &str, line: &str) -> bool {
    let words = line
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim_end_matches(':');
    let symbol = line.starts_with(|c: char| !c.is_alphanumeric() && !c.is_ascii());
    !words.is_empty()
        && words.split_whitespace().count() <= 3
        && (trimmed.starts_with('#') || line.ends_with(':') || symbol)
}

/// The names of the tags `text` closes (`</use_case>`: `use_case`), lowercase.
fn closed_tags(text: &str) -> Vec<String> {
    text.match_indices("</")
        .filter_map(|(at, _)| {
            let name = &text[at + 2..];
            let end = name.find('>')?;
            let name = &name[..end];
            let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-');
            (!name.is_empty() && name.chars().all(word)).then(|| name.to_ascii_lowercase())
        })
        .collect()
}

/// One line's inline markup reduced: `**b**`, `__b__`, `` `c` `` to their words (but a
/// code span of one `DANGLING` word, `` `at` ``),
/// `[text](url)` to `text`, HTML tags (`<b>`, `</p>`, `<br/>`) and the tags the text
/// closes (`closed`) dropped.
fn inline(line: &str, closed: &[String]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut quoted = false;
    while let Some(c) = rest.chars().next() {
        if c == '['
            && let Some(close) = rest.find("](")
            && let Some(end) = rest[close..].find(')')
        {
            out.push_str(&rest[1..close]);
            rest = &rest[close + end + 1..];
            continue;
        }
        if c == '<'
            && let Some(end) = rest.find('>')
            && let name = rest[1..end].trim_matches('/').to_ascii_lowercase()
            && (HTML.contains(&name.as_str()) || closed.contains(&name))
        {
            rest = &rest[end + 1..];
            continue;
        }
        // A code span of a word prose is made of keeps its marks: `from at` would read as
        // a phrase broken off (excel-mcp-server's `import_csv`: "from `at`").
        if c == '`'
            && let Some(end) = rest[1..].find('`')
            && dangling(&rest[1..=end])
        {
            out.push_str(&rest[..end + 2]);
            rest = &rest[end + 2..];
            continue;
        }
        // Inside double quotes a `*` is a value's (`"/api/.*user"`), not emphasis.
        quoted ^= c == '"';
        if (quoted && c == '*') || (!matches!(c, '*' | '`') && !rest.starts_with("__")) {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The paragraphs of `text` as [`plain`] prose.
pub(crate) fn paragraphs(text: &str) -> Vec<String> {
    plain(text)
        .split('\n')
        .map(|p| p.trim().to_owned())
        .collect()
}
