//! `allow(dead_variants)` silences the dead-variant warnings of one item, and only its own.
#![deny(warnings)]

use mcp_tailor::{Description, description, mcp_args, mcp_tool};

static D: Description = description!(
    allow(dead_variants),
    description = [(verbosity(0), "zero"), default = "the definitive text"],
);

/// A tool: `allow` on the tool covers its title and its fields.
#[mcp_tool(allow(dead_variants), title = [(verbosity(0), "T"), default = "Title"])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Tool {
    /// A field.
    #[mcp(descriptions = [never = "never served"])]
    pub field: String,
    /// Another, silenced on its own.
    #[mcp(allow(dead_variants), descriptions = [never = "never served"])]
    pub other: String,
}

/// `allow` on an argument type covers its fields.
#[mcp_args(allow(dead_variants))]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Arg {
    #[mcp(description = [(verbosity(0), "a"), default = "A"])]
    pub a: String,
}

fn main() {
    let _ = &D;
}
