//! A streamable HTTP upstream: rmcp's client with each event kept as written
//! (`kept_http`), requests the gateway posts itself (`post`; `upstream::lane::http`), an event
//! stream's bound (`event_size`), and the 2024-11-05 transport (`legacy_sse`).

pub(crate) mod event_size;
pub(crate) mod kept_http;
pub(crate) mod legacy_sse;
pub(crate) mod post;
