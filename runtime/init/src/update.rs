//! `init --update FILE`: a drafted file brought up to date with the server's catalog now.
//! An entry `init` wrote and nobody edited is redrafted where the server reworded its tool;
//! a tool the file lacks is drafted; an entry the user edited is kept byte for byte (and
//! said, where its tool changed or went); everything else of the file stays as written.

use super::prints::{drafted_prints, entry_print, fingerprint};
use super::toml_text::key;
use mcp_tailor_core::Tailoring;
use rmcp::model::Tool;

/// What `init --update` made, and what it did to each entry.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Update {
    /// The file's new text.
    pub text: String,
    /// One line per entry it changed or kept against a change: `added x`, `redrafted x`,
    /// `kept x …`, `dropped x`.
    pub done: Vec<String>,
}

/// One tool's entry in a file: its lines, from the comments above its first table to the
/// line before the next entry or top-level table.
struct DraftedEntry {
    name: String,
    text: String,
    /// Its `drafted_from` halves, where it has one: the server's print, the entry's.
    recorded: Option<(String, Option<String>)>,
}

impl DraftedEntry {
    /// Whether the entry differs from what `init` wrote (or no print says what that was).
    fn edited(&self) -> bool {
        let recorded = self
            .recorded
            .as_ref()
            .and_then(|(_, entry)| entry.as_deref());
        recorded != Some(entry_print(&self.text).as_str())
    }
}

/// The file's text split into its preamble, each tool's entry (in file order) and what
/// else stands between them (top-level tables), given the file loaded.
fn entries(text: &str, file: &Tailoring) -> (String, Vec<DraftedEntry>, String) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Where each entry begins: its first table's line, and the comments right above it.
    let mut starts: Vec<(usize, &str)> = file
        .tools()
        .map(|(name, tool)| {
            let mut at = tool.location().line.saturating_sub(1);
            while at > 0 && lines[at - 1].trim_start().starts_with('#') {
                at -= 1;
            }
            (at, name)
        })
        .collect();
    starts.sort();
    let preamble: String = lines[..starts.first().map_or(lines.len(), |s| s.0)].concat();
    let (mut out, mut other) = (Vec::new(), String::new());
    for (i, &(start, name)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(lines.len(), |s| s.0);
        let own = |line: &str| {
            let line = line.trim_start();
            let header = format!("[tools.{}", key(name));
            !line.starts_with('[')
                || line
                    .strip_prefix(&header)
                    .is_some_and(|rest| rest.starts_with(']') || rest.starts_with('.'))
        };
        // A top-level table after the entry is not the entry's: it stays as written.
        let stop = (start + 1..end)
            .find(|&at| !own(lines[at]) && !lines[at].trim_start().starts_with("[["))
            .unwrap_or(end);
        let recorded = file
            .tool(name)
            .and_then(|t| t.drafted_from())
            .map(|(print, _)| {
                let (server, entry) = drafted_prints(print);
                (server.to_owned(), entry.map(str::to_owned))
            });
        out.push(DraftedEntry {
            name: name.to_owned(),
            text: lines[start..stop].concat(),
            recorded,
        });
        other.push_str(&lines[stop..end].concat());
    }
    (preamble, out, other)
}

/// Brings `text` (the file `file` loaded from it, once drafted by `init`) up to date with
/// `tools` (the catalog now), as `fresh` (its draft now, [`draft`](super::draft)) words it.
pub fn update(text: &str, file: &Tailoring, tools: &[Tool], fresh: &str) -> Update {
    let fresh_file = Tailoring::parse("<draft>", fresh).expect("a draft passes check");
    let (_, drafted, _) = entries(fresh, &fresh_file);
    let (preamble, kept, other) = entries(text, file);
    let mut blocks: Vec<String> = Vec::new();
    let mut done = Vec::new();
    for tool in tools {
        let name = tool.name.as_ref();
        let new = drafted.iter().find(|e| e.name == name);
        let Some(old) = kept.iter().find(|e| e.name == name) else {
            if let Some(new) = new {
                blocks.push(new.text.clone());
                done.push(format!("added {name}: new in the catalog"));
            }
            continue;
        };
        let now = fingerprint(tool);
        // An entry with no `drafted_from` is the user's own: it stays, and nothing is said.
        let Some((recorded, _)) = &old.recorded else {
            blocks.push(old.text.clone());
            continue;
        };
        if *recorded == now {
            blocks.push(old.text.clone());
        } else if old.edited() || new.is_none() {
            blocks.push(old.text.clone());
            done.push(format!(
                "kept {name} as you wrote it, though its own words changed (drafted from \
                 {recorded}, now {now}): review it, then write drafted_from = \"{now}\""
            ));
        } else if let Some(new) = new {
            blocks.push(new.text.clone());
            done.push(format!("redrafted {name}: its own words changed"));
        }
    }
    for old in &kept {
        if tools.iter().any(|t| t.name == old.name.as_str()) {
            continue;
        }
        if old.edited() {
            blocks.push(old.text.clone());
            done.push(format!(
                "kept {} as you wrote it, though the catalog no longer lists it",
                old.name
            ));
        } else {
            done.push(format!(
                "dropped {}: the catalog no longer lists it",
                old.name
            ));
        }
    }
    let mut text = preamble;
    for block in blocks {
        text.push_str(&block);
    }
    text.push_str(&other);
    Update { text, done }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> Tool {
        serde_json::from_value(json!({
            "name": name,
            "description": description,
            "inputSchema": {"type": "object", "properties": {
                "path": {"type": "string", "description": "The path of the file to work on, relative to the root."}
            }},
        }))
        .unwrap()
    }

    #[test]
    fn redrafts_the_changed_keeps_the_edited_adds_the_new_drops_the_gone() {
        let before = [
            tool(
                "read_file",
                "Read a whole file as text. Use it for notes and configuration.",
            ),
            tool(
                "write_file",
                "Write a file, replacing what it held. Use it with care.",
            ),
            tool(
                "move_file",
                "Move or rename a file. Both paths must be inside the root.",
            ),
            tool(
                "stat_file",
                "Tell a file's size and times. It reads no content at all.",
            ),
        ];
        let text = draft(&before, "test").text;
        // The user edits write_file's entry (one text) and adds a table of their own.
        let edited = text.replace(
            "Write a file, replacing what it held.",
            "Write a file (it replaces the old one).",
        );
        assert_ne!(edited, text, "the draft words write_file");
        let edited = format!("{edited}\n[instructions]\ndefault = \"Files.\"\n");
        let file = Tailoring::parse("t.toml", &edited).unwrap();
        let after = [
            tool(
                "read_file",
                "Read a whole file as UTF-8 text. Use it for notes and configuration.",
            ),
            tool(
                "write_file",
                "Write a file, replacing what it held. Use it with great care.",
            ),
            tool(
                "move_file",
                "Move or rename a file. Both paths must be inside the root.",
            ),
            tool(
                "list_dir",
                "List a folder's files and folders, one per line, with sizes.",
            ),
        ];
        let update = update(&edited, &file, &after, &draft(&after, "test").text);
        assert_eq!(
            update.done,
            [
                "redrafted read_file: its own words changed",
                &format!(
                    "kept write_file as you wrote it, though its own words changed (drafted from {}, now {}): \
                     review it, then write drafted_from = \"{}\"",
                    fingerprint(&before[1]),
                    fingerprint(&after[1]),
                    fingerprint(&after[1])
                ),
                "added list_dir: new in the catalog",
                "dropped stat_file: the catalog no longer lists it",
            ]
        );
        let updated = Tailoring::parse("t.toml", &update.text).unwrap();
        assert!(updated.tool("stat_file").is_none() && updated.tool("list_dir").is_some());
        assert!(
            updated.instructions().is_some(),
            "the user's own table stays"
        );
        // The edited entry is kept byte for byte; the unchanged one too.
        let (_, old, _) = entries(&edited, &file);
        let (_, new, _) = entries(&update.text, &updated);
        for name in ["write_file", "move_file"] {
            let text = |entries: &[DraftedEntry]| {
                entries
                    .iter()
                    .find(|e| e.name == name)
                    .unwrap()
                    .text
                    .clone()
            };
            assert_eq!(text(&new), text(&old), "{name}");
        }
        let read = new.iter().find(|e| e.name == "read_file").unwrap();
        assert!(read.text.contains(&fingerprint(&after[0])));
        // Once more: the edited entry is still to review; nothing else to do, the same text.
        let again = super::update(&update.text, &updated, &after, &draft(&after, "test").text);
        assert_eq!(again.done.len(), 1, "{:?}", again.done);
        assert_eq!(again.text, update.text);
        // Reviewed (its `drafted_from` the server's words now): nothing to say.
        let reviewed = update.text.replace(
            &format!("drafted_from = \"{}/", fingerprint(&before[1])),
            &format!("drafted_from = \"{}/", fingerprint(&after[1])),
        );
        let file = Tailoring::parse("t.toml", &reviewed).unwrap();
        let last = super::update(&reviewed, &file, &after, &draft(&after, "test").text);
        assert!(last.done.is_empty(), "{:?}", last.done);
        assert_eq!(last.text, reviewed);
    }
}
