//! `inspect eval` at scale: a 600-tool catalog (4 reader classes) × 1,000 tasks × 10 levels,
//! every catalog listed through the server's own pipeline, tokenized, indexed once and asked
//! every query with the Codex CLI's tool search; then one catalog's index and its 1,000
//! queries alone, and `tokens` (the listing and tokenizing `eval` shares) for comparison.
//!
//! `cargo bench -p mcp-tailor-tests --bench eval`

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tailor::inspect::eval::ToolSearch;
use std::hint::black_box;
use std::time::Duration;

include!(concat!(env!("OUT_DIR"), "/eval_catalog_600.rs"));

fn eval(c: &mut Criterion) {
    let server = eval_server();
    let mut text = String::new();
    for (query, expect) in EVAL_TASKS {
        text.push_str(&format!(
            "[[task]]\nquery = {query:?}\nexpect = {expect:?}\n\n"
        ));
    }
    let path =
        std::env::temp_dir().join(format!("mcp-tailor-eval-bench-{}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let args = ["eval", "--tasks", path.to_str().unwrap(), "--json"].map(str::to_owned);
    let run = || runtime.block_on(mcp_tailor::inspect::run(&server, args.clone()));
    // The tokenizer loads its vocabulary once per process; keep it out of the samples.
    mcp_tailor::inspect::count_tokens("warm up");
    let started = std::time::Instant::now();
    let outcome = run();
    println!("one eval (first run): {:?}", started.elapsed());
    let report: serde_json::Value = serde_json::from_str(&outcome.output).unwrap();
    let readers = report["readers"].as_object().unwrap();
    println!(
        "readers: {}, tasks: {}, levels per reader: {}",
        readers.len(),
        EVAL_TASKS.len(),
        readers["-"].as_array().unwrap().len()
    );
    let mut group = c.benchmark_group("eval_600_tools_1000_tasks");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(30));
    group.bench_function("eval", |b| b.iter(|| black_box(run())));
    // One distinct catalog: index 600 tools once, rank the 1,000 queries.
    let catalog = mcp_tailor::inspect::CallerCatalog::new(
        &server,
        mcp_tailor::server::Principal::anonymous(),
        "2025-11-25",
    );
    let class = mcp_tailor::inspect::ReaderClass::parse("-");
    let listing = runtime
        .block_on(mcp_tailor::inspect::eval::listings(&catalog, &class))
        .unwrap()
        .remove(9);
    group.bench_function("one_catalog_index_and_1000_queries", |b| {
        b.iter(|| {
            let search = ToolSearch::new(&listing.entries);
            for (query, _) in EVAL_TASKS {
                black_box(search.rank(query));
            }
        })
    });
    group.bench_function("tokens", |b| {
        b.iter(|| {
            black_box(runtime.block_on(mcp_tailor::inspect::run(&server, ["tokens".to_owned()])))
        })
    });
    group.finish();
    let _ = std::fs::remove_file(path);
}

criterion_group!(benches, eval);
criterion_main!(benches);
