//! Serving a [`Server`](crate::Server) on a transport, and who may call it:
//!
//! | room | what it does |
//! |---|---|
//! | `error` | why serving stopped, on either transport |
//! | `refusals` | the endpoint's own refusals, logged at a bounded rate |
//! | `auth` | who may call the streamable HTTP endpoint (feature `http`) |
//! | `stdio` | serving on stdio, or any rmcp transport |
//! | `http` | serving on streamable HTTP behind the connection limits (feature `http`) |
//!
//! Each room imports only from the rooms above it in this table (`tests/tests/house.rs`).

#[cfg(feature = "http")]
pub(crate) mod auth;
pub(crate) mod error;
#[cfg(feature = "http")]
pub(crate) mod http;
#[cfg(feature = "http")]
pub(crate) mod refusals;
pub(crate) mod stdio;
