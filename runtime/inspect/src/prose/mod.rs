//! A server's description read as prose a drafted level can trust: cut into units
//! (`cut`, `unit`) kept whole or left out whole, each told whether it states a rule a valid
//! call depends on (`rules`) and what it refers to, and a level's text as the units it
//! picks (`picks`). `init` drafts with it, its audit proves a file by it, and `lint` holds
//! hand-written levels to it.

mod asides;
mod cut;
mod picks;
pub(crate) mod rules;
mod unit;

pub use cut::{sentences, units};
pub use picks::{Form, Picks, compose, faithful, ruled};
pub use unit::{Kind, Unit};

#[cfg(test)]
mod tests;
