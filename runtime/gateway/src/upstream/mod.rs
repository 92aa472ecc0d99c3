//! The upstream side: one connection to the upstream server, by transport.
//! `open` opens one (a command over `stdio`, or streamable `http`); what it sends comes in
//! order (`inbound`), as written (`verbatim`), and each answer is `read` to its request.

pub(crate) mod cause;
pub(crate) mod counts;
pub(crate) mod http;
pub(crate) mod inbound;
pub(crate) mod open;
pub(crate) mod read;
pub(crate) mod stdio;
pub(crate) mod verbatim;
