//! Serving on streamable HTTP at `/mcp` (feature `http`): the accept loop (`accept`), the
//! router in front of rmcp's service (`serve`), what it reads of a POST first (`posted`),
//! which browser origins may call (`origin`), the session table with replica tags
//! (`tagged`), and who gets a session when the table is full (`admission`).
//! A request that may skip rmcp's service goes `direct` (the fast path).

pub(crate) mod accept;
pub(crate) mod admission;
pub(crate) mod origin;
pub(crate) mod posted;
pub(crate) mod serve;
pub(crate) mod tagged;
