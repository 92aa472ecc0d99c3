//! Each drafted level's ladder: the wordings it may read, least first, and a step up it —
//! a tool's description (its first wording, sharper ones, the middle text, the server's
//! words less what tells nothing apart, the server's words) and an argument's (its facts,
//! its middle text, its own words).

use super::super::{ArgumentDraft, Level, ToolDraft};

impl ToolDraft {
    /// The wordings `level` may read, least first: its first one, a sharper one, at 0..=2
    /// the middle one, the server's own words less what tells nothing apart, and the
    /// server's own words (`None`); only the last where nothing shorter was drafted.
    pub(in crate::init) fn ladder(&self, level: Level) -> Vec<Option<&str>> {
        let (base, middle) = match level {
            Level::Terse => (self.terse.as_deref(), self.middle.as_deref()),
            Level::Middle => (self.middle.as_deref(), None),
        };
        let Some(base) = base else {
            return vec![None];
        };
        let mut ladder = vec![Some(base)];
        let more = self.more[level as usize].iter().map(String::as_str);
        for text in more.chain(middle).chain(self.pruned.as_deref()) {
            if ladder.last() != Some(&Some(text)) && !text.is_empty() {
                ladder.push(Some(text));
            }
        }
        ladder.push(None);
        ladder
    }

    /// The text `level` reads, words kept included; `None`: the server's own words.
    pub(in crate::init) fn text(&self, level: Level) -> Option<String> {
        let ladder = self.ladder(level);
        let base = ladder[self.step[level as usize].min(ladder.len() - 1)];
        if self.left(level) {
            return None;
        }
        // The server's own words have every word kept.
        let base = base?;
        match self.kept.is_empty() {
            true => Some(base.to_owned()),
            false => Some(with_words(base, &self.kept)),
        }
    }

    /// Whether `level` steps up to the server's own words, its arguments' included.
    pub(in crate::init) fn left(&self, level: Level) -> bool {
        let ladder = self.ladder(level);
        ladder.len() > 1 && self.step[level as usize] + 1 >= ladder.len()
    }

    /// Steps `level` one wording up its ladder; whether there was one.
    pub(in crate::init) fn step_up(&mut self, level: Level) -> bool {
        let top = self.ladder(level).len() - 1;
        let step = &mut self.step[level as usize];
        let up = *step < top;
        *step = (*step + 1).min(top);
        up
    }
}

impl ArgumentDraft {
    /// The wordings `level` may read, least first (empty: nothing): at 0..=2 its facts
    /// (then with its examples' values); then its middle text (then with them); then the
    /// server's own words (`None`).
    pub(in crate::init) fn ladder(&self, level: Level) -> Vec<Option<&str>> {
        let mut ladder = match level {
            Level::Terse => vec![
                Some(self.terse.as_deref().unwrap_or_default()),
                self.exemplified[0].as_deref(),
            ],
            Level::Middle => Vec::new(),
        };
        ladder.push(self.middle.as_deref());
        ladder.push(self.exemplified[1].as_deref());
        let mut rungs: Vec<Option<&str>> = Vec::new();
        for rung in ladder.into_iter().flatten() {
            if !rungs.contains(&Some(rung)) {
                rungs.push(Some(rung));
            }
        }
        rungs.push(None);
        rungs
    }

    /// The text `level` reads (empty: nothing; `None`: the server's own words).
    pub(in crate::init) fn text(&self, level: Level) -> Option<&str> {
        let ladder = self.ladder(level);
        ladder[self.step[level as usize].min(ladder.len() - 1)]
    }

    /// Steps `level` one wording up its ladder; whether there was one.
    pub(in crate::init) fn step_up(&mut self, level: Level) -> bool {
        let top = self.ladder(level).len() - 1;
        let step = &mut self.step[level as usize];
        let up = *step < top;
        *step = (*step + 1).min(top);
        up
    }
}

/// A text that keeps `words`: `Search files (glob, pattern).`
fn with_words(text: &str, words: &[String]) -> String {
    let text = text.trim_end_matches('.');
    if text.is_empty() {
        return format!("{}.", words.join(", "));
    }
    format!("{text} ({}).", words.join(", "))
}
