//! The tailoring file a server applies to its tools and instructions, with one
//! [`ToolView`] per tool it words, merged when the server is built and again each time the
//! file is swapped; a listing reads both from one snapshot. A reader that names no level
//! reads the file only where a fallback level is set (by the host, or the file's own
//! `fallback_verbosity`); otherwise the tools' own words: a file rewords nothing unasked.

use crate::catalog::tools::Catalog;
use mcp_tailor_core::seam::Locked;
use mcp_tailor_core::seam::ToolView;
use mcp_tailor_core::{RenderCtx, Tailoring, ToolDef};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// The file in force and the views it makes.
#[derive(Debug, Default)]
pub(crate) struct InForce {
    /// The file (empty when the builder was given none).
    pub(crate) file: Arc<Tailoring>,
    /// Every tool with tables of its own or the file's words, by name.
    views: HashMap<String, ToolView>,
    /// The view of a tool the file names not, where its `[arguments]` or `[schemas]` words
    /// it.
    every: Option<ToolView>,
    /// The level a reader naming none reads the file at: the host's fallback, else the
    /// file's `fallback_verbosity`; `None`: such a reader reads the tools' own words.
    unnamed: Option<u8>,
}

impl InForce {
    /// The context the file's words are resolved in for a reader in `ctx`: `ctx` itself
    /// when it names a level, else `ctx` at [`unnamed`](Self::unnamed); `None` when the
    /// file leaves this reader to the tools' own words.
    pub(crate) fn file_ctx<'a>(&self, ctx: &RenderCtx<'a>) -> Option<RenderCtx<'a>> {
        match ctx.explicit_verbosity() {
            Some(_) => Some(*ctx),
            None => self.unnamed.map(|level| ctx.fallback_verbosity(level)),
        }
    }

    /// The view of the tool `name`, when anything words it beyond its own text (the file's
    /// `[arguments]` and `[schemas]` reach every tool).
    pub(crate) fn view(&self, name: &str) -> Option<&ToolView> {
        self.views.get(name).or(self.every.as_ref())
    }
}

/// The current tailoring, swapped whole.
#[derive(Debug, Default)]
pub(crate) struct TailoringSlot {
    /// The `#[mcp_tool]` tables of the server's tools (registered ones, and those attached
    /// to the wrapped handler's), fixed at build.
    defs: Vec<&'static ToolDef>,
    /// The host's own fallback level (builder or environment), if it set one.
    host_fallback: Option<u8>,
    current: RwLock<Arc<InForce>>,
}

impl TailoringSlot {
    /// A slot holding `tailoring` over the tools `defs` word, for a host whose own
    /// fallback level is `host_fallback` (if it set one).
    pub(crate) fn new(
        tailoring: Tailoring,
        defs: Vec<&'static ToolDef>,
        host_fallback: Option<u8>,
    ) -> Self {
        let slot = TailoringSlot {
            defs,
            host_fallback,
            current: RwLock::default(),
        };
        slot.set(tailoring);
        slot
    }

    /// The tailoring in force: one lock to clone an `Arc`, so a listing reads one
    /// consistent file and its views even while another is swapped in.
    pub(crate) fn get(&self) -> Arc<InForce> {
        self.current.locked().clone()
    }

    /// Swaps in `tailoring`, its views merged once here, atomically for every later reader.
    pub(crate) fn set(&self, tailoring: Tailoring) {
        let mut views: HashMap<String, ToolView> = self
            .defs
            .iter()
            .map(|&def| (def.name().to_owned(), tailoring.def_view(def)))
            .collect();
        for (name, _) in tailoring.tools() {
            views
                .entry(name.to_owned())
                .or_insert_with(|| tailoring.view(name));
        }
        let every = (tailoring.every_argument().is_some() || !tailoring.lean().is_empty())
            .then(|| tailoring.unnamed_view());
        let in_force = Arc::new(InForce {
            every,
            unnamed: self.host_fallback.or(tailoring.fallback_verbosity()),
            file: Arc::new(tailoring),
            views,
        });
        *self.current.locked_mut() = in_force;
    }
}

/// Logs what a server should know about `tailoring` against its compile-time tables: the
/// file's own warnings, and each item a `#[mcp_tool]` table also declares (the table wins).
pub(crate) fn log_findings(
    tailoring: &Tailoring,
    catalog: &Catalog,
    attached: &[&'static ToolDef],
) {
    for warning in tailoring.warnings() {
        tracing::warn!("{warning}");
    }
    let defs = catalog
        .entries()
        .iter()
        .map(|e| e.def())
        .chain(attached.iter().copied());
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
