//! A description cut into its units ([`units`]): sentences never split inside brackets,
//! quotes or code; list items with the lines they wrap to; fenced, indented and JSON
//! blocks; headings. Each unit learns what it refers to and the list it opens.

use super::asides::asides;
use super::rules::{said, words};
use super::unit::{Kind, Unit};

/// The units of `text`, in order, `rule` telling which state a rule (an argument's
/// description: [`is_rule`](super::rules::is_rule); a tool's:
/// [`is_call_rule`](super::rules::is_call_rule)).
pub fn units(text: &str, rule: &dyn Fn(&str) -> bool) -> Vec<Unit> {
    let mut cutter = Cutter {
        rule,
        units: Vec::new(),
        prose: String::new(),
        paragraph: 0,
        list: None,
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            // A fenced block, to its closing fence (or the end).
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim().starts_with("```"))
                .unwrap_or(lines.len() - 1);
            cutter.push_block(Kind::Code, lines[i..=end].join("\n"));
            i = end + 1;
            continue;
        }
        if trimmed.is_empty() {
            cutter.paragraph_break();
            i += 1;
            continue;
        }
        // A JSON value on lines of its own: a block, to where its brackets close.
        if trimmed == "{" || trimmed == "[" || trimmed.starts_with("{\"") {
            let mut depth = 0i32;
            let mut end = lines.len() - 1;
            for (j, line) in lines.iter().enumerate().skip(i) {
                depth += line.matches(['{', '[']).count() as i32;
                depth -= line.matches(['}', ']']).count() as i32;
                if depth <= 0 {
                    end = j;
                    break;
                }
            }
            cutter.push_block(Kind::Code, lines[i..=end].join("\n"));
            i = end + 1;
            continue;
        }
        // Lines set in under a line that opens them (`config:` then YAML): a block.
        let opener = (0..i)
            .rev()
            .find(|&j| !lines[j].trim().is_empty())
            .map(|j| indent(lines[j]));
        let deeper = opener.is_some_and(|opener| indent(line) >= opener + 2);
        if deeper && cutter.opened() && marker(trimmed).is_none() {
            let opener = opener.unwrap_or_default();
            let end = (i..lines.len())
                .take_while(|&j| lines[j].trim().is_empty() || indent(lines[j]) > opener)
                .last()
                .unwrap_or(i);
            cutter.push_block(Kind::Code, lines[i..=end].join("\n").trim_end().to_owned());
            i = end + 1;
            continue;
        }
        if marker(trimmed).is_some() {
            // An item, with the lines it wraps to (set in deeper, no marker of their own).
            let mut item = trimmed.to_owned();
            let mut j = i + 1;
            while j < lines.len()
                && !lines[j].trim().is_empty()
                && indent(lines[j]) > indent(line)
                && marker(lines[j].trim()).is_none()
            {
                item = format!("{item} {}", lines[j].trim());
                j += 1;
            }
            cutter.push_item(item);
            i = j;
            continue;
        }
        if heading(trimmed) {
            cutter.push_block(Kind::Heading, trimmed.to_owned());
            cutter.paragraph_break();
            i += 1;
            continue;
        }
        cutter.push_prose(trimmed);
        i += 1;
    }
    cutter.finish()
}

/// How far a line is set in.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A list item's marker (`- `, `* `, `• `, `1. `, `2) `), if the line begins with one.
fn marker(line: &str) -> Option<usize> {
    if ["- ", "* ", "• ", "+ "].iter().any(|m| line.starts_with(m)) {
        return Some(2);
    }
    let digits = line.find(|c: char| !c.is_ascii_digit())?;
    let rest = &line[digits..];
    (digits > 0 && (rest.starts_with(". ") || rest.starts_with(") "))).then_some(digits + 2)
}

/// Whether a line is a heading: a Markdown one, three words at most ending with a colon
/// (`Examples:`), or a tag alone (`<use_case>`).
fn heading(line: &str) -> bool {
    let words = line.trim_start_matches('#').trim();
    line.starts_with('#')
        || (line.ends_with(':') && words.split_whitespace().count() <= 3)
        || (line.starts_with('<') && line.ends_with('>') && !line.contains(' '))
}

/// Builds the units line by line.
struct Cutter<'r> {
    /// Whether a text states a rule.
    rule: &'r dyn Fn(&str) -> bool,
    units: Vec<Unit>,
    /// The prose lines of the paragraph not yet cut into sentences.
    prose: String,
    paragraph: usize,
    /// The list being read: its opening unit (if any) and its items.
    list: Option<(Option<usize>, Vec<usize>)>,
}

impl Cutter<'_> {
    /// Whether the last unit opens what follows (ends with a colon).
    fn opened(&self) -> bool {
        self.prose.trim_end().ends_with(':')
            || (self.prose.is_empty() && self.units.last().is_some_and(|u| u.text.ends_with(':')))
    }

    fn push_prose(&mut self, line: &str) {
        self.end_list();
        if !self.prose.is_empty() {
            self.prose.push(' ');
        }
        self.prose.push_str(line);
    }

    fn push_item(&mut self, text: String) {
        self.flush();
        if self.list.is_none() {
            let opening = self
                .units
                .last()
                .filter(|u| u.text.ends_with(':'))
                .map(|_| self.units.len() - 1);
            self.list = Some((opening, Vec::new()));
        }
        let at = self.push(Kind::Item, text);
        if let Some((_, items)) = &mut self.list {
            items.push(at);
        }
    }

    fn push_block(&mut self, kind: Kind, text: String) {
        self.flush();
        self.end_list();
        let opening = self
            .units
            .last()
            .filter(|u| u.text.ends_with(':'))
            .map(|_| self.units.len() - 1);
        let at = self.push(kind, text);
        if let (Some(opening), Kind::Code) = (opening, kind) {
            // What opens a block is read with it.
            self.units[opening].needs.push(at);
        }
    }

    fn paragraph_break(&mut self) {
        self.flush();
        self.end_list();
        self.paragraph += 1;
    }

    /// Cuts the prose read so far into sentences.
    fn flush(&mut self) {
        let prose = std::mem::take(&mut self.prose);
        for sentence in sentences(&prose) {
            self.push(Kind::Sentence, sentence.to_owned());
        }
    }

    /// Ends the list being read: its opening needs every item; each item needs the
    /// opening where that states a rule (the items are its options).
    fn end_list(&mut self) {
        let Some((opening, items)) = self.list.take() else {
            return;
        };
        if let Some(opening) = opening {
            self.units[opening].needs.extend(&items);
            if self.units[opening].rule {
                for &item in &items {
                    self.units[item].needs.push(opening);
                }
            }
        }
    }

    fn push(&mut self, kind: Kind, text: String) -> usize {
        let text = match kind {
            Kind::Code => text,
            _ => text.split_whitespace().collect::<Vec<_>>().join(" "),
        };
        let prose = matches!(kind, Kind::Sentence | Kind::Item);
        let unit = Unit {
            asides: match prose {
                true => asides(&text)
                    .into_iter()
                    // Closed, saying something, and not code's (`find_organizations()`).
                    .filter(|a| a.closed && !a.inner(&text).is_empty())
                    .filter(|a| text[..a.bytes.start].matches('`').count() % 2 == 0)
                    // Nor a link's text or address (`[docs](https://…)`).
                    .filter(|a| {
                        !text[a.bytes.end..].starts_with('(')
                            && !text[..a.bytes.start].ends_with(']')
                    })
                    .map(|a| {
                        let kept = (self.rule)(a.inner(&text));
                        (a.bytes, kept)
                    })
                    .collect(),
                false => Vec::new(),
            },
            rule: prose && (self.rule)(&text),
            needs: Vec::new(),
            paragraph: self.paragraph,
            kind,
            text,
        };
        self.units.push(unit);
        let at = self.units.len() - 1;
        if prose {
            let needs = refers(&self.units, at);
            self.units[at].needs.extend(needs);
        }
        at
    }

    fn finish(mut self) -> Vec<Unit> {
        self.flush();
        self.end_list();
        opened_paragraphs(&mut self.units);
        self.units
    }
}

/// What unit `at` of `units` (the units before it cut) cannot be read without: the unit
/// before it where it begins by pointing back (`This must…`, `Otherwise…`), or speaks of
/// "the above"; the unit that first names an option, a step or a method it names (`If
/// using Option 1…`).
fn refers(units: &[Unit], at: usize) -> Vec<usize> {
    let unit = &units[at];
    let own = words(&unit.text);
    let mut needs = Vec::new();
    let first = own.first().map(String::as_str).unwrap_or_default();
    let second = own.get(1).map(String::as_str).unwrap_or_default();
    // `This tool …` speaks of the tool, `This is …` of what came before.
    let subjects = [
        "tool",
        "tools",
        "function",
        "endpoint",
        "operation",
        "command",
        "server",
        "method",
        "api",
        "action",
        "parameter",
        "argument",
        "field",
        "value",
        "option",
        "call",
    ];
    let pointing = matches!(first, "this" | "these" | "those" | "that" | "such" | "it")
        && !subjects.contains(&second)
        && !(first == "it" && unit.paragraph == 0 && at <= 1);
    let back = pointing
        || matches!(
            first,
            "otherwise" | "then" | "also" | "additionally" | "alternatively"
        )
        || [
            "the above",
            "see above",
            "as above",
            "listed above",
            "shown above",
        ]
        .iter()
        .any(|p| said(&own, p));
    if back && let Some(before) = (0..at).rev().find(|&b| units[b].kind != Kind::Heading) {
        needs.push(before);
    }
    // A named option, step or method: the unit that first names it.
    for window in own.windows(2) {
        let [name, number] = window else { continue };
        if matches!(
            name.as_str(),
            "option" | "step" | "method" | "approach" | "mode"
        ) && number
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
            && let Some(first) = (0..at).find(|&b| {
                let named = words(&units[b].text);
                named.windows(2).any(|w| w[0] == *name && w[1] == *number)
            })
        {
            needs.push(first);
        }
    }
    needs.sort_unstable();
    needs.dedup();
    needs
}

/// What a unit opens across a blank line: where one ending with a colon ends its
/// paragraph (`Input options (EXACTLY ONE of these THREE options must be used):`), it
/// needs the next paragraph, and each after it that opens the same way (`Option 2 - Direct
/// URL:` after `Option 1 - Project Slug:`), to a heading; a rule's options need the rule.
fn opened_paragraphs(units: &mut [Unit]) {
    let opens = |unit: &Unit| unit.prose() && unit.text.ends_with(':');
    for at in 0..units.len() {
        let Some(next) = units.get(at + 1) else { break };
        if !opens(&units[at]) || next.paragraph == units[at].paragraph || next.kind == Kind::Heading
        {
            continue;
        }
        let first = next.paragraph;
        let mut needs = Vec::new();
        let mut paragraph = first;
        for (j, unit) in units.iter().enumerate().skip(at + 1) {
            if unit.kind == Kind::Heading {
                break;
            }
            if unit.paragraph != paragraph {
                // Another paragraph of the same kind: opening as the first did.
                if !(opens(&units[at + 1]) && opens(unit) && j == first_of(units, unit.paragraph)) {
                    break;
                }
                paragraph = unit.paragraph;
            }
            needs.push(j);
        }
        let rule = units[at].rule;
        units[at].needs.extend(&needs);
        if rule {
            for j in needs {
                units[j].needs.push(at);
            }
        }
    }
}

/// The first unit of `paragraph`.
fn first_of(units: &[Unit], paragraph: usize) -> usize {
    units
        .iter()
        .position(|u| u.paragraph == paragraph)
        .unwrap_or(0)
}

/// The sentences of a paragraph of prose: cut after `.`, `!` or `?` followed by a space
/// and no lower-case letter, never inside brackets, double quotes or code spans,
/// nor after an abbreviation (`e.g.`, `i.e.`, `etc.`, `vs.`).
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut depth, mut quoted, mut code) = (0, 0i32, false, false);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        match c {
            '`' => code = !code,
            '"' | '“' | '”' if !code => quoted = !quoted,
            '(' | '[' | '{' if !code && !quoted => depth += 1,
            ')' | ']' | '}' if !code && !quoted => depth = (depth - 1).max(0),
            _ => {}
        }
        if !matches!(c, '.' | '!' | '?') || depth > 0 || quoted || code {
            continue;
        }
        let Some(&(_, space)) = chars.get(k + 1) else {
            continue;
        };
        if !space.is_whitespace() {
            continue;
        }
        let next = chars[k + 1..]
            .iter()
            .map(|&(_, c)| c)
            .find(|c| !c.is_whitespace());
        if next.is_some_and(char::is_lowercase) {
            continue;
        }
        let so_far = text[start..=i].to_ascii_lowercase();
        if [
            "e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "no.", "ex.",
        ]
        .iter()
        .any(|a| {
            so_far.ends_with(a)
                && !so_far[..so_far.len() - a.len()].ends_with(char::is_alphanumeric)
        }) {
            continue;
        }
        let sentence = text[start..=i].trim();
        if !sentence.is_empty() {
            out.push(sentence);
        }
        start = i + c.len_utf8();
    }
    let tail = text[start..].trim();
    if !tail.is_empty() {
        out.push(tail);
    }
    out
}
