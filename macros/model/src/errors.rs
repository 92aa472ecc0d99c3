//! Error accumulation: every rule reports into a [`Sink`] and carries on, so one run shows
//! every mistake — no `?` inside a validation loop.

/// Where rules report: the macro's `compile_error!` list, or a file's [`Errors`].
pub trait Sink<L> {
    /// Records an error at `loc`.
    fn error(&mut self, loc: L, message: String);
}

/// Errors collected in order, each with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Errors<L> {
    list: Vec<(L, String)>,
}

impl<L> Default for Errors<L> {
    fn default() -> Self {
        Errors { list: Vec::new() }
    }
}

impl<L> Errors<L> {
    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The errors, in the order they were found.
    pub fn into_vec(self) -> Vec<(L, String)> {
        self.list
    }
}

impl<L> Sink<L> for Errors<L> {
    fn error(&mut self, loc: L, message: String) {
        self.list.push((loc, message));
    }
}

/// The candidate closest to `word`, when one is close enough to be a likely misspelling.
pub fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c), *c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `` `a`, `b`, `c` `` — a list of names for a message.
pub fn backticked<S: AsRef<str>>(names: &[S]) -> String {
    names
        .iter()
        .map(|n| format!("`{}`", n.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}
