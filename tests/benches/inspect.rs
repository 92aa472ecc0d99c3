//! `inspect tokens` and `inspect matrix` on a 200-tool catalog (every other tool tailored by
//! level and for codex, codex/5.4 and grok): every reader class × 10 levels, each catalog
//! listed through the server's own pipeline and tokenized with `o200k_base`.
//!
//! `cargo bench -p mcp-tailor-tests --bench inspect`

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

include!(concat!(env!("OUT_DIR"), "/inspect_catalog.rs"));

fn inspect(c: &mut Criterion) {
    let server = inspect_server();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let inspection = mcp_tailor::inspect::Inspection::new(
        &server,
        mcp_tailor::server::Principal::anonymous(),
        "2025-11-25",
    );
    let tokens = || runtime.block_on(inspection.tokens()).unwrap().to_string();
    let lint = || inspection.lint(&Default::default());
    // The tokenizer loads its vocabulary once per process; measure it on its own.
    let started = std::time::Instant::now();
    mcp_tailor::inspect::count_tokens("warm up");
    println!("o200k_base vocabulary load: {:?}", started.elapsed());
    println!(
        "readers: {}",
        tokens()
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
            .count()
    );
    let mut group = c.benchmark_group("inspect_200_tools");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("tokens", |b| b.iter(|| black_box(tokens())));
    group.bench_function("lint", |b| b.iter(|| black_box(lint())));
    group.finish();
}

criterion_group!(benches, inspect);
criterion_main!(benches);
