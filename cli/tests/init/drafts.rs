//! `init` on the servers where drafts once read broken: their own words, captured
//! (`context7-mcp.json`, whole; `*-excerpt.json`, some tools each), each draft read whole.

use super::{fixture, out_file, run};
use std::path::Path;

/// Every text a draft gives, as written in its TOML (`text = "…"`).
fn drafted_texts(draft: &str) -> Vec<String> {
    draft
        .split("text = \"")
        .skip(1)
        .map(|rest| {
            // The string up to its closing quote, its escapes (`\"`) read as TOML's basic
            // strings and JSON's share them.
            let mut escaped = false;
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    let closing = c == '"' && !escaped;
                    escaped = c == '\\' && !escaped;
                    closing
                })
                .map_or(rest.len(), |(at, _)| at);
            serde_json::from_str(&format!("\"{}\"", &rest[..end])).unwrap()
        })
        .collect()
}

/// In a drafted file: no two tools read the same terse text (@hubspot/mcp-server's read
/// "🎯 Purpose: 1." and "🛡️ Guardrails: 1."; seven of 21 would read "This tool modifies
/// HubSpot data." had their shared warning led), and what an argument's terse text states
/// its middle one states too (server-puppeteer's `launchOptions`: "If changed and not
/// null, browser restarts" was said at no level below 7).
fn levels_tell_tools_apart_and_keep_facts(catalog: &str, draft: &str) {
    let file: toml::Table = draft.parse().unwrap();
    let text = |levels: &toml::Value, verbosity: &str| {
        levels.get("levels")?.as_array()?.iter().find_map(|level| {
            (level.get("verbosity")?.as_str()? == verbosity)
                .then(|| level.get("text")?.as_str().map(str::to_owned))?
        })
    };
    let mut terse: Vec<String> = Vec::new();
    for tool in file["tools"].as_table().unwrap().values() {
        if let Some(description) = tool.get("description") {
            let said = text(description, "0..=2").or_else(|| text(description, "0..=6"));
            terse.extend(said);
        }
        let arguments = tool.get("arguments").and_then(toml::Value::as_table);
        for argument in arguments.into_iter().flat_map(|a| a.values()) {
            let description = &argument["description"];
            let (Some(facts), Some(middle)) =
                (text(description, "0..=2"), text(description, "3..=6"))
            else {
                continue;
            };
            for said in facts.split_whitespace().map(word) {
                assert!(
                    middle
                        .split_whitespace()
                        .map(word)
                        .any(|w| w.eq_ignore_ascii_case(&said)),
                    "{catalog}: {said:?} of {facts:?} not in {middle:?}"
                );
            }
        }
    }
    let mut distinct = terse.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), terse.len(), "{catalog}: {terse:#?}");
}

/// The first wording `init` drafts of `catalog`, to `out`: what its first picks read,
/// before the draft's check steps any level up to more of the server's words.
pub(super) fn first_draft(catalog: &Path, out: &Path) {
    let json = std::fs::read_to_string(catalog).unwrap();
    let tools = mcp_tailor::inspect::read_catalog(&json).unwrap();
    std::fs::write(out, mcp_tailor::init::draft(&tools, "test").text).unwrap();
}

/// A word without the marks and punctuation around it.
fn word(text: &str) -> String {
    text.trim_matches(|c: char| ",.;:()[]{}*`'\"!?".contains(c))
        .to_owned()
}

/// Servers' own words (captured from context7, notion, chrome-devtools-mcp 1.11.0,
/// desktop-commander 0.2.52, mcp-server-kubernetes 4.1.7, arxiv-mcp-server 0.8.2,
/// mcp-atlassian 0.23.1, firecrawl-mcp 3.22.2, @brave/brave-search-mcp-server 2.1.4,
/// @playwright/mcp 0.0.83, excel-mcp-server 2.2.2, @antv/mcp-server-chart 0.9.10,
/// @hubspot/mcp-server 0.4.0, @neondatabase/mcp-server-neon 0.3.7,
/// @modelcontextprotocol/server-puppeteer 2025.5.12, figma-developer-mcp 0.13.2,
/// @azure/mcp 2.0.5, @shopify/dev-mcp 1.16.0, mongodb-mcp-server 3.0.4,
/// @sentry/mcp-server 0.36.0, @cyanheads/git-mcp-server 2.15.3) where a draft once read
/// broken: each first draft tells its tools apart, says at 3..=6 what it says at 0..=2,
/// and lints clean. (`words.rs` holds every level to the server's own words.)
#[test]
fn drafts_read_whole_where_they_once_broke_off() {
    for catalog in [
        "context7-mcp.json",
        "notion-mcp-server-excerpt.json",
        "chrome-devtools-mcp-excerpt.json",
        "desktop-commander-excerpt.json",
        "mcp-server-kubernetes-excerpt.json",
        "arxiv-mcp-server-excerpt.json",
        "mcp-atlassian-excerpt.json",
        "firecrawl-mcp-excerpt.json",
        "brave-search-mcp-server-excerpt.json",
        "playwright-mcp-excerpt.json",
        "excel-mcp-server-excerpt.json",
        "mcp-server-chart-excerpt.json",
        "hubspot-mcp-server-excerpt.json",
        "mcp-server-neon-excerpt.json",
        "server-puppeteer-excerpt.json",
        "figma-developer-mcp-excerpt.json",
        "azure-mcp-excerpt.json",
        "shopify-dev-mcp-excerpt.json",
        "mongodb-mcp-server-excerpt.json",
        "sentry-mcp-server-excerpt.json",
        "git-mcp-server-excerpt.json",
    ] {
        let out = out_file(catalog);
        first_draft(&fixture(catalog), &out);
        let draft = std::fs::read_to_string(&out).unwrap();
        let texts = drafted_texts(&draft);
        assert!(!texts.is_empty(), "{catalog}: {draft}");
        for text in &texts {
            assert!(!text.contains("Error Responses"), "{catalog}: {text:?}");
        }
        levels_tell_tools_apart_and_keep_facts(catalog, &draft);
        // The server's own words, linted: values are no missing arguments; Desktop
        // Commander's `write_file` does word calls with arguments it lacks
        // (`write_file(filePath, firstChunk, …)`; they are `path` and `content`), each
        // named once.
        let linted = run(&[
            "inspect",
            "--tailoring",
            out.to_str().unwrap(),
            "--catalog",
            fixture(catalog).to_str().unwrap(),
            "lint",
        ]);
        let linted = String::from_utf8_lossy(&linted.stdout);
        let named: Vec<&str> = linted
            .lines()
            .filter_map(|line| line.split("names argument `").nth(1)?.split('`').next())
            .collect();
        let lacking: &[&str] = match catalog {
            "desktop-commander-excerpt.json" => {
                &["filePath", "firstChunk", "secondChunk", "nextChunk"]
            }
            _ => &[],
        };
        assert_eq!(named, lacking, "{catalog}: {linted}");
        std::fs::remove_file(&out).unwrap();
    }
}
