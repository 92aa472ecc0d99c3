//! The tasks file: what users ask, and the tool that should answer.
//!
//! ```toml
//! [[task]]
//! query = "find my notes about the quarterly budget"
//! expect = "search_notes"            # the tool that should be found
//! readers = ["codex", "grok"]        # optional: only these reader classes
//! ```

use crate::inspect::readers::ReaderClass;
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    task: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    query: Spanned<String>,
    expect: Spanned<String>,
    #[serde(default)]
    readers: Vec<Spanned<String>>,
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
    pub fn load(path: &str) -> Result<Tasks, String> {
        let source =
            std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
        Tasks::parse(path, &source)
    }

    /// Parses a tasks file's text; `path` names it in messages. Every error is
    /// `PATH:LINE:COL: message`; all are reported at once.
    pub fn parse(path: &str, source: &str) -> Result<Tasks, String> {
        let mut tasks = Tasks {
            path: path.to_owned(),
            source: source.to_owned(),
            tasks: Vec::new(),
        };
        let file: File = toml::from_str(source).map_err(|e| {
            let at = e.span().map_or(0, |span| span.start);
            tasks.at(at, e.message())
        })?;
        let mut errors = Vec::new();
        if file.task.is_empty() {
            errors.push(tasks.at(0, "no `[[task]]`; write at least one"));
        }
        for entry in file.task {
            for (field, value) in [("query", &entry.query), ("expect", &entry.expect)] {
                if value.get_ref().trim().is_empty() {
                    errors.push(tasks.at(value.span().start, &format!("`{field}` is empty")));
                }
            }
            tasks.tasks.push(Task {
                query: entry.query.into_inner(),
                spans: (
                    entry.expect.span(),
                    entry.readers.iter().map(Spanned::span).collect(),
                ),
                expect: entry.expect.into_inner(),
                readers: entry.readers.into_iter().map(Spanned::into_inner).collect(),
            });
        }
        if errors.is_empty() {
            Ok(tasks)
        } else {
            Err(errors.join("\n"))
        }
    }

    /// The tasks, in file order.
    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// `PATH:LINE:COL: message` for byte offset `at` of the source.
    fn at(&self, at: usize, message: &str) -> String {
        let before = &self.source[..at.min(self.source.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{}:{line}:{col}: {message}", self.path)
    }

    /// Checks the tasks against a catalog: every `expect` is one of `tools`, every reader
    /// names one of `classes`. All errors at once, each `PATH:LINE:COL: message`.
    pub fn check(&self, tools: &[&str], classes: &[ReaderClass]) -> Result<(), String> {
        let mut sorted = tools.to_vec();
        sorted.sort_unstable();
        let mut errors = Vec::new();
        for task in &self.tasks {
            if !tools.contains(&task.expect.as_str()) {
                errors.push(self.at(
                    task.spans.0.start,
                    &format!(
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
                        &format!(
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
            Err(errors.join("\n"))
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
        .unwrap_err();
        assert!(err.starts_with("t.toml:4:1: unknown field `who`"), "{err}");
        let err = Tasks::parse("t.toml", "[[task]]\nquery = \" \"\nexpect = \"\"\n").unwrap_err();
        assert_eq!(
            err,
            "t.toml:2:9: `query` is empty\nt.toml:3:10: `expect` is empty"
        );
        assert!(
            Tasks::parse("t.toml", "task = []")
                .unwrap_err()
                .contains("no `[[task]]`")
        );
        let tasks = Tasks::parse("t.toml", FILE).unwrap();
        let err = tasks
            .check(&["search_notes"], &[ReaderClass::parse("codex")])
            .unwrap_err();
        assert_eq!(
            err,
            "t.toml:7:10: `expect` names `tag_note`, which the catalog does not list; its tools: search_notes\n\
             t.toml:8:21: reader `grok/spark` is no reader class of this catalog; its classes: codex"
        );
    }
}
