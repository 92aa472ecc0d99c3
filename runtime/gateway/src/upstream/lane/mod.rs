//! The gateway's fast path (feature `fast-path`, on by default): a forwarded request
//! written (`stdio`) or posted (`http`) by the task that forwards it, and its answer read
//! there, past rmcp's client loop. Every piece of the gateway that relies on how rmcp's
//! client works inside, not only on its API, lives in this room.
//!
//! With the feature off, `FAST_PATH` is false: no lane is opened, and every request goes
//! through rmcp's client. `tests/tests/rmcp_pin.rs` holds each rmcp behaviour the lanes
//! rely on (ARCHITECTURE.md, "The fast path").

/// Whether the fast path is built (feature `fast-path`, on by default).
pub(crate) const FAST_PATH: bool = cfg!(feature = "fast-path");

pub(crate) mod http;
pub(crate) mod stdio;
