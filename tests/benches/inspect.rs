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
    let run =
        |command: &str| runtime.block_on(mcp_tailor::inspect::run(&server, [command.to_owned()]));
    // The tokenizer loads its vocabulary once per process; measure it on its own.
    let started = std::time::Instant::now();
    mcp_tailor::inspect::count_tokens("warm up");
    println!("o200k_base vocabulary load: {:?}", started.elapsed());
    let tokens = run("tokens");
    assert!(tokens.success);
    println!(
        "readers: {}",
        tokens
            .output
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
            .count()
    );
    let mut group = c.benchmark_group("inspect_200_tools");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("tokens", |b| b.iter(|| black_box(run("tokens"))));
    group.bench_function("lint", |b| b.iter(|| black_box(run("lint"))));
    group.finish();
}

criterion_group!(benches, inspect);
criterion_main!(benches);
