//! The pool: the live connections to the upstream, and which one a session's requests go
//! over. A `connection` is one upstream session (a child process, or an HTTP session);
//! a `slot` keeps one opened ahead or shared; `sessions` maps a client's session to one.

pub(crate) mod connection;
pub(crate) mod sessions;
pub(crate) mod slot;
