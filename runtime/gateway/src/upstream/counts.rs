//! How many upstream connections a gateway opened, holds now, and lost (the upstream
//! exited or closed them): what its metrics report of the upstream's health. Each
//! connection counts itself in when opened and out when dropped.

use std::sync::atomic::{AtomicU64, Ordering};

/// A gateway's upstream connections, counted.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    opened: AtomicU64,
    closed: AtomicU64,
    lost: AtomicU64,
}

/// A gateway's upstream connections, counted at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpstreamCounts {
    /// Connections opened since the gateway began (each a process, for a command).
    pub opened: u64,
    /// Connections open now.
    pub open: u64,
    /// Connections the upstream ended (its process exited, its stream closed): each was
    /// replaced by the next request that needed it.
    pub lost: u64,
}

impl Counts {
    /// One connection opened.
    pub(crate) fn opened(&self) {
        self.opened.fetch_add(1, Ordering::Relaxed);
    }

    /// One connection dropped; `lost` when the upstream had ended it first.
    pub(crate) fn closed(&self, lost: bool) {
        self.closed.fetch_add(1, Ordering::Relaxed);
        if lost {
            self.lost.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The counts now.
    pub(crate) fn read(&self) -> UpstreamCounts {
        let opened = self.opened.load(Ordering::Relaxed);
        let closed = self.closed.load(Ordering::Relaxed);
        UpstreamCounts {
            opened,
            open: opened.saturating_sub(closed),
            lost: self.lost.load(Ordering::Relaxed),
        }
    }
}
