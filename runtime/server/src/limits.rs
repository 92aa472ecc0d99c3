//! Limits: how much of a host's output and of a client's input the layer accepts. What one
//! client can make the process hold on streamable HTTP, and for how long, is set with the
//! rest of that transport's settings: [`HttpConfig`](crate::HttpConfig).

pub use crate::catalog::icons::{MAX_ICONS, MAX_ICONS_JSON};
pub use crate::instructions::MAX_INSTRUCTIONS;
pub use crate::listing::cursor::MIN_SECRET_LEN;
pub use crate::listing::presentation::{MAX_DESCRIPTION, MAX_META_DEPTH, MAX_TITLE};
pub use crate::request::reader::MAX_READER_NAME;
