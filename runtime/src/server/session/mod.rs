//! One connection or session: the rmcp handler the layer is for it, the context of each
//! tool call, the custom `setReader` request, who hears tool-list changes, and the tasks
//! registered tools run as.

pub(crate) mod call;
pub(crate) mod custom;
pub(crate) mod handler;
pub(crate) mod subscriptions;
pub(crate) mod tasks;
