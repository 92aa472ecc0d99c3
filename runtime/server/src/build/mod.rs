//! The top of the server: the builder that checks a configuration and builds a
//! [`Server`](server::Server), the settings read from the environment, and the built server
//! with what a host does with it (list for a request, open a session, serve a transport).

pub(crate) mod builder;
mod env;
pub(crate) mod error;
pub(crate) mod server;
