//! Reader classes: every (runner, model) a catalog's tables can tell apart.

use mcp_tailor_core::{RenderCtx, ToolDef};
use mcp_tailor_server::Reader;
use std::collections::BTreeSet;

/// One class of readers: those with this runner and model (either may be absent).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ReaderClass {
    /// The class's reader, with no level of its own.
    reader: Reader,
}

impl ReaderClass {
    /// The readers with this runner and model.
    pub fn new(runner: Option<&str>, model: Option<&str>) -> ReaderClass {
        ReaderClass {
            reader: Reader {
                runner: runner.map(str::to_owned),
                model: model.map(str::to_owned),
                verbosity: None,
            },
        }
    }

    /// The runner, e.g. `codex`.
    pub fn runner(&self) -> Option<&str> {
        self.reader.runner.as_deref()
    }

    /// The model, e.g. `5.4`.
    pub fn model(&self) -> Option<&str> {
        self.reader.model.as_deref()
    }

    /// `-` (no runner, no model), `codex`, `codex/5.4`, or `_/spark` (a model, no runner).
    pub fn label(&self) -> String {
        match (self.runner(), self.model()) {
            (None, None) => "-".to_owned(),
            (Some(r), None) => r.to_owned(),
            (Some(r), Some(m)) => format!("{r}/{m}"),
            (None, Some(m)) => format!("_/{m}"),
        }
    }

    /// Parses a [`label`](Self::label).
    pub fn parse(spec: &str) -> ReaderClass {
        fn named(s: &str) -> Option<&str> {
            (!s.is_empty() && s != "_" && s != "-").then_some(s)
        }
        match spec.split_once('/') {
            Some((runner, model)) => ReaderClass::new(named(runner), named(model)),
            None => ReaderClass::new(named(spec), None),
        }
    }

    /// The reader of this class at an explicit `level`.
    pub fn reader(&self, level: u8) -> Reader {
        Reader {
            verbosity: Some(level),
            ..self.reader.clone()
        }
    }

    /// The render context of this class at an explicit `level`.
    pub fn ctx(&self, level: u8) -> RenderCtx<'_> {
        self.reader
            .ctx(mcp_tailor_core::DEFAULT_VERBOSITY)
            .verbosity(level)
    }
}

/// Every text of every tool for this class at every level: two classes with the same
/// signature read the same catalog.
fn signature(class: &ReaderClass, tools: &[&'static ToolDef]) -> Vec<Option<&'static str>> {
    let mut out = Vec::new();
    for level in 0..=mcp_tailor_core::MAX_VERBOSITY {
        let ctx = class.ctx(level);
        for def in tools {
            out.push(def.title().resolve(&ctx));
            out.push(def.description().resolve(&ctx));
            out.extend(def.argument_descriptions().map(|d| d.resolve(&ctx)));
        }
    }
    out
}

/// The reader classes the catalog's tables tell apart: no runner first, then each named
/// runner, runner and model, and model alone; a class that reads exactly like an earlier
/// one is left out.
pub fn reader_classes(tools: &[&'static ToolDef]) -> Vec<ReaderClass> {
    let mut runners = BTreeSet::new();
    let mut models = BTreeSet::new();
    for def in tools {
        let descriptions = [def.title(), def.description()]
            .into_iter()
            .chain(def.argument_descriptions());
        for d in descriptions {
            runners.extend(d.runners());
            models.extend(d.models());
        }
    }
    let class = ReaderClass::new;
    let mut candidates = vec![class(None, None)];
    for runner in &runners {
        candidates.push(class(Some(runner), None));
        candidates.extend(models.iter().map(|m| class(Some(runner), Some(m))));
    }
    candidates.extend(models.iter().map(|m| class(None, Some(m))));
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for candidate in candidates {
        let sig = signature(&candidate, tools);
        if !seen.contains(&sig) {
            seen.push(sig);
            out.push(candidate);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ReaderClass;

    #[test]
    fn labels_round_trip() {
        for label in ["-", "codex", "codex/5.4", "_/spark"] {
            assert_eq!(ReaderClass::parse(label).label(), label);
        }
    }
}
