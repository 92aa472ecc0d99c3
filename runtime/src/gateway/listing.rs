//! The upstream's `tools/list`, read once per connection and kept, page by page, until the
//! upstream says its tools changed (`notifications/tools/list_changed`) or the listing's
//! own cache hint (2026-07-28 `ttlMs`) runs out.

use rmcp::model::ListToolsResult;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One connection's listing, by the cursor of each page (`None`: the first).
#[derive(Default)]
pub(super) struct ListingCache(Mutex<HashMap<Option<String>, Kept>>);

struct Kept {
    page: ListToolsResult,
    /// When the upstream's cache hint runs out (none: until it says it changed).
    until: Option<Instant>,
}

impl ListingCache {
    fn pages(&self) -> MutexGuard<'_, HashMap<Option<String>, Kept>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The page at `cursor`, while it is fresh.
    pub(super) fn get(&self, cursor: &Option<String>) -> Option<ListToolsResult> {
        let pages = self.pages();
        let kept = pages.get(cursor)?;
        match kept.until {
            Some(until) if Instant::now() >= until => None,
            _ => Some(kept.page.clone()),
        }
    }

    /// Keeps the page at `cursor` (not when its cache hint says not to: `ttlMs: 0`).
    pub(super) fn put(&self, cursor: Option<String>, page: &ListToolsResult) {
        let until = match page.ttl_ms {
            Some(0) => return,
            Some(ms) => Some(Instant::now() + Duration::from_millis(ms)),
            None => None,
        };
        let kept = Kept {
            page: page.clone(),
            until,
        };
        self.pages().insert(cursor, kept);
    }

    /// Forgets every page: the upstream's tools changed.
    pub(super) fn clear(&self) {
        self.pages().clear();
    }
}
