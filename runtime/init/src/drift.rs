//! What changed upstream since a tailoring file was drafted: `init` records a fingerprint
//! of each tool's own words and of the entry it drafted (`drafted_from = "SERVER/ENTRY"`),
//! and [`drift`] names each tool whose words changed since, each tool the server added,
//! and each tool it dropped; `init --update` tells an entry the user edited by its second
//! half.

use crate::{drafted_prints, fingerprint};
use mcp_tailor_core::{Diagnostic, Location, Tailoring};
use rmcp::model::Tool;

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
            let (print, now) = (drafted_prints(print).0, fingerprint(tool));
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
