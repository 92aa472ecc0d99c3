//! What a server serves: the builder, the registered tools and their handlers, what a handler
//! may return, and the wrapped rmcp handler.

pub(crate) mod builder;
pub(crate) mod catalog;
mod env;
pub(crate) mod file;
pub(crate) mod inner;
pub(crate) mod results;
