//! What a server serves, checked when it is built: the registered tools with their
//! handlers and the checks on what a registration may declare (icons, `_meta` keys), what a
//! handler may return, the wrapped rmcp handler's tools, and the tailoring file with one
//! view per tool. Below the listing and the session, which both read it.

pub(crate) mod icons;
pub(crate) mod meta_key;
pub(crate) mod tailoring;
pub(crate) mod tool_result;
pub(crate) mod tools;
pub(crate) mod wrapped;
