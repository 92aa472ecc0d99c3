//! The server layer, driven by real MCP clients over real transports: `rmcp`'s client
//! over an in-process stdio pipe and over streamable HTTP on loopback, and raw JSON-RPC
//! lines where the exact wire matters. One test binary, so it links once.

mod common;

mod cache_hints;
mod calls;
mod cursors;
mod direct;
mod eval;
mod gateway;
mod gateway_calls;
mod handler_context;
mod inspect;
mod instructions;
mod layer;
mod limits;
mod own_handler;
mod presentation;
mod readers;
mod tailoring_file;
mod tasks;
mod visibility;
