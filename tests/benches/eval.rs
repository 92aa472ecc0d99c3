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
    let tasks = mcp_tailor::inspect::eval::Tasks::parse("bench.toml", &text).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let inspection = mcp_tailor::inspect::Inspection::new(
        &server,
        mcp_tailor::server::Principal::anonymous(),
        "2025-11-25",
    );
    // What `inspect eval --json` makes: the evaluation, its findings, its report.
    let run = || {
        let evaluation = runtime
            .block_on(inspection.eval(&tasks, None, &[mcp_tailor::inspect::eval::Search::Codex]))
            .unwrap()
            .remove(0);
        let findings: Vec<String> = mcp_tailor::inspect::eval::lost_at_terser_levels(&evaluation)
            .iter()
            .map(ToString::to_string)
            .collect();
        mcp_tailor::inspect::eval::json(&evaluation, &findings)
    };
    // The tokenizer loads its vocabulary once per process; keep it out of the samples.
    mcp_tailor::inspect::count_tokens("warm up");
    let started = std::time::Instant::now();
    let report = run();
    println!("one eval (first run): {:?}", started.elapsed());
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
    let catalog = inspection.catalog();
    let class = mcp_tailor::inspect::ReaderClass::parse("-");
    let listing = runtime
        .block_on(mcp_tailor::inspect::eval::listings(catalog, &class))
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
        b.iter(|| black_box(runtime.block_on(inspection.tokens()).unwrap().to_string()))
    });
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
