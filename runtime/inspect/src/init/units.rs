//! A server's description cut into the units a drafted level keeps whole or leaves out
//! whole: its sentences, list items, code blocks and headings, each as written, with the
//! asides a level may leave out, whether it states a rule ([`rules`](super::rules)), and
//! the units it cannot be read without. A level's text is [`compose`]d of such units, in
//! the server's order; [`faithful`] tells whether a text is.

use super::asides::asides;
use super::rules::{said, words};
use std::ops::Range;

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A sentence of prose (a line that introduces a list, ending with a colon, too).
    Sentence,
    /// A list's item, its marker kept (`- Use …`, `1. Read …`), with the lines it wraps to.
    Item,
    /// A fenced or indented block (code, YAML, JSON): whole or not at all, never read as
    /// prose.
    Code,
    /// A heading (`## Usage`, `Examples:`): it names what follows and says nothing.
    Heading,
}

/// One unit of a description.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    /// As the server wrote it; prose with its spaces and line breaks one space each.
    pub(crate) text: String,
    pub(crate) kind: Kind,
    /// The paragraph it stands in (blank lines and headings part them).
    pub(crate) paragraph: usize,
    /// The closed asides of `text` (`( … )`, `[ … ]`) a level may leave out, and whether
    /// its lean form keeps each (one that states a rule, or an argument's fact).
    pub(crate) asides: Vec<(Range<usize>, bool)>,
    /// Whether it states a rule a valid call depends on ([`is_rule`](super::rules::is_rule)).
    pub(crate) rule: bool,
    /// The units it cannot be read without: what it refers to, the list it opens, the
    /// rule its list is the options of.
    pub(crate) needs: Vec<usize>,
}

impl Unit {
    /// Its text with the asides `drop` picks left out whole, and the space before each.
    pub(crate) fn without(&self, mut drop: impl FnMut(&str) -> bool) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut from = 0;
        for (aside, _) in &self.asides {
            if !drop(self.inner(aside)) {
                continue;
            }
            out.push_str(&self.text[from..aside.start]);
            let rest = &self.text[aside.end..];
            if rest.is_empty()
                || rest.starts_with(|c: char| c.is_whitespace() || ",.;:!?)".contains(c))
            {
                let kept = out.trim_end().len();
                out.truncate(kept);
            }
            from = aside.end;
        }
        out.push_str(&self.text[from..]);
        out
    }

    /// Its text without the asides its lean form leaves out: the least it says whole.
    pub(crate) fn lean(&self) -> String {
        let mut kept = self.asides.iter().map(|(_, kept)| *kept);
        let lean = self.without(|_| !kept.next().unwrap_or(true));
        // All asides, it says nothing without them: it is read whole.
        match lean.trim().is_empty() {
            true => self.text.clone(),
            false => lean,
        }
    }

    /// What the aside at `bytes` of its text says, its marks left out.
    pub(crate) fn inner(&self, bytes: &Range<usize>) -> &str {
        &self.text[bytes.start + 1..bytes.end - 1]
    }

    /// Marks the asides `keep` picks as kept by its lean form too.
    pub(crate) fn keeping(&mut self, keep: impl Fn(&str) -> bool) {
        let kept: Vec<bool> = self
            .asides
            .iter()
            .map(|(bytes, _)| keep(self.inner(bytes)))
            .collect();
        for ((_, was), now) in self.asides.iter_mut().zip(kept) {
            *was |= now;
        }
    }

    /// Whether a level may read it at all (a heading or a code block says no claim of its
    /// own: it goes with what needs it).
    pub(crate) fn prose(&self) -> bool {
        matches!(self.kind, Kind::Sentence | Kind::Item)
    }
}

/// The units of `text`, in order, `rule` telling which state a rule (an argument's
/// description: [`is_rule`](super::rules::is_rule); a tool's:
/// [`is_call_rule`](super::rules::is_call_rule)).
pub(crate) fn units(text: &str, rule: &dyn Fn(&str) -> bool) -> Vec<Unit> {
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
pub(crate) fn refers(units: &[Unit], at: usize) -> Vec<usize> {
    let unit = &units[at];
    let words = words(&unit.text);
    let mut needs = Vec::new();
    let first = words.first().map(String::as_str).unwrap_or_default();
    let second = words.get(1).map(String::as_str).unwrap_or_default();
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
        .any(|p| said(&words, p));
    if back && let Some(before) = (0..at).rev().find(|&b| units[b].kind != Kind::Heading) {
        needs.push(before);
    }
    // A named option, step or method: the unit that first names it.
    for window in words.windows(2) {
        let [name, number] = window else { continue };
        if matches!(
            name.as_str(),
            "option" | "step" | "method" | "approach" | "mode"
        ) && number
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
            && let Some(first) = (0..at).find(|&b| {
                let named = super::rules::words(&units[b].text);
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
pub(crate) fn sentences(text: &str) -> Vec<&str> {
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

/// How a picked unit is read: whole, or without the asides that state no rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Form {
    Lean,
    Whole,
}

/// A level's text as the units it keeps: each unit's index and form, in the server's
/// order. Empty says nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Picks(Vec<(usize, Form)>);

impl Picks {
    /// The picks of `units` at `at` (and what each needs), each in `form`.
    pub(crate) fn of(units: &[Unit], at: impl IntoIterator<Item = usize>, form: Form) -> Picks {
        let mut picks = Picks::default();
        for unit in at {
            picks.add(units, unit, form);
        }
        picks
    }

    /// Adds unit `at` in `form` (a unit picked twice is read in its larger form), with the
    /// units it needs, each whole where it is.
    pub(crate) fn add(&mut self, units: &[Unit], at: usize, form: Form) {
        let mut todo = vec![(at, form)];
        while let Some((at, form)) = todo.pop() {
            match self.0.iter_mut().find(|(u, _)| *u == at) {
                Some((_, had)) if *had >= form => continue,
                Some((_, had)) => *had = form,
                None => self.0.push((at, form)),
            }
            todo.extend(units[at].needs.iter().map(|&n| (n, Form::Lean)));
        }
        self.0.sort();
    }

    /// These picks and `other`'s.
    pub(crate) fn union(&self, units: &[Unit], other: &Picks) -> Picks {
        let mut out = self.clone();
        for &(at, form) in &other.0 {
            out.add(units, at, form);
        }
        out
    }

    /// With every rule of `units`, where it says anything: a rule is the last thing a
    /// level drops.
    pub(crate) fn with_rules(mut self, units: &[Unit]) -> Picks {
        if !self.0.is_empty() {
            for (at, unit) in units.iter().enumerate() {
                if unit.rule {
                    self.add(units, at, Form::Lean);
                }
            }
        }
        self
    }

    /// Whether it picks unit `at`.
    pub(crate) fn holds(&self, at: usize) -> bool {
        self.0.iter().any(|&(u, _)| u == at)
    }

    /// The units it picks, in order.
    pub(crate) fn units(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|&(at, _)| at)
    }

    /// Whether it says nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What it reads beyond the rules and what they need: the part a level's budget
    /// holds.
    pub(crate) fn beyond_rules(&self, units: &[Unit]) -> String {
        let ruled = ruled(units);
        let free: Vec<(usize, Form)> = self
            .0
            .iter()
            .copied()
            .filter(|&(at, _)| !ruled[at])
            .collect();
        compose(units, &free)
    }

    /// The text it reads ([`compose`]).
    pub(crate) fn text(&self, units: &[Unit]) -> String {
        compose(units, &self.0)
    }
}

/// Which of `units` are rules, or what a rule needs (and what that needs, in turn).
pub(crate) fn ruled(units: &[Unit]) -> Vec<bool> {
    let mut ruled: Vec<bool> = units.iter().map(|u| u.rule).collect();
    let mut todo: Vec<usize> = (0..units.len()).filter(|&u| ruled[u]).collect();
    while let Some(at) = todo.pop() {
        for &need in &units[at].needs {
            if !ruled[need] {
                ruled[need] = true;
                todo.push(need);
            }
        }
    }
    ruled
}

/// The text of `picks` of `units`: a list item or a block on a line of its own (and what
/// follows one), sentences joined by a space.
pub(crate) fn compose(units: &[Unit], picks: &[(usize, Form)]) -> String {
    let mut out = String::new();
    let mut last: Option<Kind> = None;
    for &(at, form) in picks {
        let unit = &units[at];
        let text = match form {
            Form::Whole => unit.text.clone(),
            Form::Lean => unit.lean(),
        };
        if let Some(last) = last {
            let own_line = unit.kind != Kind::Sentence || last != Kind::Sentence;
            out.push(if own_line { '\n' } else { ' ' });
        }
        out.push_str(&text);
        last = Some(unit.kind);
    }
    out
}

/// What a text's reading of `units` keeps: each unit it reads, in order — `None` where the
/// text says something that is not the units', whole (or less asides), in their order.
/// Where two readings fit (`Read` then `Read Read`), the one that keeps most units is not
/// asked for: any reading proves the text is the server's.
pub(crate) fn faithful(units: &[Unit], text: &str) -> Option<Vec<usize>> {
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = squeeze(text);
    let forms: Vec<Vec<String>> = units
        .iter()
        .map(|unit| {
            let mut forms: Vec<String> = unit
                .forms()
                .iter()
                .map(|form| squeeze(form))
                .filter(|form| !form.is_empty())
                .collect();
            forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
            forms.dedup();
            forms
        })
        .collect();
    // From unit `at` and byte `from` of the text on: the units that read the rest, if any.
    // A place that cannot is remembered, so each is tried once.
    let mut dead = std::collections::HashSet::new();
    let mut kept = Vec::new();
    read(&forms, &text, 0, 0, &mut kept, &mut dead).then_some(kept)
}

/// Whether `text[from..]` is read by units from `at` on ([`faithful`]), each it reads
/// pushed to `kept`.
fn read(
    forms: &[Vec<String>],
    text: &str,
    at: usize,
    from: usize,
    kept: &mut Vec<usize>,
    dead: &mut std::collections::HashSet<(usize, usize)>,
) -> bool {
    let rest = &text[from..];
    if rest.is_empty() {
        return true;
    }
    if at == forms.len() || dead.contains(&(at, from)) {
        return false;
    }
    for form in &forms[at] {
        let ends = rest.starts_with(form.as_str())
            && rest[form.len()..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace);
        if !ends {
            continue;
        }
        let next = from + form.len() + usize::from(rest.len() > form.len());
        kept.push(at);
        if read(forms, text, at + 1, next, kept, dead) {
            return true;
        }
        kept.pop();
    }
    // Or the unit is left out.
    if read(forms, text, at + 1, from, kept, dead) {
        return true;
    }
    dead.insert((at, from));
    false
}

impl Unit {
    /// Every form it may be read in: whole, and less each set of its asides (of its first
    /// eight).
    pub(crate) fn forms(&self) -> Vec<String> {
        let count = self.asides.len().min(8);
        (0..1u32 << count)
            .map(|mask| {
                let mut index = 0;
                self.without(|_| {
                    let i = index;
                    index += 1;
                    i < count && mask & (1 << i) != 0
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
