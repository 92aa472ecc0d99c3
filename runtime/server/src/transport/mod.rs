//! Serving a [`Server`](crate::Server) on stdio, and (feature `http`) on streamable
//! HTTP behind the connection limits.

#[cfg(feature = "http")]
pub(crate) mod accept;
#[cfg(feature = "http")]
pub(crate) mod admission;
#[cfg(feature = "http")]
pub(crate) mod auth;
pub(crate) mod error;
#[cfg(feature = "http")]
pub(crate) mod http;
#[cfg(feature = "http")]
pub(crate) mod media;
#[cfg(feature = "http")]
pub(crate) mod origin;
#[cfg(feature = "http")]
pub(crate) mod posted;
#[cfg(feature = "http")]
pub(crate) mod refusals;
pub(crate) mod stdio;
#[cfg(feature = "http")]
pub(crate) mod straight;
#[cfg(feature = "http")]
pub(crate) mod tagged;
