//! One request as the layer sees it: the caller, the client, its protocol era, and the
//! reader resolved from them.

pub(crate) mod era;
pub(crate) mod info;
pub(crate) mod policy;
pub(crate) mod reader;
