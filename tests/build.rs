//! Generates random valid descriptions for the property test: each one as a
//! `description!(...)` invocation and as plain data for the reference resolver written in
//! the test. The seed comes from `MCP_TAILOR_PROP_SEED`, else from the clock; it is written
//! into the generated file so a failure can be replayed.

use std::fmt::Write as _;

const DESCRIPTIONS: usize = 200;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A level spec as DSL text and the levels it covers.
fn spec(rng: &mut Rng, free: &mut Vec<u8>) -> Option<(String, Vec<u8>)> {
    if free.is_empty() {
        return None;
    }
    let start = free.remove(rng.below(free.len()));
    match rng.below(3) {
        0 => Some((start.to_string(), vec![start])),
        1 => {
            let mut hi = start;
            while hi < 9 && free.contains(&(hi + 1)) && rng.chance(60) {
                hi += 1;
                free.retain(|l| *l != hi);
            }
            Some((format!("{start}..={hi}"), (start..=hi).collect()))
        }
        _ => {
            let mut members = vec![start];
            for _ in 0..rng.below(3) {
                if free.is_empty() {
                    break;
                }
                members.push(free.remove(rng.below(free.len())));
            }
            let text = members
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            Some((format!("[{text}]"), members))
        }
    }
}

/// Up to `max` disjoint specs of one table.
fn table(rng: &mut Rng, max: usize) -> Vec<(String, Vec<u8>)> {
    let mut free: Vec<u8> = (0..=9).collect();
    (0..rng.below(max + 1))
        .filter_map(|_| spec(rng, &mut free))
        .collect()
}

fn levels_data(levels: &[u8]) -> String {
    format!("&{levels:?}")
}

const RUNNERS: &[&str] = &["codex", "grok", "claude-code"];
const MODELS: &[&str] = &["5.4", "spark", "x"];

fn matcher(rng: &mut Rng, names: &[&str], dsl: &mut String) -> Option<String> {
    if rng.chance(35) {
        dsl.push('_');
        return None;
    }
    let name = names[rng.below(names.len())];
    if name.contains(['-', '.']) || rng.chance(30) {
        write!(dsl, "{name:?}").unwrap();
    } else {
        dsl.push_str(name);
    }
    Some(name.to_owned())
}

fn main() {
    println!("cargo:rerun-if-env-changed=MCP_TAILOR_PROP_SEED");
    println!("cargo:rerun-if-changed=build.rs");
    let seed = std::env::var("MCP_TAILOR_PROP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
        | 1;
    let mut rng = Rng(seed);
    let mut out = format!(
        "/// The seed these descriptions were generated from.\npub const SEED: u64 = {seed};\n\n"
    );
    out.push_str("static CASES: &[Case] = &[\n");
    let mut text_id = 0;
    let mut new_text = |rng: &mut Rng| {
        // Now and then reuse an earlier text, so interning is exercised.
        if text_id > 0 && rng.chance(10) {
            format!("text {}", rng.below(text_id))
        } else {
            text_id += 1;
            format!("text {}", text_id - 1)
        }
    };
    for _ in 0..DESCRIPTIONS {
        let mut dsl = Vec::new();
        let mut data = String::from("Case {");

        // description = bare | list | absent
        let mut levels = Vec::new();
        let mut default = None;
        let mut default_verbosity = None;
        match rng.below(4) {
            0 => {}
            1 => {
                let text = new_text(&mut rng);
                dsl.push(format!("description = {text:?}"));
                default = Some(text);
            }
            _ => {
                let mut entries = Vec::new();
                for (spec, covered) in table(&mut rng, 4) {
                    let text = new_text(&mut rng);
                    entries.push(format!("(verbosity({spec}), {text:?})"));
                    levels.push((covered, text));
                }
                if rng.chance(50) {
                    let text = new_text(&mut rng);
                    entries.push(format!("default = {text:?}"));
                    default = Some(text);
                }
                if rng.chance(30) {
                    let level = rng.below(10) as u8;
                    entries.push(format!("default_verbosity = {level}"));
                    default_verbosity = Some(level);
                }
                // Entries may come in any order.
                if entries.len() > 1 && rng.chance(50) {
                    entries.rotate_left(1);
                }
                dsl.push(format!("description = [{}]", entries.join(", ")));
            }
        }

        // descriptions = [...]
        let tags: Vec<String> = (0..rng.below(5)).map(|i| format!("tag_{i}")).collect();
        let mut variants = Vec::new();
        if !tags.is_empty() {
            let mut entries = Vec::new();
            for tag in &tags {
                let text = new_text(&mut rng);
                let written = if rng.chance(30) {
                    format!("{tag:?}")
                } else {
                    tag.clone()
                };
                entries.push(format!("{written} = {text:?}"));
                variants.push((tag.clone(), text));
            }
            dsl.push(format!("descriptions = [{}]", entries.join(", ")));
        }
        let mut vmap = Vec::new();
        let mut rules = Vec::new();
        if !tags.is_empty() {
            if rng.chance(50) {
                let mut entries = Vec::new();
                for (spec, covered) in table(&mut rng, 3) {
                    let tag = &tags[rng.below(tags.len())];
                    let spec = if rng.chance(30) {
                        format!("verbosity({spec})")
                    } else {
                        spec
                    };
                    entries.push(format!("({spec}, {tag})"));
                    vmap.push((covered, tag.clone()));
                }
                dsl.push(format!("verbosity_map = [{}]", entries.join(", ")));
            }
            if rng.chance(70) {
                let mut runners = Vec::new();
                for _ in 0..rng.below(5) {
                    let mut m = String::from("((");
                    let provider = matcher(&mut rng, RUNNERS, &mut m);
                    m.push_str(", ");
                    let model = if rng.chance(25) {
                        let a = MODELS[rng.below(MODELS.len())];
                        let b = MODELS[rng.below(MODELS.len())];
                        write!(m, "[{a:?}, {b:?}]").unwrap();
                        format!("Model::List(&[{a:?}, {b:?}])")
                    } else {
                        match matcher(&mut rng, MODELS, &mut m) {
                            None => "Model::Any".to_owned(),
                            Some(name) => format!("Model::Exact({name:?})"),
                        }
                    };
                    m.push_str("), [");
                    let mut entries = Vec::new();
                    let mut rule_levels = Vec::new();
                    for (spec, covered) in table(&mut rng, 2) {
                        let tag = &tags[rng.below(tags.len())];
                        entries.push(format!("(verbosity({spec}), {tag})"));
                        rule_levels.push((covered, tag.clone()));
                    }
                    let mut rule_default = None;
                    if rng.chance(60) {
                        let tag = &tags[rng.below(tags.len())];
                        entries.push(format!("default = {tag}"));
                        rule_default = Some(tag.clone());
                    }
                    m.push_str(&entries.join(", "));
                    m.push_str("])");
                    runners.push(m);
                    let levels = rule_levels
                        .iter()
                        .map(|(c, t)| format!("({}, {t:?})", levels_data(c)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    rules.push(format!(
                        "RefRule {{ provider: {provider:?}, model: {model}, levels: &[{levels}], default: {rule_default:?} }}"
                    ));
                }
                dsl.push(format!("runners = [{}]", runners.join(", ")));
            }
        }
        // Keys may come in any order.
        if dsl.len() > 1 && rng.chance(50) {
            dsl.reverse();
        }
        let list = |items: &[(Vec<u8>, String)]| {
            items
                .iter()
                .map(|(c, t)| format!("({}, {t:?})", levels_data(c)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let variants_data = variants
            .iter()
            .map(|(tag, text)| format!("({tag:?}, {text:?})"))
            .collect::<Vec<_>>()
            .join(", ");
        writeln!(
            data,
            " dsl: {dsl_text:?}, description: ::mcp_tailor::description!({dsl_joined}), reference: RefDesc {{ levels: &[{levels}], default: {default:?}, default_verbosity: {default_verbosity:?}, variants: &[{variants_data}], vmap: &[{vmap}], rules: &[{rules}] }} }},",
            dsl_text = dsl.join(", "),
            dsl_joined = dsl.join(", "),
            levels = list(&levels),
            vmap = list(&vmap),
            rules = rules.join(", "),
        )
        .unwrap();
        out.push_str("    ");
        out.push_str(&data);
    }
    out.push_str("];\n");
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("generated_cases.rs");
    std::fs::write(path, out).unwrap();
}
