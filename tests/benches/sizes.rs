//! Sizes, not times: bytes of static tables per tailored description, and bytes of a
//! `tools/list` of the benchmark catalog at levels 0, 5 and 9 (the saving a terse level
//! buys). Deterministic: run once.
//!
//! `cargo bench -p mcp-tailor-tests --bench sizes`

#![allow(missing_docs, dead_code)]

use mcp_tailor::server::rmcp::handler::server::wrapper::Parameters;
use mcp_tailor::server::{CallContext, RequestInfo};
use mcp_tailor::{McpTool, description};

#[path = "shared/descriptions.rs"]
mod descriptions;
use descriptions::{LEVELS, LEVELS_VMAP, RUNNERS};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

include!(concat!(env!("OUT_DIR"), "/bench_catalog.rs"));

fn main() {
    println!("static table bytes per description (texts excluded):");
    println!(
        "  bare                      {:>5}",
        description!(description = "x").table_bytes()
    );
    println!("  3 levels                  {:>5}", LEVELS.table_bytes());
    println!(
        "  levels + vmap             {:>5}",
        LEVELS_VMAP.table_bytes()
    );
    println!("  4 runners + vmap + levels {:>5}", RUNNERS.table_bytes());
    let tailored = (0..100).step_by(2).count();
    let bench_tables: usize = [Tool0::def(), Tool2::def(), Tool4::def()]
        .iter()
        .map(|d| {
            d.description().table_bytes()
                + d.fields()
                    .iter()
                    .map(|(_, f)| f.table_bytes())
                    .sum::<usize>()
        })
        .sum::<usize>()
        / 3;
    println!(
        "  a tailored benchmark tool (description + 1 field) {bench_tables:>5}; {tailored} such tools"
    );

    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let server = built();
    println!("tools/list bytes, benchmark catalog (100 tools, half tailored):");
    for level in [0u8, 5, 9] {
        let info = RequestInfo {
            meta: std::sync::Arc::new(
                serde_json::json!({ "mcp-tailor.dev/verbosity": level })
                    .as_object()
                    .unwrap()
                    .clone(),
            ),
            ..RequestInfo::default()
        };
        let result = runtime.block_on(server.list_tools_for(info, None)).unwrap();
        println!(
            "  level {level}: {:>7}",
            serde_json::to_vec(&result).unwrap().len()
        );
    }
    let rmcp = serde_json::to_vec(
        &mcp_tailor::server::rmcp::model::ListToolsResult::with_all_items(
            RmcpServer::tool_router().list_all(),
        ),
    )
    .unwrap();
    println!("  rmcp (one wording): {:>7}", rmcp.len());
}
