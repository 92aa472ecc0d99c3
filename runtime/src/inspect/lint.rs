//! `lint`: wording a model would trip over, found before a model does.

use super::readers::ReaderClass;
use super::report::{cells, strings};
use super::tokens;
use crate::{Description, MAX_VERBOSITY, ToolDef};
use serde_json::Value;
use std::collections::BTreeSet;

/// What `lint` checks beyond its fixed rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LintConfig {
    /// The most tokens a text may cost at each level (`None`: no budget).
    pub budgets: [Option<usize>; 10],
}

/// One finding: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The tool.
    pub tool: String,
    /// The string: `title`, `description`, `argument \`x\``, or `schema`.
    pub string: String,
    /// Which readers at which levels read it (empty when it is not about one text).
    pub read_by: String,
    /// What is wrong, and the fix.
    pub message: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.tool, self.string)?;
        if !self.read_by.is_empty() {
            write!(f, " [{}]", self.read_by)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every property name of a JSON Schema, at every nesting level (`$defs` included).
fn property_names(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                out.extend(properties.keys().cloned());
            }
            for value in map.values() {
                property_names(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| property_names(v, out)),
        _ => {}
    }
}

fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The argument names a text mentions: backticked identifiers, and the parameters of a
/// signature `tool(a, b?, c: type)` of the tool itself.
fn named_arguments(text: &str, tool: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split('`').collect();
    // Odd parts sit between two backticks (an unclosed last one is not a name).
    let mut names: Vec<String> = (1..parts.len().saturating_sub(1))
        .step_by(2)
        .map(|i| parts[i])
        .filter(|inside| is_identifier(inside))
        .map(str::to_owned)
        .collect();
    let opener = format!("{tool}(");
    let mut rest = text;
    while let Some(at) = rest.find(&opener) {
        let after = &rest[at + opener.len()..];
        let Some(close) = after.find(')') else { break };
        for parameter in after[..close].split(',') {
            let name: String = parameter
                .trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if is_identifier(&name) {
                names.push(name);
            }
        }
        rest = &after[close..];
    }
    names
}

/// Which readers read `text` of `description`, at which levels: `codex@0..=9, -@3`.
fn read_by(description: &Description, classes: &[ReaderClass], text: &str) -> String {
    let mut parts = Vec::new();
    for class in classes {
        let levels: Vec<usize> = cells(description, class)
            .iter()
            .enumerate()
            .filter(|(_, t)| **t == Some(text))
            .map(|(level, _)| level)
            .collect();
        if let (Some(first), Some(last)) = (levels.first(), levels.last()) {
            let range = if levels.len() == last - first + 1 && first != last {
                format!("{first}..={last}")
            } else {
                levels
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            };
            parts.push(format!("{}@{range}", class.label()));
        }
    }
    parts.join(", ")
}

/// Every finding for this catalog.
pub fn lint(
    defs: &[&'static ToolDef],
    classes: &[ReaderClass],
    config: &LintConfig,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let tool_names: BTreeSet<&str> = defs.iter().map(|d| d.name()).collect();
    for def in defs {
        let schema = def.input_schema();
        let mut properties = BTreeSet::new();
        property_names(schema, &mut properties);
        let mut names_arguments = false;
        for (label, description) in strings(def) {
            let mut texts: Vec<&'static str> = Vec::new();
            for class in classes {
                for text in cells(description, class).into_iter().flatten() {
                    if !texts.contains(&text) {
                        texts.push(text);
                    }
                }
            }
            let finding = |text: &str, message: String| Finding {
                tool: def.name().to_owned(),
                string: label.clone(),
                read_by: read_by(description, classes, text),
                message,
            };
            for text in &texts {
                for name in named_arguments(text, def.name()) {
                    if properties.contains(&name) {
                        names_arguments = true;
                    } else if !tool_names.contains(name.as_str())
                        && !matches!(name.as_str(), "true" | "false" | "null")
                    {
                        let known: Vec<&str> = properties.iter().map(String::as_str).collect();
                        findings.push(finding(
                            text,
                            format!(
                                "names argument `{name}`, which `{}` does not have; its arguments: {}",
                                def.name(),
                                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                            ),
                        ));
                    }
                }
            }
            for class in classes {
                let cells = cells(description, class);
                for terse in 0..cells.len() {
                    for rich in terse + 1..cells.len() {
                        let (Some(a), Some(b)) = (cells[terse], cells[rich]) else {
                            continue;
                        };
                        // Report each pair of texts once, at its first levels.
                        if a == b
                            || cells[..terse].contains(&Some(a))
                            || cells[terse + 1..rich].contains(&Some(b))
                        {
                            continue;
                        }
                        let (ta, tb) = (tokens::count(a), tokens::count(b));
                        if ta > tb {
                            findings.push(Finding {
                                tool: def.name().to_owned(),
                                string: label.clone(),
                                read_by: class.label(),
                                message: format!(
                                    "level {terse} ({ta} tokens) costs more than the richer level {rich} ({tb} tokens); make the terser text shorter"
                                ),
                            });
                        }
                    }
                }
            }
            for (level, budget) in config.budgets.iter().enumerate() {
                let Some(budget) = budget else { continue };
                let mut over: Vec<&str> = Vec::new();
                for class in classes {
                    if let Some(text) = cells(description, class)[level]
                        && tokens::count(text) > *budget
                        && !over.contains(&text)
                    {
                        over.push(text);
                        findings.push(finding(
                            text,
                            format!(
                                "{} tokens at level {level}, over its budget of {budget}",
                                tokens::count(text)
                            ),
                        ));
                    }
                }
            }
        }
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        if names_arguments && !closed {
            findings.push(Finding {
                tool: def.name().to_owned(),
                string: "schema".to_owned(),
                read_by: String::new(),
                message:
                    "accepts unknown arguments while its descriptions name arguments: a misspelt \
                          name would be silently ignored; add `#[serde(deny_unknown_fields)]` \
                          (the schema then says `additionalProperties: false`)"
                        .to_owned(),
            });
        }
    }
    let tailored = defs.iter().any(|d| d.is_tailored());
    for class in classes.iter().filter(|_| tailored) {
        let at = |level: u8| -> Vec<Option<&'static str>> {
            defs.iter()
                .flat_map(|def| {
                    strings(def)
                        .into_iter()
                        .map(|(_, d)| d.resolve(&class.ctx(level)))
                })
                .collect()
        };
        let first = at(0);
        if (1..=MAX_VERBOSITY).all(|level| at(level) == first) {
            findings.push(Finding {
                tool: "(catalog)".to_owned(),
                string: "every string".to_owned(),
                read_by: class.label(),
                message: "this reader gets the same catalog at every level: its tailoring does not \
                          vary by level; give its rules level entries, or drop the levels it never sees"
                    .to_owned(),
            });
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::named_arguments;

    #[test]
    fn finds_backticked_names_and_signature_parameters() {
        assert_eq!(
            named_arguments(
                "search_notes(query, tag?, limit?) -> [{id}]",
                "search_notes"
            ),
            ["query", "tag", "limit"]
        );
        assert_eq!(
            named_arguments("Pass `query` as plain words, no `#`; see `a b`.", "x"),
            ["query"]
        );
        assert_eq!(named_arguments("f(a: string, b?: number)", "f"), ["a", "b"]);
        assert!(named_arguments("no names here", "t").is_empty());
    }
}
