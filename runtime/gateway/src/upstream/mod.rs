//! The upstream side: one connection to the upstream server, by transport.
//! `open` opens one (a command over `stdio`, or streamable `http`); what it sends comes in
//! order (`inbound`), as written (`verbatim`), and each answer is `read` to its request.

/// Whether the fast path is built (feature `fast-path`, on by default): a forwarded
/// request written or posted on a lane (`stdio::lane`, `http::lane`), past rmcp's client
/// loop. Off, every request goes through rmcp's client. The lanes rely on how rmcp's
/// client works inside (`tests/tests/rmcp_pin.rs`).
pub(crate) const FAST_PATH: bool = cfg!(feature = "fast-path");

pub(crate) mod cause;
pub(crate) mod counts;
pub(crate) mod http;
pub(crate) mod inbound;
pub(crate) mod open;
pub(crate) mod read;
pub(crate) mod stdio;
pub(crate) mod verbatim;
