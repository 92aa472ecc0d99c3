//! Random valid descriptions for the property test: each one as a `description!(...)`
//! invocation and as plain data for the reference resolver written in the test.

use crate::rng::Rng;
use std::fmt::Write as _;

/// How many descriptions one build generates.
const DESCRIPTIONS: usize = 200;

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

/// A covered level set as Rust data.
fn levels_data(levels: &[u8]) -> String {
    format!("&{levels:?}")
}

const RUNNERS: &[&str] = &["codex", "grok", "claude-code"];
const MODELS: &[&str] = &["5.4", "spark", "x"];

/// A runner or model matcher written into `dsl` (`_`, a name, or a quoted name); the
/// name it matches, if any.
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

/// Level entries as Rust data: `(&[levels], "text"), …`.
fn entries_data(items: &[(Vec<u8>, String)]) -> String {
    items
        .iter()
        .map(|(c, t)| format!("({}, {t:?})", levels_data(c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fresh texts `text 0`, `text 1`, …, now and then an earlier one again, so interning is
/// exercised.
#[derive(Default)]
struct Texts {
    made: usize,
}

impl Texts {
    fn next(&mut self, rng: &mut Rng) -> String {
        if self.made > 0 && rng.chance(10) {
            format!("text {}", rng.below(self.made))
        } else {
            self.made += 1;
            format!("text {}", self.made - 1)
        }
    }
}

/// The `description` key as the reference reads it: level entries, `default`,
/// `default_verbosity`.
#[derive(Default)]
struct Inline {
    levels: Vec<(Vec<u8>, String)>,
    default: Option<String>,
    default_verbosity: Option<u8>,
}

/// `description = …`: absent, bare, or a list (entries in any order).
fn description_key(rng: &mut Rng, texts: &mut Texts, dsl: &mut Vec<String>) -> Inline {
    let mut inline = Inline::default();
    match rng.below(4) {
        0 => {}
        1 => {
            let text = texts.next(rng);
            dsl.push(format!("description = {text:?}"));
            inline.default = Some(text);
        }
        _ => {
            let mut entries = Vec::new();
            for (spec, covered) in table(rng, 4) {
                let text = texts.next(rng);
                entries.push(format!("(verbosity({spec}), {text:?})"));
                inline.levels.push((covered, text));
            }
            if rng.chance(50) {
                let text = texts.next(rng);
                entries.push(format!("default = {text:?}"));
                inline.default = Some(text);
            }
            if rng.chance(30) {
                let level = rng.below(10) as u8;
                entries.push(format!("default_verbosity = {level}"));
                inline.default_verbosity = Some(level);
            }
            // Entries may come in any order.
            if entries.len() > 1 && rng.chance(50) {
                entries.rotate_left(1);
            }
            dsl.push(format!("description = [{}]", entries.join(", ")));
        }
    }
    inline
}

/// `descriptions = [...]`: each tag written bare or quoted; the `(tag, text)` pairs.
fn descriptions_key(
    rng: &mut Rng,
    texts: &mut Texts,
    tags: &[String],
    dsl: &mut Vec<String>,
) -> Vec<(String, String)> {
    let mut variants = Vec::new();
    let mut entries = Vec::new();
    for tag in tags {
        let text = texts.next(rng);
        let written = if rng.chance(30) {
            format!("{tag:?}")
        } else {
            tag.clone()
        };
        entries.push(format!("{written} = {text:?}"));
        variants.push((tag.clone(), text));
    }
    dsl.push(format!("descriptions = [{}]", entries.join(", ")));
    variants
}

/// `verbosity_map = [...]`, its specs bare or as `verbosity(…)`.
fn verbosity_map_key(
    rng: &mut Rng,
    tags: &[String],
    dsl: &mut Vec<String>,
) -> Vec<(Vec<u8>, String)> {
    let mut vmap = Vec::new();
    let mut entries = Vec::new();
    for (spec, covered) in table(rng, 3) {
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
    vmap
}

/// One runner `((runner, model), [rules])` as DSL text, and as a reference `RefRule`.
fn runner(rng: &mut Rng, tags: &[String]) -> (String, String) {
    let mut m = String::from("((");
    let runner = matcher(rng, RUNNERS, &mut m);
    m.push_str(", ");
    let model = if rng.chance(25) {
        let a = MODELS[rng.below(MODELS.len())];
        let b = MODELS[rng.below(MODELS.len())];
        write!(m, "[{a:?}, {b:?}]").unwrap();
        format!("Model::List(&[{a:?}, {b:?}])")
    } else {
        match matcher(rng, MODELS, &mut m) {
            None => "Model::Any".to_owned(),
            Some(name) => format!("Model::Exact({name:?})"),
        }
    };
    m.push_str("), [");
    let mut entries = Vec::new();
    let mut rule_levels = Vec::new();
    for (spec, covered) in table(rng, 2) {
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
    let rule = format!(
        "RefRule {{ runner_name: {runner:?}, model: {model}, levels: &[{}], default: {rule_default:?} }}",
        entries_data(&rule_levels)
    );
    (m, rule)
}

/// One generated case: the DSL and the reference data, as a `Case { … }` line.
fn case(rng: &mut Rng, texts: &mut Texts) -> String {
    let mut dsl = Vec::new();
    let inline = description_key(rng, texts, &mut dsl);
    let tags: Vec<String> = (0..rng.below(5)).map(|i| format!("tag_{i}")).collect();
    let (mut variants, mut vmap, mut rules) = (Vec::new(), Vec::new(), Vec::new());
    if !tags.is_empty() {
        variants = descriptions_key(rng, texts, &tags, &mut dsl);
        if rng.chance(50) {
            vmap = verbosity_map_key(rng, &tags, &mut dsl);
        }
        if rng.chance(70) {
            let runners: Vec<String> = (0..rng.below(5))
                .map(|_| {
                    let (written, rule) = runner(rng, &tags);
                    rules.push(rule);
                    written
                })
                .collect();
            dsl.push(format!("runners = [{}]", runners.join(", ")));
        }
    }
    // Keys may come in any order.
    if dsl.len() > 1 && rng.chance(50) {
        dsl.reverse();
    }
    let variants_data = variants
        .iter()
        .map(|(tag, text)| format!("({tag:?}, {text:?})"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "Case {{ dsl: {dsl_text:?}, description: ::mcp_tailor::description!(allow(dead_variants), {dsl_joined}), reference: RefDesc {{ levels: &[{levels}], default: {default:?}, default_verbosity: {default_verbosity:?}, variants: &[{variants_data}], vmap: &[{vmap}], rules: &[{rules}] }} }},\n",
        dsl_text = dsl.join(", "),
        dsl_joined = dsl.join(", "),
        levels = entries_data(&inline.levels),
        default = inline.default,
        default_verbosity = inline.default_verbosity,
        vmap = entries_data(&vmap),
        rules = rules.join(", "),
    )
}

/// The generated file: the seed, then `static CASES`.
pub fn cases(seed: u64) -> String {
    let mut rng = Rng(oorandom::Rand64::new(u128::from(seed)));
    let mut out = format!(
        "/// The seed these descriptions were generated from.\npub const SEED: u64 = {seed};\n\n"
    );
    out.push_str("static CASES: &[Case] = &[\n");
    let mut texts = Texts::default();
    for _ in 0..DESCRIPTIONS {
        out.push_str("    ");
        out.push_str(&case(&mut rng, &mut texts));
    }
    out.push_str("];\n");
    out
}
