//! Tests of mcp-tailor live in `tests/`; this library holds what the robustness runs
//! and the proxies benchmark share: a raw HTTP client ([`client`]).

pub mod client;
