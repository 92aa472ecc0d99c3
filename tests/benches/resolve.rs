//! `Description::resolve` (static tables the macro finished) against an interpretive
//! resolver: the same descriptions as plain `Vec`/`BTreeMap` data, with gap-fill and runner
//! specificity computed on every call — the way a straightforward port of the reference
//! library works. Same descriptions, same mix of contexts, side by side in one run.
//!
//! `cargo bench -p mcp-tailor-tests --bench resolve`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_tailor::{Description, RenderCtx};

#[path = "shared/descriptions.rs"]
mod descriptions;
use descriptions::{BARE, LEVELS, LEVELS_VMAP, RUNNERS};
use std::collections::BTreeMap;
use std::hint::black_box;

/// An interpretive description: what a direct port keeps at run time.
#[derive(Default)]
struct Interpretive {
    bare: Option<&'static str>,
    levels: BTreeMap<u8, &'static str>,
    default: Option<&'static str>,
    default_verbosity: Option<u8>,
    variants: BTreeMap<&'static str, &'static str>,
    vmap: BTreeMap<u8, &'static str>,
    runners: Vec<Runner>,
}

struct Runner {
    runner: Option<&'static str>,
    model: Model,
    levels: BTreeMap<u8, &'static str>,
    default: Option<&'static str>,
}

enum Model {
    Any,
    Exact(&'static str),
    List(Vec<&'static str>),
}

/// Gap-fill on every call: the covered level nearest to `level`, the lower on a tie.
fn gap_fill<'m>(map: &'m BTreeMap<u8, &'static str>, level: u8) -> Option<&'m &'static str> {
    map.get(&level).or_else(|| {
        map.iter()
            .min_by_key(|(covered, _)| (covered.abs_diff(level), **covered))
            .map(|(_, v)| v)
    })
}

impl Interpretive {
    fn resolve(&self, ctx: &RenderCtx<'_>) -> Option<&'static str> {
        if let Some(text) = self.bare {
            return Some(text);
        }
        let level = ctx.effective_level(self.default_verbosity);
        let (runner, model) = (ctx.runner_name(), ctx.model_name());
        let mut best: Option<((u8, u8), &Runner)> = None;
        for rule in &self.runners {
            let runner_ok = rule.runner.is_none_or(|p| runner == Some(p));
            let (model_ok, score) = match &rule.model {
                Model::Any => (true, 0),
                Model::Exact(m) => (model == Some(*m), 2),
                Model::List(list) => (model.is_some_and(|m| list.contains(&m)), 1),
            };
            if runner_ok && model_ok {
                let key = (score, u8::from(rule.runner.is_some()));
                if best.is_none_or(|(b, _)| key > b) {
                    best = Some((key, rule));
                }
            }
        }
        if let Some((_, rule)) = best {
            let tag = if rule.levels.is_empty() {
                rule.default
            } else {
                gap_fill(&rule.levels, level).copied()
            };
            if let Some(tag) = tag {
                return self.variants.get(tag).copied();
            }
        }
        if !self.vmap.is_empty() {
            return gap_fill(&self.vmap, level).and_then(|tag| self.variants.get(tag).copied());
        }
        if !self.levels.is_empty() {
            return gap_fill(&self.levels, level).copied();
        }
        self.default
    }
}

fn interpretive() -> [Interpretive; 4] {
    let levels = || BTreeMap::from([(0, "Search."), (9, "Search the notes, in full.")]);
    let variants = || {
        BTreeMap::from([
            ("short", "Search notes."),
            ("long", "Search every note by text."),
            ("codex", "search(query) (codex)"),
            ("spark", "search(query) (spark)"),
            ("grok_lo", "Search: plain words."),
            ("grok_hi", "Search notes with plain words; no operators."),
            ("claude", "Search notes (claude)."),
        ])
    };
    let vmap = || {
        BTreeMap::from([
            (0, "short"),
            (1, "short"),
            (2, "short"),
            (3, "short"),
            (7, "long"),
            (8, "long"),
            (9, "long"),
        ])
    };
    [
        Interpretive {
            bare: Some("Search the notes."),
            ..Interpretive::default()
        },
        Interpretive {
            levels: BTreeMap::from([
                (0, "Search."),
                (4, "Search the notes."),
                (9, "Search the notes, in full."),
            ]),
            ..Interpretive::default()
        },
        Interpretive {
            levels: levels(),
            variants: variants(),
            vmap: vmap(),
            ..Interpretive::default()
        },
        Interpretive {
            levels: levels(),
            variants: variants(),
            vmap: vmap(),
            runners: vec![
                Runner {
                    runner: Some("codex"),
                    model: Model::Any,
                    levels: BTreeMap::new(),
                    default: Some("codex"),
                },
                Runner {
                    runner: Some("codex"),
                    model: Model::List(vec!["spark", "5.4-mini"]),
                    levels: BTreeMap::new(),
                    default: Some("spark"),
                },
                Runner {
                    runner: Some("grok"),
                    model: Model::Any,
                    levels: BTreeMap::from([
                        (0, "grok_lo"),
                        (1, "grok_lo"),
                        (2, "grok_lo"),
                        (3, "grok_lo"),
                        (8, "grok_hi"),
                    ]),
                    default: None,
                },
                Runner {
                    runner: Some("claude-code"),
                    model: Model::Exact("opus"),
                    levels: BTreeMap::new(),
                    default: Some("claude"),
                },
            ],
            ..Interpretive::default()
        },
    ]
}

/// The mix of readers every case resolves for.
fn contexts() -> Vec<RenderCtx<'static>> {
    vec![
        RenderCtx::default(),
        RenderCtx::new().verbosity(0),
        RenderCtx::new().verbosity(9),
        RenderCtx::new().runner("codex").model("5.4"),
        RenderCtx::new().runner("codex").model("spark").verbosity(2),
        RenderCtx::new().runner("grok").verbosity(6),
        RenderCtx::new().runner("claude-code").model("opus"),
        RenderCtx::new()
            .runner("cursor")
            .model("x")
            .fallback_verbosity(3),
    ]
}

fn bench(c: &mut Criterion) {
    let statics: [(&str, &Description); 4] = [
        ("bare", &BARE),
        ("levels", &LEVELS),
        ("levels+vmap", &LEVELS_VMAP),
        ("4 runners+vmap+levels", &RUNNERS),
    ];
    let interpretive = interpretive();
    let contexts = contexts();
    // Both resolvers agree on every case before anything is timed.
    for ((name, d), i) in statics.iter().zip(&interpretive) {
        for ctx in &contexts {
            assert_eq!(d.resolve(ctx), i.resolve(ctx), "{name} {ctx:?}");
        }
    }
    let mut group = c.benchmark_group("resolve");
    group.throughput(Throughput::Elements(contexts.len() as u64));
    for ((name, d), i) in statics.iter().zip(&interpretive) {
        group.bench_with_input(
            BenchmarkId::new("static", name),
            &contexts,
            |b, contexts| {
                b.iter(|| {
                    for ctx in contexts {
                        black_box(d.resolve(black_box(ctx)));
                    }
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("interpretive", name),
            &contexts,
            |b, contexts| {
                b.iter(|| {
                    for ctx in contexts {
                        black_box(i.resolve(black_box(ctx)));
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
