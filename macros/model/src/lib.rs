//! The model of mcp-tailor's description DSL, shared by its two front ends: the
//! `#[mcp_tool]` / `description!` macros (compile time, locations are token spans) and the
//! runtime's tailoring files (load time, locations are `LINE:COL`).
//!
//! A front end parses its syntax into the [`ast`] (generic over a [`Front`]: where things
//! were written and what a text is), then [`valid::desc`] applies every rule, reporting each
//! error into a [`Sink`] and carrying on, and finds the variants that can never be served
//! ([`dead`]). The checked [`Plan`](tables::Plan) becomes lookup tables with
//! [`tables::build`]. The wording of every message lives here ([`rules`]), so both front
//! ends say the same thing about the same mistake. Not a stable API: it is versioned with
//! `mcp-tailor` and `mcp-tailor-macros`, which pin it exactly.

pub mod ast;
pub mod dead;
pub mod errors;
pub mod rules;
pub mod tables;
pub mod valid;

pub use ast::Front;
pub use errors::{Errors, Sink};
