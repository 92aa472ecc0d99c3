//! `tools/list`: the visible catalog, tailored, presented (with the checks on what a host may
//! override: icons, `_meta` keys), paged with signed cursors, with cache hints.

pub(crate) mod cursor;
pub(crate) mod icons;
pub(crate) mod list;
pub(crate) mod meta_key;
pub(crate) mod presentation;
