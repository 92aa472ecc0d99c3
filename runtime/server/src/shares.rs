//! Shares: how many of something each key holds at once (an address's connections, a
//! principal's event streams, a holder's upstream processes), each place given back when
//! its [`Place`] drops. One counter for every per-key limit, so each limit says only when
//! a key may take one more.

use mcp_tailor_core::seam::Locked;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// The places each key holds.
#[derive(Debug)]
pub struct Shares<K>(Mutex<HashMap<K, usize>>);

impl<K> Default for Shares<K> {
    fn default() -> Self {
        Shares(Mutex::new(HashMap::new()))
    }
}

/// One place held by a key; dropping it gives the place back.
#[derive(Debug)]
pub struct Place<K: Eq + Hash> {
    shares: Arc<Shares<K>>,
    key: K,
}

impl<K: Eq + Hash + Clone> Shares<K> {
    fn counts(&self) -> std::sync::MutexGuard<'_, HashMap<K, usize>> {
        self.0.locked()
    }

    /// One more place for `key`, when `allowed` says so of the places it holds now;
    /// `None` otherwise.
    pub fn take(self: &Arc<Self>, key: K, allowed: impl FnOnce(usize) -> bool) -> Option<Place<K>> {
        let mut counts = self.counts();
        let held = counts.entry(key.clone()).or_insert(0);
        if !allowed(*held) {
            if *held == 0 {
                counts.remove(&key);
            }
            return None;
        }
        *held += 1;
        Some(Place {
            shares: self.clone(),
            key,
        })
    }

    /// One more place for `key` while it holds fewer than `most`.
    pub fn take_below(self: &Arc<Self>, key: K, most: usize) -> Option<Place<K>> {
        self.take(key, |held| held < most.max(1))
    }

    /// The places `key` holds now.
    pub fn held(&self, key: &K) -> usize {
        self.counts().get(key).copied().unwrap_or(0)
    }
}

impl<K: Eq + Hash> Drop for Place<K> {
    fn drop(&mut self) {
        let mut counts = self.shares.0.locked();
        if let Some(held) = counts.get_mut(&self.key) {
            *held = held.saturating_sub(1);
            if *held == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Shares;
    use std::sync::Arc;

    #[test]
    fn a_key_holds_at_most_its_share_and_a_dropped_place_is_given_back() {
        let shares = Arc::new(Shares::default());
        let a1 = shares.take_below("a", 2).unwrap();
        let _a2 = shares.take_below("a", 2).unwrap();
        assert!(shares.take_below("a", 2).is_none());
        let _b = shares.take_below("b", 2).unwrap();
        assert_eq!(shares.held(&"a"), 2);
        drop(a1);
        assert_eq!(shares.held(&"a"), 1);
        assert!(shares.take_below("a", 2).is_some());
        assert!(shares.take("c", |_| false).is_none());
        assert_eq!(shares.held(&"c"), 0);
    }
}
