//! The fingerprints a drafted file records in `drafted_from = "SERVER/ENTRY"`: of a tool's
//! own words ([`fingerprint`]), which `check --catalog` compares with the server's now, and
//! of the entry as drafted ([`entry_print`]), which tells `init --update` an edited entry.

use super::described;
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

/// A `drafted_from` value's two halves: the server's print, and the entry's (`None` in a
/// value of the server's half alone, `SERVER`).
pub(crate) fn drafted_prints(drafted_from: &str) -> (&str, Option<&str>) {
    match drafted_from.split_once('/') {
        Some((server, entry)) => (server, Some(entry)),
        None => (drafted_from, None),
    }
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
