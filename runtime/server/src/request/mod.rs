//! One request as the layer sees it: the caller, the client, its protocol era, the reader
//! resolved from them, and (streamable HTTP) the media types its headers name.

pub(crate) mod era;
pub(crate) mod info;
#[cfg(feature = "http")]
pub(crate) mod media;
pub(crate) mod policy;
pub(crate) mod reader;
