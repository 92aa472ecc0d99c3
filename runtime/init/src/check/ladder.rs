//! Each drafted level's ladder: the wordings it may read, least first, and a step up it —
//! a tool's description (its first wording, sharper ones, the middle text, the server's
//! words less what tells nothing apart, the server's words) and an argument's (its facts,
//! with their asides, its middle text, with its asides, its own words). Every rung is
//! whole units of the server's own; a level reads at least what the level below it reads.

use super::super::{ArgumentDraft, Band, ToolDraft};
use mcp_tailor_inspect::seam::prose::{Form, Picks};

impl ToolDraft {
    /// The wordings `level` may read, least first: its first one, a sharper one, at 0..=2
    /// the middle one, the server's own words less what tells nothing apart, and the
    /// server's own words (`None`); only the last where nothing shorter was drafted.
    pub(crate) fn ladder(&self, level: Band) -> Vec<Option<&Picks>> {
        let (base, middle) = match level {
            Band::Terse => (self.terse.as_ref(), self.middle.as_ref()),
            Band::Middle => (self.middle.as_ref(), None),
        };
        let Some(base) = base else {
            return vec![None];
        };
        let mut ladder = vec![Some(base)];
        for picks in self.more[level as usize]
            .iter()
            .chain(middle)
            .chain(self.pruned.as_ref())
        {
            if ladder.last() != Some(&Some(picks)) && !picks.is_empty() && self.holds(level, picks)
            {
                ladder.push(Some(picks));
            }
        }
        // 0..=2 reads the server's own words only where they are short too.
        let all = Picks::of(&self.units, 0..self.units.len(), Form::Whole);
        if self.holds(level, &all) {
            ladder.push(None);
        }
        ladder
    }

    /// Whether `level` may read `picks`: at 0..=2, what they say beyond the rules within
    /// the bound.
    fn holds(&self, level: Band, picks: &Picks) -> bool {
        level == Band::Middle
            || mcp_tailor_inspect::count_tokens(&picks.beyond_rules(&self.units)) <= self.bound
    }

    /// The picks `level` reads, the units saying words kept included, and at 3..=6 what
    /// 0..=2 reads; `None`: the server's own words.
    pub(crate) fn picks(&self, level: Band) -> Option<Picks> {
        if self.left(level) {
            return None;
        }
        let ladder = self.ladder(level);
        let mut picks = ladder[self.step[level as usize].min(ladder.len() - 1)]?.clone();
        if level == Band::Middle {
            picks = picks.union(&self.units, &self.picks(Band::Terse)?);
        }
        // What the check found, each where it keeps the level within its bound (a step up
        // since may have taken its room).
        for &unit in &self.found[level as usize] {
            if !picks.holds(unit) {
                let mut more = picks.clone();
                more.add(&self.units, unit, Form::Lean);
                let more = more.with_rules(&self.units);
                if self.holds(level, &more) {
                    picks = more;
                }
            }
        }
        // The units saying a task's words, whatever the bound: the user asked for them.
        for word in &self.kept {
            let saying = (0..self.units.len()).find(|&u| {
                self.units[u].prose() && self.units[u].text.to_lowercase().contains(word.as_str())
            });
            if let Some(unit) = saying.filter(|&u| !picks.holds(u)) {
                picks.add(&self.units, unit, Form::Lean);
                picks = picks.with_rules(&self.units);
            }
        }
        Some(picks)
    }

    /// The text `level` reads; `None`: the server's own words.
    pub(crate) fn text(&self, level: Band) -> Option<String> {
        let picks = self.picks(level)?;
        let text = picks.text(&self.units);
        // Said no shorter than the server's own words, it reads them.
        (picks.is_empty() || mcp_tailor_inspect::count_tokens(&text) < self.own_tokens)
            .then_some(text)
    }

    /// Whether `level` steps up to the server's own words, its arguments' included (at
    /// 3..=6 too where 0..=2 does: a level never says less than the one below).
    pub(crate) fn left(&self, level: Band) -> bool {
        let ladder = self.ladder(level);
        let at = self.step[level as usize].min(ladder.len() - 1);
        let own = ladder.len() > 1 && ladder[at].is_none();
        own || (level == Band::Middle && self.left(Band::Terse))
    }

    /// Adds to what `level` reads the server's unit that says `query` (a clause of it),
    /// where it reads it not yet and, at 0..=2, may within its bound; whether it did.
    pub(crate) fn find(&mut self, level: Band, query: &str) -> bool {
        let query = query.to_lowercase();
        let Some(unit) = (0..self.units.len())
            .find(|&u| self.units[u].prose() && self.units[u].text.to_lowercase().contains(&query))
        else {
            return false;
        };
        if self.picks(level).is_none_or(|picks| picks.holds(unit)) {
            return false;
        }
        self.found[level as usize].push(unit);
        // Read now (within the bound), and no shorter than the server's words only where
        // those hold too: the level then reads them.
        let all = Picks::of(&self.units, 0..self.units.len(), Form::Whole);
        let within = self.picks(level).is_some_and(|picks| picks.holds(unit))
            && (self.text(level).is_some() || self.holds(level, &all));
        if !within {
            self.found[level as usize].pop();
        }
        within
    }

    /// Steps `level` one wording up its ladder; whether there was one.
    pub(crate) fn step_up(&mut self, level: Band) -> bool {
        let top = self.ladder(level).len() - 1;
        let step = &mut self.step[level as usize];
        let up = *step < top;
        *step = (*step + 1).min(top);
        up
    }
}

impl ArgumentDraft {
    /// The wordings `level` may read, least first (empty: nothing): at 0..=2 its facts
    /// (then with their asides); then its middle text (then with its asides); then the
    /// server's own words (`None`).
    pub(crate) fn ladder(&self, level: Band) -> Vec<Option<&Picks>> {
        let mut ladder = match level {
            Band::Terse => match &self.terse {
                Some(terse) => vec![Some(terse), self.whole[0].as_ref()],
                None => Vec::new(),
            },
            Band::Middle => Vec::new(),
        };
        ladder.push(self.middle.as_ref());
        ladder.push(self.whole[1].as_ref());
        let mut rungs: Vec<Option<&Picks>> = Vec::new();
        for rung in ladder.into_iter().flatten() {
            if !rungs.contains(&Some(rung)) {
                rungs.push(Some(rung));
            }
        }
        rungs.push(None);
        rungs
    }

    /// The text `level` reads (empty: nothing; `None`: the server's own words); at 3..=6
    /// what 0..=2 reads too.
    pub(crate) fn text(&self, level: Band) -> Option<String> {
        let at = |level: Band| {
            let ladder = self.ladder(level);
            ladder[self.step[level as usize].min(ladder.len() - 1)].cloned()
        };
        let mut picks = at(level)?;
        if level == Band::Middle {
            picks = picks.union(&self.units, &at(Band::Terse)?);
        }
        let text = picks.text(&self.units);
        (picks.is_empty()
            || mcp_tailor_inspect::count_tokens(&text)
                < mcp_tailor_inspect::count_tokens(&self.own))
        .then_some(text)
    }

    /// Steps `level` one wording up its ladder; whether there was one.
    pub(crate) fn step_up(&mut self, level: Band) -> bool {
        let top = self.ladder(level).len() - 1;
        let step = &mut self.step[level as usize];
        let up = *step < top;
        *step = (*step + 1).min(top);
        up
    }
}
