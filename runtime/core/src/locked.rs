//! Locks taken whatever a panicking holder left behind: a panic in one request must not
//! poison a lock for every request after it, and every value these locks guard is whole
//! between statements (no invariant spans a panic). One helper for the workspace, in
//! place of `.lock().unwrap_or_else(PoisonError::into_inner)` at each use.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// A lock, taken poisoned or not.
pub trait Locked {
    /// The guard for reading.
    type Guard<'a>
    where
        Self: 'a;
    /// The guard for writing.
    type GuardMut<'a>
    where
        Self: 'a;

    /// The lock, held for reading (a mutex's one guard).
    fn locked(&self) -> Self::Guard<'_>;

    /// The lock, held for writing (a mutex's one guard).
    fn locked_mut(&self) -> Self::GuardMut<'_>;
}

impl<T: ?Sized> Locked for Mutex<T> {
    type Guard<'a>
        = MutexGuard<'a, T>
    where
        T: 'a;
    type GuardMut<'a>
        = MutexGuard<'a, T>
    where
        T: 'a;

    fn locked(&self) -> MutexGuard<'_, T> {
        self.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn locked_mut(&self) -> MutexGuard<'_, T> {
        self.locked()
    }
}

impl<T: ?Sized> Locked for RwLock<T> {
    type Guard<'a>
        = RwLockReadGuard<'a, T>
    where
        T: 'a;
    type GuardMut<'a>
        = RwLockWriteGuard<'a, T>
    where
        T: 'a;

    fn locked(&self) -> RwLockReadGuard<'_, T> {
        self.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn locked_mut(&self) -> RwLockWriteGuard<'_, T> {
        self.write().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_a_panic_poisoned_is_locked_all_the_same() {
        let (mutex, rwlock) = (Mutex::new(1), RwLock::new(1));
        std::thread::scope(|s| {
            let _ = s
                .spawn(|| {
                    let (_m, _w) = (mutex.lock().unwrap(), rwlock.write().unwrap());
                    panic!("poisons both");
                })
                .join();
        });
        assert!(mutex.is_poisoned() && rwlock.is_poisoned());
        *mutex.locked_mut() += 1;
        *rwlock.locked_mut() += 1;
        assert_eq!((*mutex.locked(), *rwlock.locked()), (2, 2));
    }
}
