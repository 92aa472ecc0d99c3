//! `mcp-tailor`: check and draft tailoring files, see what each reader of a catalog gets,
//! and serve any MCP server with its tools worded per reader (`mcp-tailor --help`).

fn main() -> std::process::ExitCode {
    mcp_tailor_cli::main()
}
