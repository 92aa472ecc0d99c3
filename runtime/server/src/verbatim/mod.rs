//! Verbatim: what the layer passes on reaches the client as the upstream wrote it, and
//! fast, where rmcp's types cannot hold it or its loops would slow it.
//! Every part of that faithful pass-through on the serving side lives in this room.
//!
//! | part | what it does |
//! |---|---|
//! | `patch` | what rmcp's types drop of an answer travels with it as a patch under [`KEY`], applied where it is written ([`restore`]) |
//! | `listing` | a listing restored once and kept, by typed content |
//! | `splice` | a kept listing's text spliced into the event stream as it leaves (streamable HTTP) |
//! | `json_answer` | an answer given at once leaves as one JSON body, not an event stream |
//! | `direct` | a session's request served past rmcp's session worker and service loop |
//!
//! The gateway's side of the same word: `mcp_tailor_gateway`'s `upstream::verbatim` (answers
//! and notifications as written) and the lanes past rmcp's client loop.
//!
//! The fast path (`json_answer`, `direct`, and `transport::straight`, which hands requests
//! to `direct`) relies on how rmcp works inside, not only on its API; `FAST_PATH` turns it
//! on, and `tests/tests/rmcp_pin.rs` holds each behaviour it relies on.

/// Whether the fast path is built (feature `fast-path`, on by default): a session's
/// request served past rmcp's session worker and HTTP service, its answer as one JSON body.
/// Off, every request goes rmcp's standard way, as rmcp answers it.
#[cfg(feature = "http")]
pub(crate) const FAST_PATH: bool = cfg!(feature = "fast-path");

#[cfg(feature = "http")]
pub(crate) mod direct;
#[cfg(feature = "http")]
pub(crate) mod json_answer;
pub(crate) mod listing;
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
