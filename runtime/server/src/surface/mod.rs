//! Surfaces: what a reader's `tools/list` presents. `native` lists every tool (the
//! catalog); `index` lists two tools instead — `search_tools`, whose description is the
//! index (one line per tool), and `call_tool` — for readers that cannot afford the whole
//! catalog every turn. The surface changes what is presented, never which tools exist or
//! whether they may be called: a tool's own name stays callable on either.
//!
//! | part | what it holds |
//! |---|---|
//! | `choice` | [`Surface`], and which reader gets which ([`IndexSurface::surface_for`]) |
//! | `index` | the two tools, the index's lines, `search_tools`' answer |
//! | `arguments` | `call_tool`'s arguments checked against the tool's input schema |

pub(crate) mod arguments;
pub(crate) mod choice;
pub(crate) mod index;

pub use choice::{HEADER_SURFACE, META_SURFACE, Surface, SurfaceRule};

use rmcp::model::Tool;
use std::fmt;
use std::sync::Arc;

/// How the index surface reads tools: its search, a description's sentences (what an index
/// line is made of, whole), and token counts for a budget. The layer holds no search or
/// tokenizer of its own; `mcp_tailor::inspect::IndexFinder` is one (the searches `eval`
/// verifies).
pub trait Finder: Send + Sync + 'static {
    /// The indices of `tools` that answer `query`, best first (a tool that does not answer
    /// is left out). `tools` carry their whole own words.
    fn rank(&self, tools: &[Tool], query: &str) -> Vec<usize>;
    /// The sentences of `description`, in order (an index line keeps the first, and more
    /// where a budget leaves room; never part of one).
    fn sentences<'a>(&self, description: &'a str) -> Vec<&'a str>;
    /// How many tokens `text` is, for [`IndexSurface::budget`].
    fn tokens(&self, text: &str) -> usize;
}

/// The share of the catalog's own `tools/list` the index's lines take by default: on the
/// catalogs measured (BENCHMARKS.md §10), the whole index then costs 88% less than the
/// catalog.
pub const DEFAULT_SHARE: f64 = 0.07;

/// How many tokens the index's lines may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Budget {
    /// This many.
    Tokens(usize),
    /// This share of the catalog's own `tools/list`.
    Share(f64),
}

/// The index surface of a server: who gets it, how it searches, what its lines say.
/// Set with `ServerBuilder::index`; without one, every reader gets `native`.
#[derive(Clone)]
pub struct IndexSurface {
    pub(crate) finder: Arc<dyn Finder>,
    pub(crate) default: Surface,
    pub(crate) rules: Vec<SurfaceRule>,
    pub(crate) level: u8,
    pub(crate) budget: Budget,
    pub(crate) load_on_find: bool,
}

impl fmt::Debug for IndexSurface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexSurface")
            .field("default", &self.default)
            .field("rules", &self.rules)
            .field("level", &self.level)
            .field("budget", &self.budget)
            .field("load_on_find", &self.load_on_find)
            .finish_non_exhaustive()
    }
}

impl IndexSurface {
    /// The index surface searching with `finder`: offered to readers that ask for it (a
    /// header, a `_meta` key, a rule), its lines at level 0 within
    /// [`DEFAULT_SHARE`] of the catalog's own `tools/list`, nothing loaded on find. Every
    /// other reader stays on `native`.
    pub fn new(finder: impl Finder) -> Self {
        IndexSurface {
            finder: Arc::new(finder),
            default: Surface::Native,
            rules: Vec::new(),
            level: 0,
            budget: Budget::Share(DEFAULT_SHARE),
            load_on_find: false,
        }
    }

    /// The surface of a reader that names none and no rule matches.
    #[must_use]
    pub fn default_surface(mut self, surface: Surface) -> Self {
        self.default = surface;
        self
    }

    /// Adds a rule: readers it matches get its surface (the first matching rule wins;
    /// a request naming a surface overrides every rule).
    #[must_use]
    pub fn rule(mut self, rule: SurfaceRule) -> Self {
        self.rules.push(rule);
        self
    }

    /// The level the index's lines are worded at (default 0, the tersest).
    #[must_use]
    pub fn level(mut self, level: u8) -> Self {
        self.level = level.min(mcp_tailor_core::MAX_VERBOSITY);
        self
    }

    /// The most tokens the index's lines may take (see [`budget_share`](Self::budget_share)
    /// for a share of the catalog, [`DEFAULT_SHARE`] by default). The lines take whole
    /// sentences, every tool's first, then one more per tool in turn, while the index
    /// fits; where even the first sentences would not fit, the longest leave first (a line
    /// is then the tool's name alone) until it fits.
    #[must_use]
    pub fn budget(mut self, tokens: usize) -> Self {
        self.budget = Budget::Tokens(tokens);
        self
    }

    /// The index's lines may take at most `share` (0..=1) of the tokens of the catalog's
    /// own `tools/list` (every visible tool in its own words), counted at each listing.
    #[must_use]
    pub fn budget_share(mut self, share: f64) -> Self {
        self.budget = Budget::Share(share.clamp(0.0, 1.0));
        self
    }

    /// Whether the tools `search_tools` returns join the session's `tools/list` as native
    /// tools (announced with `notifications/tools/list_changed`), so a client that reads
    /// its list again calls them by their own names, typed.
    #[must_use]
    pub fn load_on_find(mut self, on: bool) -> Self {
        self.load_on_find = on;
        self
    }
}
