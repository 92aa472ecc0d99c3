//! The fast path (feature `fast-path`, on by default): a session's request served past
//! rmcp's HTTP service and its session worker, its answer as one JSON body. Every piece of
//! the server that relies on how rmcp works inside, not only on its API, lives in this room.
//!
//! | part | what it goes past |
//! |---|---|
//! | `http` | rmcp's HTTP service: which POSTs the front takes to their session itself |
//! | `session` | rmcp's session worker and service loop: the session's handler answers the request |
//! | `json_answer` | rmcp's event stream: an answer given at once leaves as one JSON body |
//!
//! With the feature off, `FAST_PATH` is false: every request goes rmcp's standard way, as
//! rmcp answers it. `tests/tests/rmcp_pin.rs` holds each rmcp behaviour this room relies on
//! (ARCHITECTURE.md, "The fast path").

/// Whether the fast path is built (feature `fast-path`, on by default).
pub(crate) const FAST_PATH: bool = cfg!(feature = "fast-path");

pub(crate) mod http;
pub(crate) mod json_answer;
pub(crate) mod session;
