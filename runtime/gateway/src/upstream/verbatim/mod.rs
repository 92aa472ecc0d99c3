//! Verbatim, the gateway's side: what the upstream wrote is kept beside what rmcp's types
//! read of it, and handed to the serving layer's patches (`seam::verbatim`), so the client
//! reads the upstream's own bytes.
//!
//! | part | what it does |
//! |---|---|
//! | `store` | `Verbatim`: answers by request id, the handshake's, notifications' params |
//! | `notifications` | which notifications pass on as written, and how their params ride along |
//! | `answer` | a forwarded request's answer, typed, carrying what its type could not hold |
//!
//! The lanes past rmcp's client loop are the same word's other half; they live by transport
//! (`lane::stdio`, `lane::http`) and fill this store as they read.

pub(crate) mod answer;
pub(crate) mod notifications;
pub(crate) mod store;
