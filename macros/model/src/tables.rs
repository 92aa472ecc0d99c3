//! Pure table building: level expansion, gap-fill into 10 slots, the tier collapse, and
//! runner ordering by specificity. The input is plain data and every function is
//! unit-tested over all ten levels.
//!
//! A "handle" `T` stands for one text: the macro's expansion maps handles to pooled
//! `&'static str`s, the runtime's file loader to owned strings.

/// The number of verbosity levels (0..=9).
pub const LEVELS: usize = 10;

/// A set of levels, bit `n` for level `n`.
pub type Mask = u16;

/// The mask of the levels `lo..=hi` (both already within 0..=9).
pub fn range_mask(lo: u8, hi: u8) -> Mask {
    (lo..=hi).fold(0, |mask, level| mask | 1 << level)
}

/// The covered level closest to `level`: an exact entry wins, then the smallest absolute
/// distance, then (on a tie) the lower level. `None` when nothing is covered.
pub fn nearest(covered: Mask, level: usize) -> Option<usize> {
    (0..LEVELS)
        .filter(|l| covered & (1 << l) != 0)
        .min_by_key(|&l| (l.abs_diff(level), l))
}

/// Gap-fills entries (each a mask of levels and a handle; masks do not overlap) into ten
/// slots. `None` when there are no entries, since an empty table answers nothing.
pub fn gap_fill<T: Copy>(entries: &[(Mask, T)]) -> Option<[T; LEVELS]> {
    let covered = entries.iter().fold(0, |mask, (m, _)| mask | m);
    let owner = |level: usize| {
        entries
            .iter()
            .find(|(m, _)| m & (1 << level) != 0)
            .map(|e| e.1)
    };
    let first = owner(nearest(covered, 0)?)?;
    let mut slots = [first; LEVELS];
    for (level, slot) in slots.iter_mut().enumerate() {
        if let Some(handle) = nearest(covered, level).and_then(owner) {
            *slot = handle;
        }
    }
    Some(slots)
}

/// A runner's model matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelMatch {
    /// `_`: any model, including none.
    Any,
    /// An exact model name.
    Exact(String),
    /// Membership in a list of names.
    List(Vec<String>),
}

/// A runner rule as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule<T> {
    /// `None` for `_`.
    pub runner: Option<String>,
    /// The model matcher.
    pub model: ModelMatch,
    /// The rule's level entries: a mask each (masks do not overlap) and its text.
    pub levels: Vec<(Mask, T)>,
    /// The rule's `default = tag`.
    pub default: Option<T>,
}

/// Everything one description declares, tags already turned into handles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<T> {
    /// The description list's level entries.
    pub levels: Vec<(Mask, T)>,
    /// The `verbosity_map`, tags already turned into their texts.
    pub vmap: Vec<(Mask, T)>,
    /// The bare text, or the list's `default`.
    pub default: Option<T>,
    /// The list's `default_verbosity`.
    pub default_verbosity: Option<u8>,
    /// The runner rules, in declaration order.
    pub rules: Vec<Rule<T>>,
    /// No gap-fill: a level no tier covers has no text (see [`DescSpec::overlay`]).
    ///
    /// [`DescSpec::overlay`]: crate::ast::DescSpec::overlay
    pub overlay: bool,
    /// The handle that says nothing (the key left out), if the site uses one.
    pub nothing: Option<T>,
}

impl<T> Default for Plan<T> {
    fn default() -> Self {
        Plan {
            levels: Vec::new(),
            vmap: Vec::new(),
            default: None,
            default_verbosity: None,
            rules: Vec::new(),
            overlay: false,
            nothing: None,
        }
    }
}

/// A runner rule ready for lookup: its ten slots (`None`: fall to the next tier).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleTable<T> {
    /// `None` for `_`.
    pub runner: Option<String>,
    /// The model matcher.
    pub model: ModelMatch,
    /// The rule's text per level.
    pub slots: [Option<T>; LEVELS],
}

/// The finished tables of one description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<T> {
    /// Tiers 4–6 collapsed: a non-empty vmap answers every level, else non-empty levels do,
    /// else the default (or nothing).
    pub base: [Option<T>; LEVELS],
    /// Runner rules, most specific first (ties keep declaration order).
    pub rules: Vec<RuleTable<T>>,
    /// The description's own `default_verbosity`.
    pub default_verbosity: Option<u8>,
    /// The definitive text (the list's `default`).
    pub definitive: Option<T>,
    /// The handle that says nothing: never pooled, its slots [`SILENT`].
    pub nothing: Option<T>,
}

/// What a description amounts to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape<T> {
    /// Resolves to nothing for every context.
    Absent,
    /// The same text for every context.
    Bare(T),
    /// Context-dependent.
    Tailored(Table<T>),
}

/// `(model score, runner score)`: exact model 2 > list 1 > any 0; exact runner 1 > any 0.
pub fn specificity<T>(rule: &Rule<T>) -> (u8, u8) {
    let model = match rule.model {
        ModelMatch::Exact(_) => 2,
        ModelMatch::List(_) => 1,
        ModelMatch::Any => 0,
    };
    (model, u8::from(rule.runner.is_some()))
}

/// The order resolution tries rules in: indices, most specific first, declaration order
/// among equals (a stable sort).
pub fn rank<T>(rules: &[Rule<T>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rules.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(specificity(&rules[i])));
    order
}

/// Whether rule `a` matches every reader (runner and model) that rule `b` matches.
pub fn covers<T>(a: &Rule<T>, b: &Rule<T>) -> bool {
    let runner = a.runner.is_none() || a.runner == b.runner;
    let model = match (&a.model, &b.model) {
        (ModelMatch::Any, _) => true,
        (_, ModelMatch::Any) => false,
        (ModelMatch::Exact(x), ModelMatch::Exact(y)) => x == y,
        (ModelMatch::Exact(x), ModelMatch::List(ys)) => ys.iter().all(|y| y == x),
        (ModelMatch::List(xs), ModelMatch::Exact(y)) => xs.contains(y),
        (ModelMatch::List(xs), ModelMatch::List(ys)) => ys.iter().all(|y| xs.contains(y)),
    };
    runner && model
}

/// The levels `entries` cover, as one mask.
pub fn covered<T>(entries: &[(Mask, T)]) -> Mask {
    entries.iter().fold(0, |mask, (m, _)| mask | m)
}

/// The mask of all ten levels.
pub const ALL_LEVELS: Mask = (1 << LEVELS) - 1;

/// An overlay's slots: each level's own entry, else `default`, else nothing — no gap-fill.
fn overlay_slots<T: Copy>(tiers: &[&[(Mask, T)]], default: Option<T>) -> [Option<T>; LEVELS] {
    std::array::from_fn(|level| {
        tiers
            .iter()
            .find_map(|entries| entries.iter().find(|(m, _)| m & (1 << level) != 0))
            .map(|e| e.1)
            .or(default)
    })
}

/// Builds the lookup tables of a plan.
pub fn build<T: Copy + PartialEq>(plan: Plan<T>) -> Shape<T> {
    let overlay = plan.overlay;
    let base = if overlay {
        // Per level, the map's entry, else the level entry, else the default.
        overlay_slots(&[&plan.vmap, &plan.levels], plan.default)
    } else {
        gap_fill(&plan.vmap)
            .or_else(|| gap_fill(&plan.levels))
            .map(|slots| slots.map(Some))
            .unwrap_or([plan.default; LEVELS])
    };
    let order = rank(&plan.rules);
    let mut planned: Vec<_> = plan.rules.into_iter().map(Some).collect();
    let rules: Vec<_> = order
        .into_iter()
        .filter_map(|i| planned[i].take())
        .map(|rule| RuleTable {
            slots: if overlay {
                overlay_slots(&[&rule.levels], rule.default)
            } else {
                gap_fill(&rule.levels)
                    .map(|slots| slots.map(Some))
                    .unwrap_or([rule.default; LEVELS])
            },
            runner: rule.runner,
            model: rule.model,
        })
        .collect();
    if rules.is_empty() {
        if base.iter().all(Option::is_none) {
            return Shape::Absent;
        }
        // Saying nothing everywhere is a table of silent slots, not a bare text.
        if let Some(text) = base[0]
            .filter(|t| plan.nothing != Some(*t))
            .filter(|t| base.iter().all(|b| *b == Some(*t)))
            && plan.default.is_none_or(|d| d == text)
        {
            return Shape::Bare(text);
        }
    }
    Shape::Tailored(Table {
        base,
        rules,
        default_verbosity: plan.default_verbosity,
        definitive: plan.default,
        nothing: plan.nothing,
    })
}

/// The slot byte that says nothing: the key is left out. Past the end of every pool (pools
/// hold at most 254 texts), like [`NO_TEXT`].
pub const SILENT: u8 = u8::MAX - 1;

/// The slot byte of no text: a lower tier answers, or (an overlay) the tool's own words.
pub const NO_TEXT: u8 = u8::MAX;

/// The handles a table can answer with, in first-use order (base, rules, definitive): the
/// text pool. Unreferenced variants are left out, so they cost no bytes; so is the handle
/// that says nothing.
pub fn pool<T: Copy + PartialEq>(table: &Table<T>) -> Vec<T> {
    let mut used = Vec::new();
    let all = table
        .base
        .iter()
        .chain(table.rules.iter().flat_map(|r| r.slots.iter()))
        .chain(std::iter::once(&table.definitive))
        .flatten();
    for handle in all {
        if table.nothing != Some(*handle) && !used.contains(handle) {
            used.push(*handle);
        }
    }
    used
}

/// The byte of each slot of `table`: the handle's index in `pool`, [`SILENT`] for the
/// handle that says nothing, or [`NO_TEXT`].
pub fn slot_bytes<T: Copy + PartialEq>(
    table: &Table<T>,
    pool: &[T],
    slots: &[Option<T>],
) -> Vec<u8> {
    slots
        .iter()
        .map(|handle| match handle {
            Some(h) if table.nothing == Some(*h) => SILENT,
            Some(h) => pool
                .iter()
                .position(|p| p == h)
                .and_then(|i| u8::try_from(i).ok())
                .unwrap_or(NO_TEXT),
            None => NO_TEXT,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(levels: &[u8]) -> Mask {
        levels.iter().fold(0, |m, l| m | 1 << l)
    }

    fn plan(levels: Vec<(Mask, u8)>) -> Plan<u8> {
        Plan {
            levels,
            ..Plan::default()
        }
    }

    #[test]
    fn range_mask_covers_inclusive_bounds() {
        assert_eq!(range_mask(0, 9), 0b11_1111_1111);
        assert_eq!(range_mask(3, 3), mask(&[3]));
        assert_eq!(range_mask(2, 4), mask(&[2, 3, 4]));
    }

    #[test]
    fn nearest_prefers_exact_then_distance_then_lower() {
        let covered = mask(&[3, 9]);
        let expected = [3, 3, 3, 3, 3, 3, 3, 9, 9, 9];
        for (level, want) in expected.iter().enumerate() {
            assert_eq!(nearest(covered, level), Some(*want), "level {level}");
        }
        assert_eq!(nearest(0, 4), None);
    }

    #[test]
    fn gap_fill_every_level_of_every_single_entry() {
        for covered in 0..LEVELS as u8 {
            let slots = gap_fill(&[(mask(&[covered]), covered)]).unwrap();
            assert_eq!(slots, [covered; LEVELS]);
        }
    }

    #[test]
    fn gap_fill_ties_go_low() {
        let slots = gap_fill(&[(mask(&[0]), 0u8), (mask(&[5]), 5), (mask(&[9]), 9)]).unwrap();
        assert_eq!(slots, [0, 0, 0, 5, 5, 5, 5, 5, 9, 9]);
        let slots = gap_fill(&[(mask(&[2, 3]), 1u8), (mask(&[0]), 0)]).unwrap();
        assert_eq!(slots, [0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn gap_fill_against_brute_force_for_all_pairs_of_levels() {
        for a in 0..LEVELS {
            for b in (a + 1)..LEVELS {
                let slots = gap_fill(&[(1 << a, a), (1 << b, b)]).unwrap();
                for (level, got) in slots.iter().enumerate() {
                    let (da, db) = (level.abs_diff(a), level.abs_diff(b));
                    let want = if da <= db { a } else { b };
                    assert_eq!(*got, want, "entries {a},{b} level {level}");
                }
            }
        }
    }

    #[test]
    fn gap_fill_of_nothing_is_none() {
        assert_eq!(gap_fill::<u8>(&[]), None);
    }

    #[test]
    fn vmap_shadows_levels_and_levels_shadow_default() {
        let shape = build(Plan {
            levels: vec![(mask(&[9]), 1u8)],
            vmap: vec![(range_mask(0, 4), 2)],
            default: Some(3),
            ..Plan::default()
        });
        let Shape::Tailored(table) = shape else {
            panic!("{shape:?}")
        };
        assert_eq!(table.base, [Some(2); LEVELS]);
        assert_eq!(table.definitive, Some(3));

        let Shape::Tailored(table) = build(Plan {
            levels: vec![(mask(&[0]), 1u8)],
            default: Some(3),
            ..Plan::default()
        }) else {
            panic!()
        };
        assert_eq!(table.base, [Some(1); LEVELS]);
    }

    #[test]
    fn rules_are_ordered_by_model_then_runner_and_stable() {
        let rule = |runner: Option<&str>, model: ModelMatch, default: u8| Rule {
            runner: runner.map(str::to_owned),
            model,
            levels: vec![],
            default: Some(default),
        };
        let exact = || ModelMatch::Exact("5.4".into());
        let list = || ModelMatch::List(vec!["x".into()]);
        let Shape::Tailored(table) = build(Plan {
            rules: vec![
                rule(None, ModelMatch::Any, 0),
                rule(Some("codex"), ModelMatch::Any, 1),
                rule(None, exact(), 2),
                rule(Some("codex"), exact(), 3),
                rule(None, list(), 4),
                rule(Some("codex"), list(), 5),
                rule(Some("codex"), ModelMatch::Any, 6),
            ],
            ..Plan::default()
        }) else {
            panic!()
        };
        let order: Vec<_> = table.rules.iter().map(|r| r.slots[0].unwrap()).collect();
        assert_eq!(order, [3, 2, 5, 4, 1, 6, 0]);
    }

    #[test]
    fn rule_with_levels_ignores_its_default() {
        let Shape::Tailored(table) = build(Plan {
            rules: vec![Rule {
                runner: Some("codex".into()),
                model: ModelMatch::Any,
                levels: vec![(mask(&[0]), 1u8)],
                default: Some(2),
            }],
            ..Plan::default()
        }) else {
            panic!()
        };
        assert_eq!(table.rules[0].slots, [Some(1); LEVELS]);
        assert_eq!(table.base, [None; LEVELS]);
    }

    #[test]
    fn shapes() {
        assert_eq!(build::<u8>(Plan::default()), Shape::Absent);
        assert_eq!(
            build(Plan {
                default: Some(1u8),
                default_verbosity: Some(3),
                ..Plan::default()
            }),
            Shape::Bare(1)
        );
        // Two level entries with the same text are still one text everywhere.
        assert_eq!(
            build(plan(vec![(mask(&[0]), 4), (mask(&[9]), 4)])),
            Shape::Bare(4)
        );
        assert!(matches!(
            build(plan(vec![(mask(&[0]), 4), (mask(&[9]), 5)])),
            Shape::Tailored(_)
        ));
        // A definitive text that differs from what every level says stays observable.
        assert!(matches!(
            build(Plan {
                levels: vec![(mask(&[0]), 1u8)],
                default: Some(2),
                ..Plan::default()
            }),
            Shape::Tailored(_)
        ));
    }

    #[test]
    fn pool_keeps_first_use_order_and_drops_duplicates() {
        let Shape::Tailored(table) = build(Plan {
            levels: vec![(mask(&[0]), 7u8), (mask(&[9]), 3)],
            default: Some(5),
            rules: vec![Rule {
                runner: None,
                model: ModelMatch::Any,
                levels: vec![],
                default: Some(3),
            }],
            ..Plan::default()
        }) else {
            panic!()
        };
        assert_eq!(pool(&table), vec![7, 3, 5]);
    }
}
