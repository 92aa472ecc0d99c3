//! `init` over every catalog captured here (30, the four servers the drafts once misread
//! among them: tavily-mcp, @circleci/mcp-server-circleci, @azure-devops/mcp and a GitLab
//! server), each level read back as `proxy` serves it and held to what a model may trust,
//! by checks of this test's own (not `init`'s audit):
//!
//! | promise | held by |
//! |---|---|
//! | only the server's words | its words, in its order; each aside, quoted value and code span as written; no bracket left open the server closed |
//! | rules last to go | each rule phrase of a place (`Required for`, `mutually exclusive`, `not supported`, …) in every level that says anything there |
//! | levels shrink as they fall | tokens: level 0 ≤ 3 ≤ the server's, per tool and argument |
//! | a short level 0 | a tool's level-0 description within 48 tokens, or named by `init` as over for its rules |

use super::{fixture, init_catalog, out_file, served};
use serde_json::Value;
use std::path::PathBuf;

/// The catalog `name` captured here (`cli/tests/init/`, or `tests/findability/`).
fn catalog(name: &str) -> PathBuf {
    let here = fixture(name);
    match here.exists() {
        true => here,
        false => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/findability")
            .join(name),
    }
}

/// The phrases of rules a valid call depends on, as the issue that asked for this named
/// them: a level that says anything in their place keeps them. Those of the call hold in
/// any place; `only if`, `required when` and the like bind an argument, in its own words.
const ARGUMENT_RULES: &[&str] = &[
    "required for",
    "required when",
    "not supported",
    "only if",
    "only when",
];
const CALL_RULES: &[&str] = &[
    "exactly one",
    "mutually exclusive",
    "at least one of",
    "must be provided together",
    "must be one of",
    "never call",
    "always pass",
    "do not pass",
];

/// The most tokens a tool's level-0 description says, but where `init` names it over.
const BOUND: usize = 48;

/// One text a level reads: where, and as the server, level 0 and level 3 read it.
struct Place {
    tool: String,
    path: String,
    texts: [String; 3],
}

/// Every description of `catalog` (tools' and their schemas' properties'), as served at
/// each level of `levels` through `draft`, beside the server's own.
fn places(catalog: &std::path::Path, draft: &std::path::Path) -> Vec<Place> {
    let listed = |level: &str| -> Vec<Value> {
        let listed: Value = serde_json::from_str(&served(draft, catalog, level)).unwrap();
        listed["tools"].as_array().unwrap().clone()
    };
    let own: Value = serde_json::from_str(&std::fs::read_to_string(catalog).unwrap()).unwrap();
    let own = own["tools"].as_array().unwrap().clone();
    let [zero, three] = ["0", "3"].map(listed);
    let mut places = Vec::new();
    for (at, tool) in own.iter().enumerate() {
        let name = tool["name"].as_str().unwrap().to_owned();
        let said = |tools: &[Value], path: &[String]| -> String {
            let mut value = tools.iter().find(|t| t["name"] == tool["name"]).unwrap();
            for key in path {
                value = match value.get(key) {
                    Some(inner) => inner,
                    None => return String::new(),
                };
            }
            value.as_str().unwrap_or_default().to_owned()
        };
        let mut paths = vec![vec!["description".to_owned()]];
        descriptions(
            &tool["inputSchema"],
            &mut vec!["inputSchema".to_owned()],
            &mut paths,
        );
        for path in paths {
            let texts = [
                said(&own[at..=at], &path),
                said(&zero, &path),
                said(&three, &path),
            ];
            if !texts[0].trim().is_empty() {
                places.push(Place {
                    tool: name.clone(),
                    path: path.join("."),
                    texts,
                });
            }
        }
    }
    places
}

/// The paths of every `description` string below `value` (at `path`).
fn descriptions(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let Value::Object(map) = value else { return };
    for (key, inner) in map {
        path.push(key.clone());
        match inner {
            Value::String(_) if key == "description" => out.push(path.clone()),
            Value::Object(_) => descriptions(inner, path, out),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(i.to_string());
                    descriptions(item, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
        path.pop();
    }
}

/// `text`'s words: its runs of letters and digits.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `part`'s words are `whole`'s, in its order.
fn in_order(part: &[&str], whole: &[&str]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|word| rest.any(|w| w == word))
}

/// `text`, its whitespace one space each.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The groups of `text` between `open` and `close` (outermost, closed).
fn groups(text: &str, open: char, close: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        if c == open {
            if depth == 0 {
                start = i;
            }
            depth += 1;
        } else if c == close && depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push(&text[start..=i]);
            }
        }
    }
    out
}

/// `init` on `name`, each level held to the promises above.
fn holds(name: &str) {
    let catalog = catalog(name);
    let draft = out_file(&format!("words-{name}"));
    let report = init_catalog(&catalog, &draft, None);
    assert!(report.contains("\nwords: ok"), "{name}: {report}");
    assert!(!report.contains("found by);"), "{name}: {report}");
    let over_line = report
        .lines()
        .find(|l| l.starts_with("level-0 descriptions over"))
        .unwrap_or_default()
        .to_owned();
    let mut over = 0;
    for place in places(&catalog, &draft) {
        let [own, zero, three] = &place.texts;
        let at = format!("{name}: {} {}", place.tool, place.path);
        let own_words = words(own);
        let tool_level = place.path == "description";
        for (level, text) in [(0, zero), (3, three)] {
            if text.trim().is_empty() || squeezed(text) == squeezed(own) {
                continue;
            }
            // Only the server's words, in its order.
            assert!(
                in_order(&words(text), &own_words),
                "{at} [{level}]: {text:?}\nown: {own:?}"
            );
            // Each aside, quoted value and code span as the server wrote it.
            let own_squeezed = squeezed(own);
            let mut kept: Vec<String> = groups(text, '(', ')')
                .into_iter()
                .map(str::to_owned)
                .collect();
            kept.extend(groups(text, '[', ']').into_iter().map(str::to_owned));
            kept.extend(
                text.split('`')
                    .skip(1)
                    .step_by(2)
                    .map(|code| format!("`{code}`")),
            );
            kept.extend(
                text.split('"')
                    .skip(1)
                    .step_by(2)
                    .map(|value| format!("\"{value}\"")),
            );
            for part in kept {
                assert!(
                    own_squeezed.contains(&squeezed(&part)),
                    "{at} [{level}]: {part:?} changed in {text:?}"
                );
            }
            // No bracket left open that the server closed.
            for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
                let open_in = |t: &str| t.matches(open).count() > t.matches(close).count();
                assert!(!open_in(text) || open_in(own), "{at} [{level}]: {text:?}");
            }
            // Rules last: every rule phrase of the place.
            let lower = squeezed(text).to_lowercase();
            let argument_rules = if tool_level { &[][..] } else { ARGUMENT_RULES };
            for phrase in CALL_RULES.iter().chain(argument_rules) {
                if squeezed(own).to_lowercase().contains(phrase) {
                    assert!(
                        lower.contains(phrase),
                        "{at} [{level}]: drops {phrase:?}: {text:?}"
                    );
                }
            }
        }
        // Levels shrink as they fall.
        let [own_t, zero_t, three_t] = place
            .texts
            .each_ref()
            .map(|t| mcp_tailor::inspect::count_tokens(t));
        assert!(
            zero_t <= three_t && three_t <= own_t,
            "{at}: {zero_t} > {three_t} > {own_t}"
        );
        // A short level 0, or named over for its rules.
        if tool_level && zero_t > BOUND {
            over += 1;
            assert!(
                over_line.contains(&format!(" {} ({zero_t}, rules);", place.tool)),
                "{at}: {zero_t} tokens at level 0, not named over for its rules: {over_line}"
            );
        }
    }
    assert_eq!(
        over_line
            .split(": ")
            .nth(1)
            .and_then(|n| n.split(' ').next())
            .unwrap_or("0"),
        over.to_string(),
        "{name}: {over_line}"
    );
    eprintln!("{name}: {over} level-0 descriptions over {BOUND} tokens, each for its rules");
    std::fs::remove_file(&draft).unwrap();
}

/// One test per catalog: they run side by side.
macro_rules! catalogs {
    ($($test:ident => $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                holds($name);
            }
        )*
    };
}

catalogs! {
    tavily => "tavily-mcp.json",
    circleci => "mcp-server-circleci.json",
    azure_devops => "azure-devops-mcp.json",
    gitlab => "gitlab-mcp.json",
    filesystem => "server-filesystem.json",
    github => "server-github.json",
    memory => "server-memory.json",
    git => "mcp-server-git.json",
    playwright => "playwright-mcp.json",
    context7 => "context7-mcp.json",
    notion => "notion-mcp-server-excerpt.json",
    chrome_devtools => "chrome-devtools-mcp-excerpt.json",
    desktop_commander => "desktop-commander-excerpt.json",
    kubernetes => "mcp-server-kubernetes-excerpt.json",
    arxiv => "arxiv-mcp-server-excerpt.json",
    atlassian => "mcp-atlassian-excerpt.json",
    firecrawl => "firecrawl-mcp-excerpt.json",
    brave_search => "brave-search-mcp-server-excerpt.json",
    playwright_excerpt => "playwright-mcp-excerpt.json",
    excel => "excel-mcp-server-excerpt.json",
    chart => "mcp-server-chart-excerpt.json",
    hubspot => "hubspot-mcp-server-excerpt.json",
    neon => "mcp-server-neon-excerpt.json",
    puppeteer => "server-puppeteer-excerpt.json",
    figma => "figma-developer-mcp-excerpt.json",
    azure => "azure-mcp-excerpt.json",
    shopify => "shopify-dev-mcp-excerpt.json",
    mongodb => "mongodb-mcp-server-excerpt.json",
    sentry => "sentry-mcp-server-excerpt.json",
    git_mcp_server => "git-mcp-server-excerpt.json",
}
