//! A draft written out: the file's header (what each level reads, the notes of `--fit`),
//! then each tool's entry and its arguments', each with the comments that say where its
//! words came from and which steps the check took.

use super::prints::entry_print;
use super::toml_text::{key, string};
use super::{ARGUMENT_TOKENS, Band, Draft, MIDDLE_TOKENS, TERSE_TOKENS, ToolDraft};
use mcp_tailor_core::Lean;
use mcp_tailor_inspect::count_tokens;
use std::fmt::Write as _;

/// The levels `[schemas]` leaves boilerplate out at: the drafted ones.
const LEAN_LEVELS: &str = "0..=6";

/// `[schemas]`, where the tools' schemas hold what it leaves out.
fn schemas(out: &mut String, drafts: &[ToolDraft]) {
    let held = drafts
        .iter()
        .fold(Lean::default(), |held, draft| held.or(draft.lean));
    if held.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n# Every tool's input and output schema, {LEAN_LEVELS}: no tokens on what no reader needs.\n[schemas]"
    );
    if held.dialect_at(0) {
        let _ = writeln!(
            out,
            "dialect = \"{LEAN_LEVELS}\"  # `$schema` left out where the schema means the same without it"
        );
    }
    if held.titles_at(0) {
        let _ = writeln!(
            out,
            "titles = \"{LEAN_LEVELS}\"   # titles that repeat a name (`Repo Path` of `repo_path`) left out"
        );
    }
}

/// The file's text, `notes` added to its header (a line each).
pub(super) fn render(drafts: &[ToolDraft], source: &str, notes: &[String]) -> Draft {
    let mut out = String::new();
    // A command may span lines (`sh -c SCRIPT`): a comment may not.
    let source = one_line(source);
    let _ = writeln!(
        out,
        "# Drafted by `mcp-tailor init` from {source}: {} tool{}.\n\
         #\n\
         # This file overlays the server's own words: a level it does not cover reads them.\n\
         # Every level is the server's own sentences, each whole (less an aside that states no rule), in its order;\n\
         #   every rule a valid call depends on stays wherever a level says anything; 3..=6 says all 0..=2 says.\n\
         # Tools, levels 0..=2: no title; the first sentence within {TERSE_TOKENS} tokens (at most {bound} beyond the rules);\n\
         #   3..=6: the sentences of the first paragraph that fit {MIDDLE_TOKENS} tokens; 7..=9: the server's.\n\
         # Arguments, 0..=2: nothing (`false`), or the sentences stating facts its name and type do not carry;\n\
         #   3..=6: the first sentence, and those stating facts (within {ARGUMENT_TOKENS} tokens); 7..=9: the server's.\n\
         # `drafted_from`: fingerprints of the server's words and of the entry drafted (`check FILE --catalog …`, `init --update FILE`).\n\
         # Edit freely: `mcp-tailor check FILE`, then `mcp-tailor inspect --tailoring FILE matrix …`.",
        drafts.len(),
        if drafts.len() == 1 { "" } else { "s" },
        bound = super::bound(TERSE_TOKENS),
    );
    for note in notes {
        let _ = writeln!(out, "# {note}");
    }
    schemas(&mut out, drafts);
    let (mut tools, mut arguments, mut kept_for_tasks) = (0, 0, Vec::new());
    for draft in drafts {
        let left = |level| draft.left(level);
        let terse = draft.text(Band::Terse);
        let middle = draft.text(Band::Middle);
        let tool = key(&draft.name);
        let start = out.len();
        // Every described argument is drafted (at 0..=2 it says nothing, or its facts).
        if terse.is_none()
            && middle.is_none()
            && draft.arguments.is_empty()
            && draft.untitled.is_none()
        {
            let _ = writeln!(
                out,
                "\n# {}: nothing shorter to draft; its own words at every level.\n\
                 [tools.{tool}]\ndrafted_from = \"{}/{ENTRY}\"",
                draft.name, draft.print
            );
            seal(&mut out, start);
            continue;
        }
        tools += 1;
        let _ = writeln!(
            out,
            "\n# {}: its own description is {} tokens.\n[tools.{tool}]\ndrafted_from = \"{}/{ENTRY}\"",
            draft.name, draft.own_tokens, draft.print
        );
        if !draft.kept.is_empty() {
            kept_for_tasks.push(draft.name.clone());
            let _ = writeln!(
                out,
                "# Its drafted levels keep words a search finds it by: {}.",
                draft.kept.join(", ")
            );
        }
        for (level, levels) in [(Band::Terse, "0..=2"), (Band::Middle, "3..=6")] {
            if left(level) {
                let _ = writeln!(
                    out,
                    "# Levels {levels} are left to the server's own words: a search finds it only by them."
                );
            } else if draft.step[level as usize] > 0 {
                let _ = writeln!(
                    out,
                    "# Levels {levels} say more than first drafted: a search lost it with less."
                );
            }
        }
        if let Some(levels) = draft.untitled {
            let _ = writeln!(
                out,
                "# Its title is for people: a terse reader does without it.\n\
                 [tools.{tool}.title]\nlevels = [{{ verbosity = \"{levels}\", text = false }}]"
            );
        }
        let mut entries = Vec::new();
        let same = terse.is_some() && terse == middle;
        if let Some(terse) = &terse {
            let levels = if same { "0..=6" } else { "0..=2" };
            entries.push(format!(
                "  {{ verbosity = \"{levels}\", text = {} }},",
                said(terse)
            ));
        }
        if let Some(middle) = middle.as_ref().filter(|_| !same) {
            entries.push(format!(
                "  {{ verbosity = \"3..=6\", text = {} }},",
                said(middle)
            ));
        }
        if !entries.is_empty() {
            let _ = writeln!(
                out,
                "[tools.{tool}.description]\nlevels = [\n{}\n]",
                entries.join("\n")
            );
        }
        // A level left to the server's words reads its arguments' own words too.
        for argument in &draft.arguments {
            let [terse, middle] = [Band::Terse, Band::Middle]
                .map(|level| argument.text(level).filter(|_| !left(level)));
            let levels: Vec<String> = match (terse, middle) {
                (Some(terse), Some(middle)) if terse == middle => vec![("0..=6", Some(terse))],
                (terse, middle) => vec![("0..=2", terse), ("3..=6", middle)],
            }
            .into_iter()
            .filter_map(|(levels, text)| Some((levels, text?)))
            .map(|(levels, text)| format!("{{ verbosity = \"{levels}\", text = {} }}", said(&text)))
            .collect();
            if levels.is_empty() {
                continue;
            }
            arguments += 1;
            let _ = writeln!(
                out,
                "\n# {}: {}\n[tools.{tool}.arguments.{}]\ndescription = {{ levels = [{}] }}",
                argument.path,
                comment(&argument.own),
                key(&argument.path),
                levels.join(", ")
            );
        }
        seal(&mut out, start);
    }
    Draft {
        text: out,
        tools,
        arguments,
        kept_for_tasks,
        findability: Vec::new(),
        audit: Default::default(),
    }
}

/// A drafted text as a TOML value: a string, or `false` where it says nothing.
fn said(text: &str) -> String {
    match text.is_empty() {
        true => "false".to_owned(),
        false => string(text),
    }
}

/// Where a tool's entry print goes until its entry is written whole.
const ENTRY: &str = "@@entry@@";

/// Puts the print of the entry written from `start` on in its `drafted_from`.
fn seal(out: &mut String, start: usize) {
    let print = entry_print(&out[start..]);
    let sealed = out[start..].replacen(ENTRY, &print, 1);
    out.truncate(start);
    out.push_str(&sealed);
}

/// The server's own text as a one-line comment, with its tokens: as written (its markup,
/// backticks and `/* */` kept), its spaces and line breaks one space each, at most 100
/// characters (then `…`).
pub(super) fn comment(text: &str) -> String {
    let line = one_line(text);
    let shown: String = line.chars().take(100).collect();
    let more = if shown.len() < line.len() { "…" } else { "" };
    format!("\"{shown}{more}\" ({} tokens)", count_tokens(text))
}

/// `text` on one line: its spaces and line breaks one space each, other control characters
/// a space.
fn one_line(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(|c: char| c.is_control(), " ")
}
