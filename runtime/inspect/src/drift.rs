//! What changed upstream since a tailoring file was drafted: `init` records a fingerprint
//! of each tool's own words and of the entry it drafted (`drafted_from = "SERVER/ENTRY"`),
//! and [`drift`] names each tool whose words changed since, each tool the server added,
//! and each tool it dropped; `init --update` tells an entry the user edited by its second
//! half.

use crate::init::described;
use mcp_tailor_core::{Diagnostic, Location, Tailoring};
use rmcp::model::Tool;
use sha2::{Digest, Sha256};

/// The fingerprint of `tool`'s own words: its title, its description and every described
/// argument's path and description, hashed (SHA-256, its first 8 hex digits). Nothing else
/// counts: a schema that changes its types but not its words keeps its fingerprint.
pub fn fingerprint(tool: &Tool) -> String {
    let mut hash = Sha256::new();
    fingerprint_into(&mut hash, tool);
    short(hash)
}

/// The first 8 hex digits of `hash`.
fn short(hash: Sha256) -> String {
    hash.finalize()[..4]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The fingerprint of a tool's entry as a file holds it (`block`: its comments and
/// tables): its lines, the blank ones at either end and the `drafted_from` line left out.
/// An entry whose print differs from the one `init` recorded was edited since.
pub(crate) fn entry_print(block: &str) -> String {
    let lines: Vec<&str> = block
        .lines()
        .filter(|line| !line.trim_start().starts_with("drafted_from"))
        .collect();
    let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |at| at + 1);
    let mut hash = Sha256::new();
    hash.update(lines[first..last.max(first)].join("\n"));
    short(hash)
}

/// The server's half of a `drafted_from` value (`SERVER/ENTRY`, or `SERVER` alone).
pub(crate) fn server_print(drafted_from: &str) -> &str {
    drafted_from.split('/').next().unwrap_or_default()
}

fn fingerprint_into(hash: &mut Sha256, tool: &Tool) {
    let title = tool
        .title
        .as_deref()
        .or_else(|| tool.annotations.as_ref()?.title.as_deref());
    for part in [title, tool.description.as_deref()] {
        hash.update(part.unwrap_or_default());
        hash.update([0]);
    }
    let mut arguments = Vec::new();
    described(&tool.input_schema, &tool.input_schema, "", &mut arguments);
    for (path, description, _) in arguments {
        hash.update(path);
        hash.update([0]);
        hash.update(description);
        hash.update([0]);
    }
}

/// Each way `tools` (the server's catalog now) differs from what `tailoring` was drafted
/// from, as warnings at their place in the file:
///
/// * a tool whose own words changed since (its `drafted_from` differs);
/// * a tool the file names and the catalog lacks (and each argument path it lacks);
/// * where the file records fingerprints, each tool of the catalog it has no entry for.
pub fn drift(tailoring: &Tailoring, tools: &[Tool]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut drafted = false;
    for (name, file) in tailoring.tools() {
        let Some((print, at)) = file.drafted_from() else {
            continue;
        };
        drafted = true;
        if let Some(tool) = tools.iter().find(|t| t.name == name) {
            let (print, now) = (server_print(print), fingerprint(tool));
            if now != print {
                out.push(warning(
                    at,
                    format!(
                        "tool `{name}`: its own words changed since this entry was drafted \
                         (drafted from {print}, now {now}); `mcp-tailor init --update` redrafts it"
                    ),
                ));
            }
        }
    }
    for unmatched in tailoring.unmatched(tools) {
        let message = match unmatched.argument {
            None => format!(
                "tool `{}`: the catalog no longer lists it (or never did)",
                unmatched.tool
            ),
            Some(argument) => format!(
                "tool `{}`: argument `{argument}` is not in its schema",
                unmatched.tool
            ),
        };
        out.push(warning(unmatched.at, message));
    }
    if drafted {
        let start = Location {
            file: tailoring
                .tools()
                .next()
                .map(|(_, t)| t.location().file.clone())
                .unwrap_or_default(),
            line: 1,
            column: 1,
        };
        for tool in tools {
            if tailoring.tool(&tool.name).is_none() {
                out.push(warning(
                    &start,
                    format!(
                        "tool `{}`: new in the catalog since the file was drafted (fingerprint {}); \
                         `mcp-tailor init --update` drafts it",
                        tool.name,
                        fingerprint(tool)
                    ),
                ));
            }
        }
    }
    out
}

fn warning(at: &Location, message: String) -> Diagnostic {
    Diagnostic {
        at: at.clone(),
        message: format!("warning: {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(description: &str, argument: &str) -> Tool {
        serde_json::from_value(json!({
            "name": "search",
            "description": description,
            "inputSchema": {"type": "object", "properties": {
                "query": {"type": "string", "description": argument}
            }},
        }))
        .unwrap()
    }

    #[test]
    fn a_fingerprint_changes_with_the_words_only() {
        let print = fingerprint(&tool("Search notes.", "Words."));
        assert_eq!(print.len(), 8);
        assert_eq!(print, fingerprint(&tool("Search notes.", "Words.")));
        assert_ne!(print, fingerprint(&tool("Search all notes.", "Words.")));
        assert_ne!(print, fingerprint(&tool("Search notes.", "Terms.")));
        let mut typed = tool("Search notes.", "Words.");
        std::sync::Arc::make_mut(&mut typed.input_schema)
            .insert("required".into(), json!(["query"]));
        assert_eq!(print, fingerprint(&typed));
    }

    #[test]
    fn drift_names_the_changed_the_new_and_the_gone() {
        let was = tool("Search notes.", "Words.");
        let file = format!(
            "[tools.search]\ndrafted_from = \"{}\"\ndescription = \"Find.\"\n\n\
             [tools.gone]\ndrafted_from = \"00000000\"\n",
            fingerprint(&was)
        );
        let tailoring = Tailoring::parse("t.toml", &file).unwrap();
        let mut added = tool("Add a note.", "The text.");
        added.name = "add".into();
        assert!(drift(&tailoring, &[was.clone(), added.clone()]).len() == 2);
        let now = tool("Search every note.", "Words.");
        let lines: Vec<String> = drift(&tailoring, &[now.clone(), added])
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(
            lines[0].starts_with("t.toml:2:16: warning: tool `search`: its own words changed")
                && lines[0].contains(&fingerprint(&now)),
            "{lines:#?}"
        );
        assert!(
            lines[1]
                .starts_with("t.toml:5:8: warning: tool `gone`: the catalog no longer lists it")
        );
        assert!(lines[2].starts_with("t.toml:1:1: warning: tool `add`: new in the catalog"));
    }
}
