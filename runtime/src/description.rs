//! Tailored descriptions as lookup tables (built in place by `description!`, decoded from a
//! tool's packed constant for `#[mcp_tool]`), and their allocation-free resolution.

use crate::ctx::RenderCtx;

/// The slot value meaning "no text": always past the end of a pool (pools hold at most
/// 255 texts), so `texts.get(NONE)` is `None` without a branch of its own.
const NONE: u8 = u8::MAX;

/// What a tool's description, title or field description becomes: absent, a bare string,
/// or a table of variants chosen by a [`RenderCtx`].
///
/// Built by [`description!`](crate::description!) (usable in a `static`) and decoded from
/// `#[mcp_tool]`'s tables.
///
/// ```
/// use mcp_tailor::{Description, RenderCtx, description};
/// static GUIDE: Description = description!(
///     description = [(verbosity(0), "Notes."), (verbosity(9), "A notes server: create, search, tag.")],
///     descriptions = [short = "Notes (codex)."],
///     runners = [((codex, _), [default = short])],
/// );
/// assert_eq!(GUIDE.resolve(&RenderCtx::new().verbosity(1)), Some("Notes."));
/// assert_eq!(GUIDE.resolve(&RenderCtx::new().verbosity(8)), Some("A notes server: create, search, tag."));
/// assert_eq!(GUIDE.resolve(&RenderCtx::new().runner("codex")), Some("Notes (codex)."));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Description {
    repr: Repr,
}

#[derive(Clone, Copy, Debug)]
enum Repr {
    Absent,
    Bare(&'static str),
    Tailored(&'static Tailored),
}

/// The tables of a tailored description, as `description!` emits them and a tool's packed
/// table decodes into. Not a stable API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Tailored {
    /// The distinct texts this description can answer with (at most 255).
    pub texts: &'static [&'static str],
    /// Tiers 4–6 (vmap, levels, default) collapsed into one gap-filled slot per level.
    pub base: &'static [u8; 10],
    /// Runner rules, most specific first.
    pub rules: &'static [Rule],
    /// The description's own `default_verbosity`.
    pub default_verbosity: Option<u8>,
    /// The definitive text's slot.
    pub definitive: u8,
}

/// One runner rule, as the macros emit it. Not a stable API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Rule {
    /// `None` matches any runner, including none.
    pub runner: Option<&'static str>,
    /// The model matcher.
    pub model: ModelMatch,
    /// The rule's answer per level; `NONE` falls through to the base tier.
    pub slots: &'static [u8; 10],
}

/// A runner rule's model matcher. Not a stable API.
#[doc(hidden)]
#[derive(Debug)]
pub enum ModelMatch {
    /// `_`: any model, including none.
    Any,
    /// Exactly this model.
    Exact(&'static str),
    /// Any model of the list.
    List(&'static [&'static str]),
}

impl Rule {
    #[inline]
    fn matches(&self, runner: Option<&str>, model: Option<&str>) -> bool {
        let runner = match self.runner {
            None => true,
            Some(p) => runner == Some(p),
        };
        runner
            && match self.model {
                ModelMatch::Any => true,
                ModelMatch::Exact(m) => model == Some(m),
                ModelMatch::List(list) => model.is_some_and(|m| list.contains(&m)),
            }
    }
}

impl Tailored {
    #[inline]
    fn resolve(&self, ctx: &RenderCtx<'_>) -> Option<&'static str> {
        let level = usize::from(ctx.effective_level(self.default_verbosity));
        let mut slot = self.base[level];
        let (runner, model) = (ctx.runner_name(), ctx.model_name());
        // The most specific matching rule decides; the next-best rule is never tried.
        if let Some(rule) = self.rules.iter().find(|r| r.matches(runner, model))
            && rule.slots[level] != NONE
        {
            slot = rule.slots[level];
        }
        self.texts.get(usize::from(slot)).copied()
    }
}

impl Description {
    /// A description that resolves to nothing.
    pub const ABSENT: Description = Description { repr: Repr::Absent };

    /// A bare description: the same text for every context.
    pub const fn bare(text: &'static str) -> Description {
        Description {
            repr: Repr::Bare(text),
        }
    }

    /// A tailored description over the tables an expansion emitted.
    pub(crate) const fn from_tables(tables: &'static Tailored) -> Description {
        Description {
            repr: Repr::Tailored(tables),
        }
    }

    /// The text for this context, or `None`. Allocation-free: an index and a few string
    /// compares over tables the macro finished at compile time.
    #[inline]
    pub fn resolve(&self, ctx: &RenderCtx<'_>) -> Option<&'static str> {
        match self.repr {
            Repr::Absent => None,
            Repr::Bare(text) => Some(text),
            Repr::Tailored(tables) => tables.resolve(ctx),
        }
    }

    /// The definitive text: a bare description's text, or a list's `default = …`.
    ///
    /// A list's `default` is never *resolved* while the list has level entries (gap-fill
    /// answers every level), yet it remains the description's definitive wording — for
    /// documentation, for a catalog's reference view, and for the demo's `matrix`.
    pub fn definitive(&self) -> Option<&'static str> {
        match self.repr {
            Repr::Absent => None,
            Repr::Bare(text) => Some(text),
            Repr::Tailored(tables) => tables.texts.get(usize::from(tables.definitive)).copied(),
        }
    }

    /// Whether this description resolves to nothing for every context.
    pub const fn is_absent(&self) -> bool {
        matches!(self.repr, Repr::Absent)
    }

    /// Whether the text can depend on the context (a table of variants).
    pub const fn is_tailored(&self) -> bool {
        matches!(self.repr, Repr::Tailored(_))
    }

    /// The bytes of the tables behind this description, texts excluded: the table
    /// struct, its text pool, its runner rules and their model lists. Zero for an absent or
    /// bare description (the text itself is all there is).
    pub fn table_bytes(&self) -> usize {
        use std::mem::{size_of, size_of_val};
        let Repr::Tailored(tables) = self.repr else {
            return 0;
        };
        let models: usize = tables
            .rules
            .iter()
            .map(|r| match r.model {
                ModelMatch::List(list) => size_of_val(list),
                _ => 0,
            })
            .sum();
        size_of::<Tailored>() + size_of_val(tables.texts) + size_of_val(tables.rules) + models
    }

    /// Every runner named by a rule of this description (`_` names none), in rule order.
    pub fn runners(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.rules().iter().filter_map(|r| r.runner)
    }

    /// Every model named by a rule of this description, exactly or in a list.
    pub fn models(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.rules()
            .iter()
            .flat_map(|r| match &r.model {
                ModelMatch::Any => &[][..],
                ModelMatch::Exact(m) => std::slice::from_ref(m),
                ModelMatch::List(list) => list,
            })
            .copied()
    }

    fn rules(&self) -> &'static [Rule] {
        match self.repr {
            Repr::Tailored(tables) => tables.rules,
            _ => &[],
        }
    }

    /// Every distinct text this description can resolve to (empty when absent).
    pub fn texts(&self) -> &[&'static str] {
        match &self.repr {
            Repr::Absent => &[],
            Repr::Bare(text) => std::slice::from_ref(text),
            Repr::Tailored(tables) => tables.texts,
        }
    }
}
