//! A tailored `tools/list` against rmcp's untailored listing of the same 100 tools
//! (3 fields each; every other tool tailored), side by side in one run:
//!
//! * `tailored`: the full mcp-tailor path — request info → reader → render context →
//!   visible, rendered, presented page → JSON bytes;
//! * `rmcp_prebuilt`: a prebuilt `#[tool_router]` router's `list_all()` → JSON bytes;
//! * `rmcp_default_handler`: what `#[tool_handler]` does by default — rebuild the router
//!   (`Self::tool_router()`) on every request, then `list_all()` → JSON bytes.
//!
//! Before timing, it prints the heap allocations of one request on each path.
//!
//! `cargo bench -p mcp-tailor-tests --bench listing`

#![allow(missing_docs, dead_code)]

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tailor::server::rmcp::handler::server::wrapper::Parameters;
use mcp_tailor::server::rmcp::model::ListToolsResult;
use mcp_tailor::server::{CallContext, RequestInfo};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

include!(concat!(env!("OUT_DIR"), "/bench_catalog.rs"));

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn request(client: &str) -> RequestInfo {
    RequestInfo {
        protocol_version: Some("2025-11-25".into()),
        client_name: Some(client.into()),
        ..RequestInfo::default()
    }
}

fn allocations_of(mut f: impl FnMut()) -> usize {
    f(); // warm caches (schemas, rendered variants)
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let server = built();
    let router = RmcpServer::tool_router();

    let tailored = |client: &str| {
        let info = request(client);
        let result = runtime.block_on(server.list_tools_for(info, None)).unwrap();
        serde_json::to_vec(&result).unwrap()
    };
    let prebuilt =
        || serde_json::to_vec(&ListToolsResult::with_all_items(router.list_all())).unwrap();
    let default_handler = || {
        serde_json::to_vec(&ListToolsResult::with_all_items(
            RmcpServer::tool_router().list_all(),
        ))
        .unwrap()
    };

    // The same tools, the same schemas (apart from tailored words).
    let ours: serde_json::Value = serde_json::from_slice(&tailored("some-client")).unwrap();
    let theirs: serde_json::Value = serde_json::from_slice(&prebuilt()).unwrap();
    assert_eq!(ours["tools"].as_array().unwrap().len(), 100);
    assert_eq!(theirs["tools"].as_array().unwrap().len(), 100);

    println!(
        "allocations per request: tailored(codex) {}, tailored(anyone) {}, rmcp prebuilt {}, rmcp default handler {}",
        allocations_of(|| drop(black_box(tailored("codex")))),
        allocations_of(|| drop(black_box(tailored("some-client")))),
        allocations_of(|| drop(black_box(prebuilt()))),
        allocations_of(|| drop(black_box(default_handler()))),
    );
    println!(
        "bytes per response: tailored(codex) {}, tailored(anyone) {}, rmcp {}",
        tailored("codex").len(),
        tailored("some-client").len(),
        prebuilt().len()
    );

    let mut group = c.benchmark_group("tools_list_100");
    group.bench_function("tailored", |b| {
        b.iter(|| black_box(tailored(black_box("codex"))))
    });
    group.bench_function("rmcp_prebuilt", |b| b.iter(|| black_box(prebuilt())));
    group.bench_function("rmcp_default_handler", |b| {
        b.iter(|| black_box(default_handler()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
