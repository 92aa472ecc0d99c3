//! `tools/list`: the visible catalog, tailored, presented (a host's overrides checked), paged
//! with signed cursors, with cache hints.

pub(crate) mod cursor;
pub(crate) mod list;
pub(crate) mod presentation;
