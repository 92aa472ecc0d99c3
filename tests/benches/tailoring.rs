//! Loading a tailoring file: a generated 1,000-tool file (every tool tailored by level, for
//! two runners, with two described arguments), read and checked by every rule
//! (`Tailoring::from_toml_str`, what `mcp-tailor check` does after reading the file), beside
//! the TOML parse alone, in one run.
//!
//! `cargo bench -p mcp-tailor-tests --bench tailoring`

#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// `tools` tools, each a full description table and two arguments.
fn file(tools: usize) -> String {
    (0..tools)
        .map(|i| {
            format!(
                r#"[tools.tool_{i}.description]
levels = [{{ verbosity = 0, text = "T{i}." }}, {{ verbosity = "3..=6", text = "Tool {i} does its thing." }}, {{ verbosity = [8, 9], text = "Tool {i} does its thing, with every detail a frontier model can use." }}]
default = "Tool {i}."
default_verbosity = 4
descriptions = {{ codex_v = "tool_{i}(a, b?) -> result", grok_v = "Tool {i}: plain words only." }}
runners = [{{ runner = "codex", model = "_", default = "codex_v" }}, {{ runner = "grok", model = ["4", "4-fast"], levels = [{{ verbosity = "0..=9", tag = "grok_v" }}] }}]
allow = ["dead_variants"]
[tools.tool_{i}.arguments.a]
description = {{ levels = [{{ verbosity = 0, text = "a" }}, {{ verbosity = 9, text = "The first argument of tool {i}." }}] }}
[tools.tool_{i}.arguments.b]
description = "How many, at most."
"#
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let source = file(1_000);
    let loaded = mcp_tailor::Tailoring::from_toml_str(&source).expect("valid");
    assert_eq!(loaded.tools().count(), 1_000);
    assert!(loaded.warnings().is_empty());
    let mut group = c.benchmark_group("tailoring file, 1,000 tools");
    group.throughput(Throughput::Bytes(source.len() as u64));
    group.sample_size(20);
    group.bench_function("toml parse only", |b| {
        b.iter(|| black_box(toml::de::DeTable::parse(black_box(&source)).is_ok()))
    });
    group.bench_function("load and check", |b| {
        b.iter(|| black_box(mcp_tailor::Tailoring::from_toml_str(black_box(&source)).is_ok()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
