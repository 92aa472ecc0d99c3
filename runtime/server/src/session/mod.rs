//! One connection or session: the rmcp handler the layer is for it, what every session of
//! one server shares, its registration with its transport, and the custom `setReader`
//! request.

pub(crate) mod handler;
pub(crate) mod passed_on;
// Read by the HTTP transport only.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) mod registration;
pub(crate) mod server_state;
pub(crate) mod set_reader;
