//! A level's text as the units it picks ([`Picks`]), read in the server's order
//! ([`compose`]); and whether a text is such a reading ([`faithful`]).

use super::unit::{Kind, Unit};

/// How a picked unit is read: whole, or without the asides that state no rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    /// Without the asides that state no rule.
    Lean,
    /// As the server wrote it.
    Whole,
}

/// A level's text as the units it keeps: each unit's index and form, in the server's
/// order. Empty says nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picks(Vec<(usize, Form)>);

impl Picks {
    /// The picks of `units` at `at` (and what each needs), each in `form`.
    pub fn of(units: &[Unit], at: impl IntoIterator<Item = usize>, form: Form) -> Picks {
        let mut picks = Picks::default();
        for unit in at {
            picks.add(units, unit, form);
        }
        picks
    }

    /// Adds unit `at` in `form` (a unit picked twice is read in its larger form), with the
    /// units it needs, each whole where it is.
    pub fn add(&mut self, units: &[Unit], at: usize, form: Form) {
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
    pub fn union(&self, units: &[Unit], other: &Picks) -> Picks {
        let mut out = self.clone();
        for &(at, form) in &other.0 {
            out.add(units, at, form);
        }
        out
    }

    /// With every rule of `units`, where it says anything: a rule is the last thing a
    /// level drops.
    pub fn with_rules(mut self, units: &[Unit]) -> Picks {
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
    pub fn holds(&self, at: usize) -> bool {
        self.0.iter().any(|&(u, _)| u == at)
    }

    /// The units it picks, in order.
    pub fn units(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|&(at, _)| at)
    }

    /// Whether it says nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What it reads beyond the rules and what they need: the part a level's budget
    /// holds.
    pub fn beyond_rules(&self, units: &[Unit]) -> String {
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
    pub fn text(&self, units: &[Unit]) -> String {
        compose(units, &self.0)
    }
}

/// Which of `units` are rules, or what a rule needs (and what that needs, in turn).
pub fn ruled(units: &[Unit]) -> Vec<bool> {
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
pub fn compose(units: &[Unit], picks: &[(usize, Form)]) -> String {
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
pub fn faithful(units: &[Unit], text: &str) -> Option<Vec<usize>> {
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
