//! What a tool call runs in: the per-session state and the context a handler gets
//! ([`CallContext`](context::CallContext)), the tasks registered tools run as, and who hears
//! tool-list changes. Below the catalog (whose handlers take a call context) and the
//! session (which makes one per call).

pub(crate) mod context;
pub(crate) mod subscriptions;
pub(crate) mod tasks;
