//! Where a client's request is served: the gateway's rmcp handler (`forward`) sends each
//! request upstream (`outgoing`: on a lane of its own, or through rmcp's client) and reads
//! its answer back; `input` carries what a 2026-07-28 upstream asks during a call.

pub(crate) mod forward;
pub(crate) mod input;
pub(crate) mod outgoing;
