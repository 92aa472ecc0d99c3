//! The endpoint's own refusals (a credential that does not hold, a connection over an
//! address's share), logged so that an operator sees an attack, but at most once per
//! [`EVERY`] per kind: a flood of refused requests cannot flood the log too.

use mcp_tailor_core::seam::Locked;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The least time between two log lines of one kind of refusal.
pub(crate) const EVERY: Duration = Duration::from_secs(10);

/// Per kind of refusal: when it was last logged, and how many came since.
static SEEN: Mutex<Option<HashMap<&'static str, (Instant, u64)>>> = Mutex::new(None);

/// Counts a refusal of kind `why`; logs it (with the count since the last line) when the
/// last line of its kind is at least [`EVERY`] old.
pub(crate) fn refused(why: &'static str) {
    let mut seen = SEEN.locked();
    let seen = seen.get_or_insert_with(HashMap::new);
    let now = Instant::now();
    match seen.get_mut(why) {
        Some((last, count)) if now.duration_since(*last) < EVERY => *count += 1,
        Some((last, count)) => {
            tracing::warn!(
                refused = *count + 1,
                "{why} (refused since the last such line)"
            );
            (*last, *count) = (now, 0);
        }
        None => {
            tracing::warn!(
                "{why} (refused; such lines come at most every {}s)",
                EVERY.as_secs()
            );
            seen.insert(why, (now, 0));
        }
    }
}
