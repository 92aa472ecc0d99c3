//! The upstream side: one connection to the upstream server, by transport.
//! `open` opens one (a command over `stdio`, or streamable `http`); what it sends comes in
//! order (`inbound`), as written (`verbatim`), and each answer is `read` to its request.
//! The fast path, a forwarded request written or posted past rmcp's client loop, is the
//! `lane` room.

pub(crate) mod cause;
pub(crate) mod counts;
pub(crate) mod http;
pub(crate) mod inbound;
pub(crate) mod lane;
pub(crate) mod open;
pub(crate) mod read;
pub(crate) mod stdio;
pub(crate) mod verbatim;
