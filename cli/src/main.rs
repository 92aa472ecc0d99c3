//! `mcp-tailor`: check and draft tailoring files, see what each reader of a catalog gets,
//! and serve any MCP server with its tools worded per reader (`mcp-tailor --help`).

/// Many small JSON trees per request: mimalloc makes and drops them for a fraction of
/// glibc's cost (BENCHMARKS.md §9).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    mcp_tailor_cli::main()
}
