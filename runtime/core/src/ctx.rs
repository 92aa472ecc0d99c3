//! The render context: who is reading the catalog.

/// The built-in verbosity level when nothing else names one.
pub const DEFAULT_VERBOSITY: u8 = 5;

/// The highest verbosity level; higher requests are clamped to it.
pub const MAX_VERBOSITY: u8 = 9;

/// Who is reading a catalog: the runner (harness), the model, an explicit verbosity level,
/// and the fallback level of the server/deployment chain.
///
/// Built by value; every level is clamped to `0..=9`. Borrowing the runner and model keeps
/// building a context per request free of allocation.
///
/// ```
/// use mcp_tailor::RenderCtx;
/// let ctx = RenderCtx::new().runner("codex").model("5.4").verbosity(12);
/// assert_eq!(ctx.explicit_verbosity(), Some(9));
/// assert_eq!(RenderCtx::default().fallback(), 5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderCtx<'a> {
    runner: Option<&'a str>,
    model: Option<&'a str>,
    verbosity: Option<u8>,
    fallback: u8,
}

impl Default for RenderCtx<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> RenderCtx<'a> {
    /// No runner, no model, no explicit level, fallback level 5.
    pub const fn new() -> Self {
        RenderCtx {
            runner: None,
            model: None,
            verbosity: None,
            fallback: DEFAULT_VERBOSITY,
        }
    }

    /// Sets the runner (the harness reading), compared exactly and case-sensitively.
    #[must_use]
    pub const fn runner(mut self, runner: &'a str) -> Self {
        self.runner = Some(runner);
        self
    }

    /// Sets the model, compared exactly and case-sensitively.
    #[must_use]
    pub const fn model(mut self, model: &'a str) -> Self {
        self.model = Some(model);
        self
    }

    /// Sets an explicit verbosity level (clamped to 9); it outranks every default.
    #[must_use]
    pub const fn verbosity(mut self, level: u8) -> Self {
        self.verbosity = Some(clamp(level));
        self
    }

    /// Sets the fallback level (clamped to 9), used when neither the context nor the
    /// description names a level.
    #[must_use]
    pub const fn fallback_verbosity(mut self, level: u8) -> Self {
        self.fallback = clamp(level);
        self
    }

    /// The runner, if known.
    pub const fn runner_name(&self) -> Option<&'a str> {
        self.runner
    }

    /// The model, if known.
    pub const fn model_name(&self) -> Option<&'a str> {
        self.model
    }

    /// The explicit verbosity level, if one was set.
    pub const fn explicit_verbosity(&self) -> Option<u8> {
        self.verbosity
    }

    /// The fallback level.
    pub const fn fallback(&self) -> u8 {
        self.fallback
    }

    /// The level a description sees: the explicit level, else the description's own
    /// `default_verbosity`, else the fallback.
    #[inline]
    pub const fn effective_level(&self, default_verbosity: Option<u8>) -> u8 {
        match (self.verbosity, default_verbosity) {
            (Some(level), _) | (None, Some(level)) => clamp(level),
            (None, None) => self.fallback,
        }
    }
}

const fn clamp(level: u8) -> u8 {
    if level > MAX_VERBOSITY {
        MAX_VERBOSITY
    } else {
        level
    }
}
