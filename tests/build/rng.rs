//! The generators' seedable random numbers.

/// `oorandom`'s seedable generator: `below(n)` draws from `0..n`, `chance(p)` is true `p`%
/// of the time.
pub struct Rng(pub oorandom::Rand64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0.rand_range(0..n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}
