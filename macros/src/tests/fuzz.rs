//! A fuzzer for the whole macro pipeline, on stable Rust: `proc_macro2` works outside the
//! compiler, so `#[mcp_tool]`, `#[mcp_args]` and `description!` run in-process on generated
//! input.
//!
//! Three kinds of input, each driven through both entry points with panics caught:
//! grammar-aware attributes (every DSL form, with wrong values, keys, levels, tags and
//! texts mixed in), mutations of them (tokens dropped, doubled, swapped, replaced, groups
//! re-delimited), and raw token noise. The property: the macro never panics — every
//! input yields tokens (the expansion, or the struct plus compile errors).
//!
//! `cargo test -p mcp-tailor-macros --release fuzz -- --nocapture` runs 20,000 inputs;
//! `MCP_TAILOR_FUZZ_RUNS=1000000` runs a million; `MCP_TAILOR_FUZZ_SEED` replays a run.

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// `oorandom`'s seedable generator, with the draws the fuzzer makes.
pub(super) struct Rng(pub(super) oorandom::Rand64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.rand_range(0..n.max(1) as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A level, a range, or a set — now and then out of domain, inverted or exclusive.
fn level_spec(rng: &mut Rng) -> String {
    let level = |rng: &mut Rng| {
        if rng.chance(12) {
            ["10", "-1", "255", "3.5", "\"3\"", "x"][rng.below(6)].to_owned()
        } else {
            rng.below(10).to_string()
        }
    };
    match rng.below(4) {
        0 => level(rng),
        1 => format!("{}..={}", level(rng), level(rng)),
        2 if rng.chance(4) => format!("{}..{}", level(rng), level(rng)),
        _ => {
            let n = rng.below(4);
            let members: Vec<String> = (0..n).map(|_| level(rng)).collect();
            format!("[{}]", members.join(", "))
        }
    }
}

fn text(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => "\"\"".into(),
        1 => "\"   \"".into(),
        2 => "concat!(\"a\", \"b\")".into(),
        3 => "include_str!(\"nope.txt\")".into(),
        4 => "SOME_CONST".into(),
        5 => "5".into(),
        6 => "\"ünïcödé 😀\"".into(),
        _ => format!("\"text {}\"", rng.below(50)),
    }
}

fn tag(rng: &mut Rng) -> String {
    let tags = ["a", "b", "c", "\"a\"", "\"hippo-5\"", "nope", "_", "3"];
    rng.pick(&tags).to_string()
}

fn matcher(rng: &mut Rng) -> String {
    let names = [
        "_",
        "codex",
        "grok",
        "\"5.4\"",
        "5.4",
        "spark",
        "[spark, \"5.4\"]",
        "[]",
        "(a)",
    ];
    rng.pick(&names).to_string()
}

/// A description list, a bare text, or something that is neither.
fn description_value(rng: &mut Rng) -> String {
    if rng.chance(4) {
        return text(rng);
    }
    let mut entries = Vec::new();
    for _ in 0..rng.below(5) {
        entries.push(match rng.below(8) {
            0 => format!("default = {}", text(rng)),
            1 => format!("default_verbosity = {}", level_spec(rng)),
            2 => format!("(loudness({}), {})", level_spec(rng), text(rng)),
            3 => format!("({}, {})", level_spec(rng), text(rng)),
            4 => "junk".into(),
            _ => format!("(verbosity({}), {})", level_spec(rng), text(rng)),
        });
    }
    format!("[{}]", entries.join(", "))
}

fn rules(rng: &mut Rng) -> String {
    let mut entries = Vec::new();
    for _ in 0..rng.below(4) {
        entries.push(match rng.below(5) {
            0 => format!("default = {}", tag(rng)),
            1 => format!("(loud({}), {})", level_spec(rng), tag(rng)),
            _ => format!("(verbosity({}), {})", level_spec(rng), tag(rng)),
        });
    }
    format!("[{}]", entries.join(", "))
}

/// Fewer than `n` items made by `item`, comma-separated.
fn up_to(rng: &mut Rng, n: usize, mut item: impl FnMut(&mut Rng) -> String) -> String {
    let count = rng.below(n);
    (0..count).map(|_| item(rng)).collect::<Vec<_>>().join(", ")
}

/// The keys shared by tools, fields and `description!`, in any order, some misspelt.
fn description_keys(rng: &mut Rng) -> Vec<String> {
    let mut keys = Vec::new();
    for _ in 0..rng.below(6) {
        keys.push(match rng.below(9) {
            0 => format!("description = {}", description_value(rng)),
            1 => format!(
                "descriptions = [{}]",
                up_to(rng, 4, |rng| format!("{} = {}", tag(rng), text(rng)))
            ),
            2 => format!(
                "verbosity_map = [{}]",
                up_to(rng, 3, |rng| format!("({}, {})", level_spec(rng), tag(rng)))
            ),
            3 => format!(
                "runners = [{}]",
                up_to(rng, 3, |rng| format!(
                    "(({}, {}), {})",
                    matcher(rng),
                    matcher(rng),
                    rules(rng)
                ))
            ),
            4 => format!("descriptoins = {}", text(rng)),
            5 => "runners".into(),
            _ => format!("description = {}", description_value(rng)),
        });
    }
    keys
}

/// Distinct levels, as `verbosity(…)` specs covering them (single levels, ranges, sets).
fn distinct_specs(rng: &mut Rng, count: usize) -> Vec<String> {
    let mut levels: Vec<usize> = (0..10).collect();
    for i in (1..levels.len()).rev() {
        levels.swap(i, rng.below(i + 1));
    }
    let mut specs = Vec::new();
    let mut taken = levels.into_iter().take(count.min(10)).collect::<Vec<_>>();
    while !taken.is_empty() {
        let n = 1 + rng.below(taken.len().min(3));
        let mut group: Vec<usize> = taken.drain(..n).collect();
        group.sort_unstable();
        let contiguous = group.windows(2).all(|w| w[1] == w[0] + 1);
        specs.push(match (group.len(), contiguous) {
            (1, _) => group[0].to_string(),
            (_, true) => format!("{}..={}", group[0], group[group.len() - 1]),
            _ => format!(
                "[{}]",
                group
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    specs
}

/// Keys that are all valid together: every tag declared, no level twice in one table.
fn valid_description_keys(rng: &mut Rng) -> Vec<String> {
    let mut keys = Vec::new();
    let tags: Vec<String> = (0..rng.below(4)).map(|i| format!("t{i}")).collect();
    let word = |rng: &mut Rng| format!("\"word {}\"", rng.below(40));
    if rng.chance(2) {
        let mut entries: Vec<String> = {
            let n = rng.below(5);
            distinct_specs(rng, n)
        }
        .into_iter()
        .map(|spec| format!("(verbosity({spec}), {})", word(&mut *rng)))
        .collect();
        if rng.chance(2) {
            entries.push(format!("default = {}", word(rng)));
        }
        if rng.chance(3) {
            entries.push(format!("default_verbosity = {}", rng.below(10)));
        }
        keys.push(format!("description = [{}]", entries.join(", ")));
    } else if rng.chance(2) {
        keys.push(format!("description = {}", word(rng)));
    }
    if tags.is_empty() {
        return keys;
    }
    let variants: Vec<String> = tags
        .iter()
        .map(|t| format!("{t} = {}", word(rng)))
        .collect();
    keys.push(format!("descriptions = [{}]", variants.join(", ")));
    if rng.chance(2) {
        let entries: Vec<String> = {
            let n = 1 + rng.below(4);
            distinct_specs(rng, n)
        }
        .into_iter()
        .map(|spec| format!("({spec}, {})", rng.pick(&tags)))
        .collect();
        keys.push(format!("verbosity_map = [{}]", entries.join(", ")));
    }
    let matchers = ["_", "codex", "grok", "\"claude-code\""];
    let models = ["_", "spark", "\"5.4\"", "[spark, \"5.4\"]"];
    let mut runners = Vec::new();
    for _ in 0..rng.below(4) {
        let rules: Vec<String> = if rng.chance(2) {
            vec![format!("default = {}", rng.pick(&tags))]
        } else {
            {
                let n = 1 + rng.below(4);
                distinct_specs(rng, n)
            }
            .into_iter()
            .map(|spec| format!("(verbosity({spec}), {})", rng.pick(&tags)))
            .collect()
        };
        runners.push(format!(
            "(({}, {}), [{}])",
            rng.pick(&matchers),
            rng.pick(&models),
            rules.join(", ")
        ));
    }
    if !runners.is_empty() {
        keys.push(format!("runners = [{}]", runners.join(", ")));
    }
    keys
}

fn tool_attr(rng: &mut Rng) -> String {
    if rng.chance(2) {
        return valid_description_keys(rng).join(", ");
    }
    let mut keys = description_keys(rng);
    for _ in 0..rng.below(3) {
        keys.push(match rng.below(6) {
            0 => format!(
                "name = \"{}\"",
                ["search", "bad name!", "", "a.b-c_d"][rng.below(4)]
            ),
            1 => format!("title = {}", description_value(rng)),
            2 => [
                "annotations(read_only_hint = true, title = \"T\")",
                "annotations(destructive_hint = \"yes\", idempotent_hint)",
                "annotations(open_world_hint = false, open_world_hint = true)",
            ][rng.below(3)]
            .into(),
            3 => "annotations(bogus = 1)".into(),
            4 => "scopes = [\"a\", \"b\" | \"c\"]".into(),
            _ => "scopes = 5".into(),
        });
    }
    keys.join(", ")
}

fn item(rng: &mut Rng) -> String {
    let field = |rng: &mut Rng| {
        let keys = if rng.chance(2) {
            valid_description_keys(rng)
        } else {
            description_keys(rng)
        };
        // Sometimes a second `#[mcp]` (read with the first as one list), or one that is
        // not a list at all.
        let extra = match rng.below(8) {
            0 => "#[mcp(allow(dead_variants))]",
            1 => "#[mcp(description = \"again\")]",
            2 => "#[mcp]",
            3 => "#[mcp = \"x\"]",
            _ => "",
        };
        format!(
            "#[mcp({})] {extra} {} field_{}: String,",
            keys.join(", "),
            if rng.chance(3) {
                "#[serde(rename = \"x\")]"
            } else {
                ""
            },
            rng.below(3)
        )
    };
    match rng.below(16) {
        0 => "struct Tuple(#[mcp(description = \"x\")] u8);".into(),
        1 => "enum E { A }".into(),
        2 => "struct G<T> { t: T }".into(),
        _ => {
            let n = rng.below(3);
            let fields: Vec<String> = (0..n).map(|_| field(rng)).collect();
            format!(
                "/// Doc.\n#[derive(serde::Deserialize)] {} struct S {{ {} }}",
                if rng.chance(4) {
                    "#[serde(rename_all = \"camelCase\")]"
                } else {
                    ""
                },
                fields.join(" ")
            )
        }
    }
}

fn noise_tree(rng: &mut Rng, depth: usize) -> TokenTree {
    let span = Span::call_site();
    match rng.below(if depth > 4 { 4 } else { 6 }) {
        0 => TokenTree::Ident(Ident::new(
            rng.pick::<&str>(&[
                "verbosity",
                "default",
                "runners",
                "a",
                "_x",
                "description",
                "concat",
            ]),
            span,
        )),
        1 => TokenTree::Punct(Punct::new(
            *rng.pick(&['=', ',', '.', '|', '-', '#', '!', ':', '?']),
            if rng.chance(2) {
                Spacing::Alone
            } else {
                Spacing::Joint
            },
        )),
        2 => TokenTree::Literal(match rng.below(4) {
            0 => Literal::string(rng.pick::<&str>(&["", " ", "t", "x\ny"])),
            1 => Literal::u64_unsuffixed(rng.below(300) as u64),
            2 => Literal::f64_unsuffixed(1.5),
            _ => Literal::character('c'),
        }),
        3 => TokenTree::Ident(Ident::new("_", span)),
        _ => {
            let delimiter = *rng.pick(&[
                Delimiter::Parenthesis,
                Delimiter::Bracket,
                Delimiter::Brace,
                Delimiter::None,
            ]);
            let n = rng.below(5);
            let inner: TokenStream = (0..n).map(|_| noise_tree(rng, depth + 1)).collect();
            TokenTree::Group(Group::new(delimiter, inner))
        }
    }
}

/// Drops, doubles, swaps, replaces tokens and re-delimits groups, at every depth.
fn mutate(tokens: TokenStream, rng: &mut Rng) -> TokenStream {
    let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
    for _ in 0..=rng.below(3) {
        if trees.is_empty() {
            break;
        }
        let i = rng.below(trees.len());
        match rng.below(5) {
            0 => {
                trees.remove(i);
            }
            1 => trees.insert(i, trees[i].clone()),
            2 => {
                let j = rng.below(trees.len());
                trees.swap(i, j);
            }
            3 => trees[i] = noise_tree(rng, 3),
            _ => {
                if let TokenTree::Group(group) = &trees[i] {
                    let delimiter =
                        *rng.pick(&[Delimiter::Parenthesis, Delimiter::Bracket, Delimiter::None]);
                    let inner = mutate(group.stream(), rng);
                    trees[i] = TokenTree::Group(Group::new(delimiter, inner));
                }
            }
        }
    }
    trees.into_iter().collect()
}

/// One input: the tool attribute, the item, and `description!`'s input.
pub(super) fn input(rng: &mut Rng) -> (TokenStream, TokenStream, TokenStream) {
    let parse = |s: String| s.parse::<TokenStream>().unwrap_or_default();
    let mut attr = parse(tool_attr(rng));
    let mut item = parse(item(rng));
    let mut desc = parse(if rng.chance(2) {
        valid_description_keys(rng).join(", ")
    } else {
        description_keys(rng).join(", ")
    });
    match rng.below(6) {
        0..=2 => {}
        3 => {
            attr = mutate(attr, rng);
            desc = mutate(desc, rng);
        }
        4 => item = mutate(item, rng),
        _ => {
            let n = rng.below(12);
            attr = (0..n).map(|_| noise_tree(rng, 0)).collect();
            desc = (0..n).map(|_| noise_tree(rng, 0)).collect();
        }
    }
    (attr, item, desc)
}

/// How many inputs a fuzz run draws: `MCP_TAILOR_FUZZ_RUNS`, or 20,000.
pub(super) fn runs() -> usize {
    std::env::var("MCP_TAILOR_FUZZ_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

#[test]
fn fuzz_the_macro_pipeline_never_panics() {
    let runs = runs();
    let seed: u64 = std::env::var("MCP_TAILOR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_CAFE_F00D_0001);
    let mut rng = Rng(oorandom::Rand64::new(u128::from(seed)));
    // Panics are the finding; keep their messages off the output.
    std::panic::set_hook(Box::new(|_| {}));
    let started = std::time::Instant::now();
    let mut panics = Vec::new();
    let (mut tools_ok, mut descriptions_ok) = (0usize, 0usize);
    for run in 0..runs {
        let (attr, item, desc) = input(&mut rng);
        let outcome = std::panic::catch_unwind(|| {
            let tool = crate::entry::tool(attr.clone(), item.clone()).to_string();
            // The same struct as an argument type: its fields' `#[mcp]` through `#[mcp_args]`.
            let _ = crate::entry::args(TokenStream::new(), item.clone());
            let description = crate::entry::description(desc.clone()).to_string();
            (
                tool.contains("compile_error"),
                description.contains("compile_error"),
            )
        });
        match outcome {
            Ok((tool_errored, description_errored)) => {
                tools_ok += usize::from(!tool_errored);
                descriptions_ok += usize::from(!description_errored);
            }
            Err(_) => panics.push(format!(
                "run {run}: attr `{attr}` item `{item}` desc `{desc}`"
            )),
        }
    }
    let _ = std::panic::take_hook();
    println!(
        "fuzz: {runs} inputs (seed {seed:#x}) in {:.1?}: {tools_ok} tools and {descriptions_ok} \
         descriptions expanded without errors, the rest answered with compile errors; {} panics",
        started.elapsed(),
        panics.len()
    );
    assert!(
        panics.is_empty(),
        "{} panics; first: {}",
        panics.len(),
        panics[0]
    );
}
