//! The upstream's `tools/list`, read once per connection and kept, page by page, until the
//! upstream says its tools changed (`notifications/tools/list_changed`) or the listing's
//! own cache hint (2026-07-28 `ttlMs`) runs out.

use mcp_tailor_core::seam::Locked;
use rmcp::model::{ListToolsResult, Tool};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Every tool an upstream lists, and how it paged them: what `inspect` reads of a server,
/// and what a server wrapping the gateway pages its listing by.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct UpstreamTools {
    /// Every tool, all pages in order.
    pub tools: Vec<Tool>,
    /// Tools a page, where the upstream paged its listing (as many as its first page
    /// held); `None` where it listed them all on one page.
    pub page_size: Option<usize>,
}

impl From<Vec<Tool>> for UpstreamTools {
    /// `tools`, listed on one page (a captured `tools/list` result).
    fn from(tools: Vec<Tool>) -> Self {
        UpstreamTools {
            tools,
            page_size: None,
        }
    }
}

/// One connection's listing, by the cursor of each page (`None`: the first).
#[derive(Default)]
pub(crate) struct ListingCache(Mutex<HashMap<Option<String>, RelayedListing>>);

struct RelayedListing {
    page: ListToolsResult,
    /// When the upstream's cache hint runs out (none: until it says it changed).
    until: Option<Instant>,
}

impl ListingCache {
    fn pages(&self) -> MutexGuard<'_, HashMap<Option<String>, RelayedListing>> {
        self.0.locked()
    }

    /// The page at `cursor`, while it is fresh.
    pub(crate) fn get(&self, cursor: &Option<String>) -> Option<ListToolsResult> {
        let pages = self.pages();
        let kept = pages.get(cursor)?;
        match kept.until {
            Some(until) if Instant::now() >= until => None,
            _ => Some(kept.page.clone()),
        }
    }

    /// Keeps the page at `cursor` (not when its cache hint says not to: `ttlMs: 0`).
    pub(crate) fn put(&self, cursor: Option<String>, page: &ListToolsResult) {
        let until = match page.ttl_ms {
            Some(0) => return,
            Some(ms) => Some(Instant::now() + Duration::from_millis(ms)),
            None => None,
        };
        let kept = RelayedListing {
            page: page.clone(),
            until,
        };
        self.pages().insert(cursor, kept);
    }

    /// Forgets every page: the upstream's tools changed.
    pub(crate) fn clear(&self) {
        self.pages().clear();
    }
}
