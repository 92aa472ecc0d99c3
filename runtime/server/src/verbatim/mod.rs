//! Verbatim: what the layer passes on reaches the client as the upstream wrote it, where
//! rmcp's types cannot hold it.
//! Every part of that faithful pass-through on the serving side lives in this room.
//!
//! | part | what it does |
//! |---|---|
//! | `patch` | what rmcp's types drop of an answer travels with it as a patch under [`KEY`], applied where it is written ([`restore`]) |
//! | `kept` | a listing restored once and kept, by typed content |
//! | `splice` | a kept listing's text spliced into the event stream as it leaves (streamable HTTP) |
//!
//! The gateway's side of the same word: `mcp_tailor_gateway`'s `upstream::verbatim` (answers
//! and notifications as written) and the lanes past rmcp's client loop.
//!
//! The fast path, which also serves as the upstream wrote, is its own room: `direct`.

pub(crate) mod kept;
mod patch;
#[cfg(feature = "http")]
pub(crate) mod splice;

pub(crate) use patch::restore_message;
#[cfg(feature = "http")]
pub(crate) use patch::restored_as;
pub use patch::{
    AS_WRITTEN, KEY, PROGRESS, handshake, keep_in_meta, keep_tools, patches_made, restore,
    restored, written_notification,
};
