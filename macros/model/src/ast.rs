//! The parsed model of one description site, as either front end reads it. Every piece keeps
//! the location it was written at, so validation can point at the offending part.

/// What a front end's model is made of: where things were written, and what a text is.
pub trait Front {
    /// A location: the macro's tokens, a file's `LINE:COL`.
    type Loc: Clone;
    /// A text as written: for the macro a literal or a `&'static str` expression, for a file
    /// a string.
    type Text: Clone;
    /// The text's value when it is known now (a literal), so equal texts share one slot.
    fn literal(text: &Self::Text) -> Option<&str>;
    /// Where the text was written.
    fn text_loc(text: &Self::Text) -> Self::Loc;
    /// Whether the text says nothing (the DSL's `None`, a file's `false`): where it
    /// answers, the key is left out.
    fn is_nothing(_text: &Self::Text) -> bool {
        false
    }
}

/// A verbosity level as written (not yet checked against 0..=9).
#[derive(Clone)]
pub struct Level<F: Front> {
    /// The value as written, which may be out of range.
    pub value: i128,
    /// Where (all of it: `-1`, not just `-`).
    pub loc: F::Loc,
}

/// A level spec `S`: `N`, `LO..=HI` or `[A, B, …]`.
#[derive(Clone)]
pub enum LevelSpec<F: Front> {
    /// One level.
    One(Level<F>),
    /// An inclusive range.
    Range {
        /// The lower bound as written.
        lo: Level<F>,
        /// The upper bound as written.
        hi: Level<F>,
        /// The whole range.
        loc: F::Loc,
    },
    /// A set of levels.
    Set {
        /// The members as written.
        members: Vec<Level<F>>,
        /// The whole set.
        loc: F::Loc,
    },
}

impl<F: Front> LevelSpec<F> {
    /// Where the spec was written.
    pub fn loc(&self) -> &F::Loc {
        match self {
            LevelSpec::One(level) => &level.loc,
            LevelSpec::Range { loc, .. } | LevelSpec::Set { loc, .. } => loc,
        }
    }
}

/// A variant tag, normalised to its string.
#[derive(Clone)]
pub struct Tag<F: Front> {
    /// The tag's name.
    pub name: String,
    /// Where it was written.
    pub loc: F::Loc,
}

/// A description list: level entries, `default` and `default_verbosity`.
#[derive(Clone)]
pub struct DescList<F: Front> {
    /// `(verbosity(S), T)` entries, in order.
    pub entries: Vec<(LevelSpec<F>, F::Text)>,
    /// The definitive text.
    pub default: Option<F::Text>,
    /// The level used when the reader asks for none.
    pub default_verbosity: Option<Level<F>>,
}

impl<F: Front> Default for DescList<F> {
    fn default() -> Self {
        DescList {
            entries: Vec::new(),
            default: None,
            default_verbosity: None,
        }
    }
}

/// The value of `description =` or `title =`.
#[derive(Clone)]
pub enum DescValue<F: Front> {
    /// One text for every reader.
    Bare(F::Text),
    /// A list by level.
    List(DescList<F>),
}

/// A runner matcher: `_` or an exact name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunnerMatch {
    /// `_`: any runner, including none.
    Any,
    /// Exactly this runner.
    Exact(String),
}

/// A model matcher: `_`, an exact name, or a membership list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Model {
    /// `_`: any model, including none.
    Any,
    /// Exactly this model.
    Exact(String),
    /// Any model of the list.
    List(Vec<String>),
}

/// One runner rule: its matchers, its level entries (to tags) and its `default` tag.
#[derive(Clone)]
pub struct Runner<F: Front> {
    /// The runner matcher.
    pub runner: RunnerMatch,
    /// The model matcher.
    pub model: Model,
    /// `(verbosity(S), tag)` entries.
    pub rules: Vec<(LevelSpec<F>, Tag<F>)>,
    /// `default = tag`.
    pub default: Option<Tag<F>>,
    /// Where the matchers were written, where a warning about the rule points.
    pub matchers: F::Loc,
}

/// One description site: a tool's description or title, an argument's description, a
/// `description!`, or a table of a tailoring file.
#[derive(Clone)]
pub struct DescSpec<F: Front> {
    /// `description = …` (or `title = …`).
    pub description: Option<DescValue<F>>,
    /// Named variants: `descriptions = [tag = T, …]`.
    pub descriptions: Vec<(Tag<F>, F::Text)>,
    /// `verbosity_map = [(S, tag), …]`.
    pub verbosity_map: Vec<(LevelSpec<F>, Tag<F>)>,
    /// `runners = [((runner, model), […]), …]`.
    pub runners: Vec<Runner<F>>,
    /// `allow(dead_variants)`: no warning for variants that can never be served.
    pub allow_dead: bool,
    /// An overlay (a tailoring file's tables, unless they opt into gap-fill): a level or
    /// reader the site does not cover has no text here, and reads the tool's own words.
    /// `false`: the DSL's gap-fill, where the nearest level answers.
    pub overlay: bool,
}

impl<F: Front> Default for DescSpec<F> {
    fn default() -> Self {
        DescSpec {
            description: None,
            descriptions: Vec::new(),
            verbosity_map: Vec::new(),
            runners: Vec::new(),
            allow_dead: false,
            overlay: false,
        }
    }
}
