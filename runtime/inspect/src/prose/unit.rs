//! A unit of a server's description: a sentence, a list item, a code block or a heading,
//! as written, with the asides a level may leave out, whether it states a rule, and the
//! units it cannot be read without.

use std::ops::Range;

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
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
pub struct Unit {
    /// As the server wrote it; prose with its spaces and line breaks one space each.
    pub text: String,
    /// A sentence, an item, a code block or a heading.
    pub kind: Kind,
    /// The paragraph it stands in (blank lines and headings part them).
    pub paragraph: usize,
    /// The closed asides of `text` (`( … )`, `[ … ]`) a level may leave out, and whether
    /// its lean form keeps each (one that states a rule, or an argument's fact).
    pub asides: Vec<(Range<usize>, bool)>,
    /// Whether it states a rule a valid call depends on ([`is_rule`](super::rules::is_rule)).
    pub rule: bool,
    /// The units it cannot be read without: what it refers to, the list it opens, the
    /// rule its list is the options of.
    pub needs: Vec<usize>,
}

impl Unit {
    /// Its text with the asides `drop` picks left out whole, and the space before each.
    pub fn without(&self, mut drop: impl FnMut(&str) -> bool) -> String {
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
    pub fn lean(&self) -> String {
        let mut kept = self.asides.iter().map(|(_, kept)| *kept);
        let lean = self.without(|_| !kept.next().unwrap_or(true));
        // All asides, it says nothing without them: it is read whole.
        match lean.trim().is_empty() {
            true => self.text.clone(),
            false => lean,
        }
    }

    /// What the aside at `bytes` of its text says, its marks left out.
    pub fn inner(&self, bytes: &Range<usize>) -> &str {
        &self.text[bytes.start + 1..bytes.end - 1]
    }

    /// Marks the asides `keep` picks as kept by its lean form too.
    pub fn keeping(&mut self, keep: impl Fn(&str) -> bool) {
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
    pub fn prose(&self) -> bool {
        matches!(self.kind, Kind::Sentence | Kind::Item)
    }

    /// Every form it may be read in: whole, and less each set of its asides (of its first
    /// eight).
    pub fn forms(&self) -> Vec<String> {
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
