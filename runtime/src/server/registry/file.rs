//! The tailoring file a server applies to its tools and instructions: read on every
//! listing, swapped whole when the file is reloaded.

use crate::server::registry::catalog::Catalog;
use crate::{Tailoring, ToolDef};
use std::sync::{Arc, PoisonError, RwLock};

/// The current tailoring (empty when the builder was given none).
#[derive(Debug, Default)]
pub(crate) struct FileTailoring {
    current: RwLock<Arc<Tailoring>>,
}

impl FileTailoring {
    /// A slot holding `tailoring`.
    pub(crate) fn new(tailoring: Tailoring) -> Self {
        FileTailoring {
            current: RwLock::new(Arc::new(tailoring)),
        }
    }

    /// The tailoring in force: one lock to clone an `Arc`, so a listing reads one
    /// consistent file even while another is swapped in.
    pub(crate) fn get(&self) -> Arc<Tailoring> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Swaps in `tailoring`, atomically for every later reader.
    pub(crate) fn set(&self, tailoring: Tailoring) {
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(tailoring);
    }
}

/// Logs what a server should know about `tailoring` against its compile-time tables: the
/// file's own warnings, and each item a `#[mcp_tool]` table also declares (the table wins).
pub(crate) fn log_findings(
    tailoring: &Tailoring,
    catalog: &Catalog,
    tailored: &[&'static ToolDef],
) {
    for warning in tailoring.warnings() {
        tracing::warn!("{warning}");
    }
    let defs = catalog
        .entries()
        .iter()
        .map(|e| e.def())
        .chain(tailored.iter().copied());
    for def in defs {
        let Some(file) = tailoring.tool(def.name()) else {
            continue;
        };
        for item in file.overridden_by(def) {
            tracing::warn!(
                "{}: tool `{}`: `{item}` is ignored: the tool's #[mcp_tool] table declares it and wins",
                file.location(),
                def.name()
            );
        }
    }
}
