//! The tasks file: what users ask, and the tool that should answer.
//!
//! ```toml
//! [[task]]
//! query = "find my notes about the quarterly budget"
//! expect = "search_notes"            # the tool that should be found
//! readers = ["codex", "grok"]        # optional: only these reader classes
//! ```

use crate::readers::ReaderClass;
use mcp_tailor_core::seam::source::{
    Lines, Span, Value, array, describe, diagnostics, keys, table,
};
use mcp_tailor_core::{Diagnostic, FileError};
use mcp_tailor_model::{Errors, Sink};
use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// One task: a query as a user would ask it, and the tool that should be found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Task {
    /// The query, as a user would ask it.
    pub query: String,
    /// The name of the tool that should be found.
    pub expect: String,
    /// The reader classes this task is about (empty: every class). An entry is a class's
    /// label (`-`, `codex`, `codex/5.4`, `_/spark`); a bare runner also names that runner's
    /// classes with a model.
    pub readers: Vec<String>,
    /// Where `expect` and each reader stand in the file (byte ranges), for messages.
    spans: (Range<usize>, Vec<Range<usize>>),
}

impl Task {
    /// A task written in code (no file).
    pub fn new(query: &str, expect: &str) -> Task {
        Task {
            query: query.to_owned(),
            expect: expect.to_owned(),
            readers: Vec::new(),
            spans: (0..0, Vec::new()),
        }
    }

    /// Whether the task is about `class` (every class, when it names no readers).
    pub fn applies_to(&self, class: &ReaderClass) -> bool {
        self.readers.is_empty() || self.readers.iter().any(|r| names_class(r, class))
    }
}

/// Whether a `readers` entry names `class`: its label (`codex/5.4`), or a bare runner (no `/`)
/// for every class of that runner.
fn names_class(reader: &str, class: &ReaderClass) -> bool {
    reader == class.label() || (!reader.contains('/') && Some(reader) == class.runner())
}

/// A tasks file, with the text it was read from (for `LINE:COL` in messages).
#[derive(Clone, Debug)]
pub struct Tasks {
    path: String,
    source: String,
    tasks: Vec<Task>,
}

impl Tasks {
    /// Reads and checks a tasks file.
    pub fn load(path: &str) -> Result<Tasks, FileError> {
        let source = std::fs::read_to_string(path).map_err(|error| FileError::read(path, error))?;
        Tasks::parse(path, &source)
    }

    /// Parses a tasks file's text; `path` names it in messages. Every mistake is reported
    /// at once (syntax errors, unknown keys, wrong kinds, missing and empty fields), each
    /// `PATH:LINE:COL: message`, in file order.
    pub fn parse(path: &str, source: &str) -> Result<Tasks, FileError> {
        let lines = Lines::new(path, source);
        let (root, syntax) = DeTable::parse_recoverable(source);
        let mut errors = Errors::default();
        let mut tasks = Vec::new();
        let mut found = false;
        for (_, value) in keys(root.get_ref(), &["task"], &mut errors) {
            found = true;
            let Some(entries) = array(value, "`[[task]]` tables", &mut errors) else {
                continue;
            };
            for entry in entries.iter() {
                if let Some(table) = table(entry, "a `[[task]]` table", &mut errors) {
                    tasks.extend(task(table, entry.span(), &mut errors));
                }
            }
        }
        if !found && syntax.is_empty() {
            errors.error(0..0, "no `[[task]]`; write at least one".to_owned());
        }
        let diagnostics = diagnostics(&lines, &syntax, errors);
        if !diagnostics.is_empty() {
            return Err(FileError::Invalid(diagnostics));
        }
        if tasks.is_empty() {
            return Err(FileError::Invalid(vec![Diagnostic {
                at: lines.locate(0),
                message: "no `[[task]]`; write at least one".to_owned(),
            }]));
        }
        Ok(Tasks {
            path: path.to_owned(),
            source: source.to_owned(),
            tasks,
        })
    }

    /// The tasks, in file order.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// `message` at byte offset `at` of the source.
    fn at(&self, at: usize, message: String) -> Diagnostic {
        Diagnostic {
            at: Lines::new(&self.path, &self.source).locate(at),
            message,
        }
    }

    /// Checks the tasks against a catalog: every `expect` is one of `tools`, every reader
    /// names one of `classes`. All errors at once, each `PATH:LINE:COL: message`.
    pub fn check(&self, tools: &[&str], classes: &[ReaderClass]) -> Result<(), FileError> {
        let mut sorted = tools.to_vec();
        sorted.sort_unstable();
        let mut errors = Vec::new();
        for task in &self.tasks {
            if !tools.contains(&task.expect.as_str()) {
                errors.push(self.at(
                    task.spans.0.start,
                    format!(
                        "`expect` names `{}`, which the catalog does not list; its tools: {}",
                        task.expect,
                        sorted.join(", ")
                    ),
                ));
            }
            for (i, reader) in task.readers.iter().enumerate() {
                if !classes.iter().any(|class| names_class(reader, class)) {
                    let labels: Vec<String> = classes.iter().map(ReaderClass::label).collect();
                    let at = task.spans.1.get(i).map_or(0, |s| s.start);
                    errors.push(self.at(
                        at,
                        format!(
                            "reader `{reader}` is no reader class of this catalog; its classes: {}",
                            labels.join(", ")
                        ),
                    ));
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(FileError::Invalid(errors))
        }
    }
}

/// One `[[task]]` table: its task, when it has a non-empty `query` and `expect`; every
/// mistake reported.
fn task(table: &DeTable<'_>, span: Span, errors: &mut Errors<Span>) -> Option<Task> {
    let (mut query, mut expect, mut readers) = (None, None, Vec::new());
    let given = keys(table, &["query", "expect", "readers"], errors);
    for &(key, value) in &given {
        match key {
            "readers" => {
                let Some(list) = array(value, "reader class labels", errors) else {
                    continue;
                };
                readers.extend(
                    list.iter()
                        .filter_map(|v| string(v, "a reader class", errors)),
                );
            }
            _ => {
                let Some((text, at)) = string(value, key, errors) else {
                    continue;
                };
                if text.trim().is_empty() {
                    errors.error(at.clone(), format!("`{key}` is empty"));
                }
                let slot = if key == "query" {
                    &mut query
                } else {
                    &mut expect
                };
                *slot = Some((text, at));
            }
        }
    }
    for name in ["query", "expect"] {
        if !given.iter().any(|(key, _)| *key == name) {
            errors.error(span.clone(), format!("this `[[task]]` has no `{name}`"));
        }
    }
    let ((query, _), (expect, expect_at)) = (query?, expect?);
    if query.trim().is_empty() || expect.trim().is_empty() {
        return None;
    }
    Some(Task {
        query,
        expect,
        spans: (
            expect_at,
            readers.iter().map(|(_, at)| at.clone()).collect(),
        ),
        readers: readers.into_iter().map(|(reader, _)| reader).collect(),
    })
}

/// A string value and where it stands; any other kind is an error naming `what`.
fn string(value: &Value<'_>, what: &str, errors: &mut Errors<Span>) -> Option<(String, Span)> {
    match value.get_ref() {
        DeValue::String(text) => Some((text.to_string(), value.span())),
        other => {
            errors.error(
                value.span(),
                format!(
                    "expected text for {what}: a string; found {}",
                    describe(other)
                ),
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "\
[[task]]
query = \"find my notes about the budget\"
expect = \"search_notes\"

[[task]]
query = \"tag it\"
expect = \"tag_note\"
readers = [\"codex\", \"grok/spark\"]
";

    #[test]
    fn reads_tasks_and_readers() {
        let tasks = Tasks::parse("t.toml", FILE).unwrap();
        assert_eq!(tasks.tasks().len(), 2);
        assert_eq!(tasks.tasks()[1].readers, ["codex", "grok/spark"]);
        let tag = &tasks.tasks()[1];
        assert!(tag.applies_to(&ReaderClass::parse("codex/5.4")));
        assert!(tag.applies_to(&ReaderClass::parse("grok/spark")));
        assert!(!tag.applies_to(&ReaderClass::parse("grok")));
        assert!(tasks.tasks()[0].applies_to(&ReaderClass::parse("-")));
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = Tasks::parse(
            "t.toml",
            "[[task]]\nquery = \"q\"\nexpect = \"\"\nwho = 1\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "t.toml:3:10: `expect` is empty\n\
             t.toml:4:1: Unknown field: `who`. Available values: `query`, `expect`, `readers`"
        );
        let err = Tasks::parse("t.toml", "[[task]]\nquery = \" \"\nexpect = \"\"\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "t.toml:2:9: `query` is empty\nt.toml:3:10: `expect` is empty"
        );
        for empty in ["task = []", "", "# nothing\n"] {
            let err = Tasks::parse("t.toml", empty).unwrap_err().to_string();
            assert!(err.contains("no `[[task]]`"), "{empty:?}: {err}");
        }
        let tasks = Tasks::parse("t.toml", FILE).unwrap();
        let err = tasks
            .check(&["search_notes"], &[ReaderClass::parse("codex")])
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "t.toml:7:10: `expect` names `tag_note`, which the catalog does not list; its tools: search_notes\n\
             t.toml:8:21: reader `grok/spark` is no reader class of this catalog; its classes: codex"
        );
    }

    /// One unknown key no longer hides the mistakes after it: every one is reported, in
    /// file order, a syntax error among them.
    #[test]
    fn every_mistake_at_once() {
        let source = "\
[[task]]
querry = \"find the budget\"
expect = \"search_notes\"

[[task]]
query = 3
expect = \"\"
readers = \"codex\"

[[task]]
query = \"tag it\"
expect = \"tag_note\"
readers = [\"codex\", 5]

[[task]]
query = \"unclosed
expect = \"x\"

[tasks]
";
        let err = Tasks::parse("t.toml", source).unwrap_err().to_string();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(
            lines,
            [
                "t.toml:1:1: this `[[task]]` has no `query`",
                "t.toml:2:1: Unknown field: `querry`. Did you mean `query`?",
                "t.toml:6:9: expected text for query: a string; found an integer",
                "t.toml:7:10: `expect` is empty",
                "t.toml:8:11: expected a list: reader class labels; found a string",
                "t.toml:13:21: expected text for a reader class: a string; found an integer",
                "t.toml:16:18: invalid basic string, expected `\"`",
                "t.toml:19:2: Unknown field: `tasks`. Did you mean `task`?",
            ],
            "{err}"
        );
    }
}
