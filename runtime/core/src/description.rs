//! Tailored descriptions as lookup tables (built in place by `description!`, decoded from a
//! tool's packed constant for `#[mcp_tool]`), and their allocation-free resolution.

use crate::ctx::RenderCtx;
use std::borrow::Cow;
use std::sync::Arc;

/// The slot value meaning "no text": always past the end of a pool (pools hold at most
/// 254 texts), so `texts.get(NONE)` is `None` without a branch of its own. In a tailoring
/// file's overlay, the tool's own words answer there.
const NONE: u8 = u8::MAX;

/// The slot value that says nothing (the DSL's `None`, a file's `false`): past the end of a
/// pool too, so it resolves to `None` like [`NONE`]; only [`Description::lookup`] tells
/// them apart.
const SILENT: u8 = u8::MAX - 1;

/// What a description answers for one context, told apart for an overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
pub enum Found<'a> {
    /// A text.
    Text(&'a str),
    /// Nothing, on purpose: the key is left out.
    Nothing,
    /// No text here: in an overlay, the tool's own words.
    Uncovered,
}

#[cfg(feature = "rmcp")]
impl Found<'_> {
    /// Applies this answer to `slot` (a tool's title or description): a text replaces it,
    /// nothing removes it, no text leaves it as it is.
    pub fn apply<T>(self, slot: &mut Option<T>, make: impl FnOnce(&str) -> T) {
        match self {
            Found::Text(text) => *slot = Some(make(text)),
            Found::Nothing => *slot = None,
            Found::Uncovered => {}
        }
    }
}

/// What a tool's description, title or field description becomes: absent, a bare string,
/// or a table of variants chosen by a [`RenderCtx`].
///
/// Built by `description!` (usable in a `static`) and decoded from
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
#[derive(Clone, Debug)]
pub struct Description {
    repr: Repr,
}

#[derive(Clone, Debug)]
enum Repr {
    Absent,
    Bare(Str),
    /// Tables a macro finished at compile time (or decoded once from a tool's constant).
    Tailored(&'static Tailored),
    /// Tables built at run time (a tailoring file), shared by every clone.
    #[cfg_attr(not(feature = "tailoring"), allow(dead_code))]
    Shared(Arc<Tailored>),
}

/// A text of a table: borrowed from the binary, or owned when built at run time.
type Str = Cow<'static, str>;

/// A list of a table: borrowed from the binary, or owned when built at run time.
type List<T> = Cow<'static, [T]>;

/// The tables of a tailored description, as `description!` emits them, a tool's packed
/// table decodes into, and a tailoring file builds: borrowed or owned, one resolution. Not
/// a stable API.
#[doc(hidden)]
#[derive(Debug)]
pub struct Tailored {
    /// The distinct texts this description can answer with (at most 255).
    pub texts: List<Str>,
    /// Tiers 4–6 (vmap, levels, default) collapsed into one gap-filled slot per level.
    pub base: [u8; 10],
    /// Runner rules, most specific first.
    pub rules: List<CompiledRule>,
    /// The description's own `default_verbosity`.
    pub default_verbosity: Option<u8>,
    /// The definitive text's slot.
    pub definitive: u8,
}

/// One runner rule, as the macros emit it. Not a stable API.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct CompiledRule {
    /// `None` matches any runner, including none.
    pub runner: Option<Str>,
    /// The model matcher.
    pub model: CompiledModelMatch,
    /// The rule's answer per level; `NONE` falls through to the base tier.
    pub slots: [u8; 10],
}

/// A runner rule's model matcher. Not a stable API.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub enum CompiledModelMatch {
    /// `_`: any model, including none.
    Any,
    /// Exactly this model.
    Exact(Str),
    /// Any model of the list.
    List(List<Str>),
}

impl CompiledRule {
    #[inline]
    fn matches(&self, runner: Option<&str>, model: Option<&str>) -> bool {
        let runner = match &self.runner {
            None => true,
            Some(p) => runner == Some(&**p),
        };
        runner
            && match &self.model {
                CompiledModelMatch::Any => true,
                CompiledModelMatch::Exact(m) => model == Some(&**m),
                CompiledModelMatch::List(list) => {
                    model.is_some_and(|m| list.iter().any(|l| l == m))
                }
            }
    }
}

impl Tailored {
    #[inline]
    fn resolve(&self, ctx: &RenderCtx<'_>) -> Option<&str> {
        self.text(self.slot(ctx))
    }

    #[inline]
    fn text(&self, slot: u8) -> Option<&str> {
        self.texts.get(usize::from(slot)).map(|text| &**text)
    }

    /// The slot this context reads: the most specific matching rule's, where it has one
    /// (the next-best rule is never tried), else the base tier's.
    #[inline]
    fn slot(&self, ctx: &RenderCtx<'_>) -> u8 {
        let level = usize::from(ctx.effective_level(self.default_verbosity));
        let (runner, model) = (ctx.runner_name(), ctx.model_name());
        match self.rules.iter().find(|r| r.matches(runner, model)) {
            Some(rule) if rule.slots[level] != NONE => rule.slots[level],
            _ => self.base[level],
        }
    }
}

impl Description {
    /// A description that resolves to nothing.
    pub const ABSENT: Description = Description { repr: Repr::Absent };

    /// A bare description: the same text for every context.
    pub const fn bare(text: &'static str) -> Description {
        Description {
            repr: Repr::Bare(Cow::Borrowed(text)),
        }
    }

    /// A bare description of a text built at run time.
    #[cfg_attr(not(feature = "tailoring"), allow(dead_code))]
    #[doc(hidden)]
    pub fn bare_owned(text: String) -> Description {
        Description {
            repr: Repr::Bare(Cow::Owned(text)),
        }
    }

    /// A tailored description over the tables an expansion emitted.
    pub(crate) const fn from_tables(tables: &'static Tailored) -> Description {
        Description {
            repr: Repr::Tailored(tables),
        }
    }

    /// A tailored description over tables built at run time.
    #[cfg_attr(not(feature = "tailoring"), allow(dead_code))]
    pub(crate) fn shared(tables: Tailored) -> Description {
        Description {
            repr: Repr::Shared(Arc::new(tables)),
        }
    }

    /// This description (a tailoring file's overlay) over a tool's own text `own`: the same
    /// answer wherever this one has a text, `own` wherever it has none — what a served tool
    /// reads, as one description (for `inspect`). A table already holding 255 texts keeps
    /// its gaps.
    #[cfg(feature = "inspect")]
    pub fn over(&self, own: Option<&str>) -> Description {
        let Some(own) = own else {
            return self.clone();
        };
        let Some(tables) = self.tables() else {
            return match self.repr {
                Repr::Absent => Description::bare_owned(own.to_owned()),
                _ => self.clone(),
            };
        };
        let slot = match u8::try_from(tables.texts.len()) {
            Ok(slot) if slot < NONE => slot,
            _ => return self.clone(),
        };
        let mut texts = tables.texts.to_vec();
        texts.push(Cow::Owned(own.to_owned()));
        let base = tables.base.map(|s| if s == NONE { slot } else { s });
        Description::shared(Tailored {
            texts: Cow::Owned(texts),
            base,
            rules: tables.rules.clone(),
            default_verbosity: tables.default_verbosity,
            definitive: tables.definitive,
        })
    }

    /// The tables, however they are held.
    #[inline]
    fn tables(&self) -> Option<&Tailored> {
        match &self.repr {
            Repr::Tailored(tables) => Some(tables),
            Repr::Shared(tables) => Some(tables),
            Repr::Absent | Repr::Bare(_) => None,
        }
    }

    /// The text for this context, or `None`. Allocation-free: an index and a few string
    /// compares over finished tables, whether the macro finished them at compile time or a
    /// tailoring file at run time.
    #[inline]
    pub fn resolve(&self, ctx: &RenderCtx<'_>) -> Option<&str> {
        match &self.repr {
            Repr::Absent => None,
            Repr::Bare(text) => Some(text),
            Repr::Tailored(tables) => tables.resolve(ctx),
            Repr::Shared(tables) => tables.resolve(ctx),
        }
    }

    /// What this description answers for `ctx`, telling a text, nothing on purpose and no
    /// text apart (an overlay's uncovered levels read the tool's own words).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    #[doc(hidden)]
    pub fn lookup(&self, ctx: &RenderCtx<'_>) -> Found<'_> {
        let tables: &Tailored = match &self.repr {
            Repr::Absent => return Found::Uncovered,
            Repr::Bare(text) => return Found::Text(text),
            Repr::Tailored(tables) => tables,
            Repr::Shared(tables) => tables,
        };
        match tables.slot(ctx) {
            SILENT => Found::Nothing,
            slot => tables.text(slot).map_or(Found::Uncovered, Found::Text),
        }
    }

    /// The text for this context as rmcp's `Tool` holds it: borrowed from tables the
    /// binary holds (no allocation), a copy of a run-time table's text.
    pub fn resolve_cow(&self, ctx: &RenderCtx<'_>) -> Option<Cow<'static, str>> {
        match &self.repr {
            Repr::Absent => None,
            Repr::Bare(text) => Some(text.clone()),
            Repr::Tailored(tables) => tables.resolve(ctx).map(Cow::Borrowed),
            Repr::Shared(tables) => tables.resolve(ctx).map(|text| Cow::Owned(text.to_owned())),
        }
    }

    /// The definitive text: a bare description's text, or a list's `default = …`.
    ///
    /// A list's `default` is never *resolved* while the list has level entries (gap-fill
    /// answers every level), yet it remains the description's definitive wording — for
    /// documentation, for a catalog's reference view, and for the demo's `matrix`.
    pub fn definitive(&self) -> Option<&str> {
        match &self.repr {
            Repr::Bare(text) => Some(text),
            _ => self.tables().and_then(|t| t.text(t.definitive)),
        }
    }

    /// Whether this description resolves to nothing for every context.
    pub const fn is_absent(&self) -> bool {
        matches!(self.repr, Repr::Absent)
    }

    /// Whether the text can depend on the context (a table of variants).
    pub const fn is_tailored(&self) -> bool {
        matches!(self.repr, Repr::Tailored(_) | Repr::Shared(_))
    }

    /// The bytes of the tables behind this description, texts excluded: the table
    /// struct, its text pool, its runner rules and their model lists. Zero for an absent or
    /// bare description (the text itself is all there is).
    pub fn table_bytes(&self) -> usize {
        use std::mem::{size_of, size_of_val};
        let Some(tables) = self.tables() else {
            return 0;
        };
        let models: usize = tables
            .rules
            .iter()
            .map(|r| match &r.model {
                CompiledModelMatch::List(list) => size_of_val(&**list),
                _ => 0,
            })
            .sum();
        size_of::<Tailored>() + size_of_val(&*tables.texts) + size_of_val(&*tables.rules) + models
    }

    /// Every runner named by a rule of this description (`_` names none), in rule order.
    pub fn runners(&self) -> impl Iterator<Item = &str> + '_ {
        self.rules().iter().filter_map(|r| r.runner.as_deref())
    }

    /// Every model named by a rule of this description, exactly or in a list.
    pub fn models(&self) -> impl Iterator<Item = &str> + '_ {
        self.rules()
            .iter()
            .flat_map(|r| match &r.model {
                CompiledModelMatch::Any => &[][..],
                CompiledModelMatch::Exact(m) => std::slice::from_ref(m),
                CompiledModelMatch::List(list) => list,
            })
            .map(|m| &**m)
    }

    fn rules(&self) -> &[CompiledRule] {
        self.tables().map_or(&[], |t| &t.rules)
    }

    /// Every distinct text this description can resolve to (empty when absent).
    pub fn texts(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        let texts = match &self.repr {
            Repr::Absent => &[][..],
            Repr::Bare(text) => std::slice::from_ref(text),
            _ => self.tables().map_or(&[][..], |t| &t.texts),
        };
        texts.iter().map(|text| &**text)
    }
}
