//! A command upstream over stdio: the `child` process, its stdout read as `lines` (each
//! parsed once, kept as written), and the `lane` on which forwarded requests are written
//! past rmcp's client loop and answered straight back.

pub(crate) mod child;
pub(crate) mod lane;
pub(crate) mod lines;
