//! One connection or session: the rmcp handler the layer is for it, the context of each
//! tool call, the custom `setReader` request, and who hears tool-list changes.

pub(crate) mod call;
pub(crate) mod custom;
pub(crate) mod handler;
pub(crate) mod subscriptions;
