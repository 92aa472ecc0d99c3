//! A command upstream over stdio: the `child` process, and its stdout read as `lines` (each
//! parsed once, kept as written; an answer to a request written past rmcp's client loop
//! goes back to it: `upstream::lane::stdio`).

pub(crate) mod child;
pub(crate) mod lines;
