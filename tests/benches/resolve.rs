//! `Description::resolve` against a hand-written `match` and an interpretive resolver, on
//! the same descriptions, the same mix of contexts, side by side in one run:
//!
//! * `static` — the tables `description!` builds in place (what `#[mcp_tool]` emitted
//!   before it packed one table per tool);
//! * `packed` — the same descriptions declared on `#[mcp_tool]` structs, resolved through
//!   the tables their packed constant decodes into on first use;
//! * `match` — the answer written out by hand as a `match` on runner, model and level;
//! * `file` — the same descriptions as a tailoring file's tables, built at run time and
//!   owned (`Tailoring`), resolved by the same code as `static`;
//! * `interpretive` — the same descriptions as plain `Vec`/`BTreeMap` data, with gap-fill
//!   and runner specificity computed on every call, as a direct port of the reference
//!   library does.
//!
//! `cargo bench -p mcp-tailor-tests --bench resolve`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_tailor::{Description, McpTool, RenderCtx};

#[path = "shared/descriptions.rs"]
mod descriptions;
use descriptions::{
    BARE, BareTool, LEVELS, LEVELS_VMAP, LevelsTool, LevelsVmapTool, RUNNERS, RunnersTool,
};
use std::collections::BTreeMap;
use std::hint::black_box;

/// The four descriptions written out by hand: gap-fill and specificity already applied,
/// as a `match` a careful author would write for each.
fn by_hand(shape: usize, ctx: &RenderCtx<'_>) -> Option<&'static str> {
    let vmap = |level: u8| {
        Some(if level <= 5 {
            "Search notes."
        } else {
            "Search every note by text."
        })
    };
    match shape {
        0 => Some("Search the notes."),
        1 => Some(match ctx.effective_level(None) {
            0..=2 => "Search.",
            3..=6 => "Search the notes.",
            _ => "Search the notes, in full.",
        }),
        2 => vmap(ctx.effective_level(None)),
        _ => match (ctx.runner_name(), ctx.model_name()) {
            (Some("claude-code"), Some("opus")) => Some("Search notes (claude)."),
            (Some("codex"), Some("spark" | "5.4-mini")) => Some("search(query) (spark)"),
            (Some("codex"), _) => Some("search(query) (codex)"),
            (Some("grok"), _) if ctx.effective_level(None) <= 5 => Some("Search: plain words."),
            (Some("grok"), _) => Some("Search notes with plain words; no operators."),
            _ => vmap(ctx.effective_level(None)),
        },
    }
}

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
    let packed: [&Description; 4] = [
        BareTool::def().description(),
        LevelsTool::def().description(),
        LevelsVmapTool::def().description(),
        RunnersTool::def().description(),
    ];
    let interpretive = interpretive();
    let file = mcp_tailor::Tailoring::from_toml_str(descriptions::FILE).expect("valid");
    let owned: Vec<Description> = ["bare", "levels", "levels_vmap", "runners"]
        .iter()
        .map(|name| file.tool(name).unwrap().description().unwrap().clone())
        .collect();
    let contexts = contexts();
    // Every resolver agrees on every case before anything is timed: the benchmark's
    // contexts, and every level for every runner and model the descriptions name.
    let mut every = contexts.clone();
    for (runner, model) in [
        (None, None),
        (Some("codex"), Some("spark")),
        (Some("codex"), Some("5.4-mini")),
        (Some("codex"), None),
        (Some("grok"), None),
        (Some("claude-code"), Some("opus")),
        (Some("claude-code"), None),
    ] {
        for level in 0..=9 {
            let mut ctx = RenderCtx::new().verbosity(level);
            if let Some(runner) = runner {
                ctx = ctx.runner(runner);
            }
            if let Some(model) = model {
                ctx = ctx.model(model);
            }
            every.push(ctx);
        }
    }
    for (shape, ((name, d), i)) in statics.iter().zip(&interpretive).enumerate() {
        for ctx in &every {
            let want = d.resolve(ctx);
            assert_eq!(packed[shape].resolve(ctx), want, "packed {name} {ctx:?}");
            assert_eq!(by_hand(shape, ctx), want, "match {name} {ctx:?}");
            assert_eq!(i.resolve(ctx), want, "interpretive {name} {ctx:?}");
            assert_eq!(owned[shape].resolve(ctx), want, "file {name} {ctx:?}");
        }
    }
    let mut group = c.benchmark_group("resolve");
    group.throughput(Throughput::Elements(contexts.len() as u64));
    for (shape, ((name, d), i)) in statics.iter().zip(&interpretive).enumerate() {
        group.bench_with_input(
            BenchmarkId::new("packed", name),
            &contexts,
            |b, contexts| {
                b.iter(|| {
                    for ctx in contexts {
                        black_box(packed[shape].resolve(black_box(ctx)));
                    }
                })
            },
        );
        group.bench_with_input(BenchmarkId::new("match", name), &contexts, |b, contexts| {
            b.iter(|| {
                for ctx in contexts {
                    black_box(by_hand(shape, black_box(ctx)));
                }
            })
        });
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
        group.bench_with_input(BenchmarkId::new("file", name), &contexts, |b, contexts| {
            b.iter(|| {
                for ctx in contexts {
                    black_box(owned[shape].resolve(black_box(ctx)));
                }
            })
        });
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
