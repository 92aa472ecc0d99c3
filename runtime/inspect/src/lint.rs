//! `lint`: wording a model would trip over, found before a model does.

use super::readers::ReaderClass;
use super::report::{cells, strings};
use super::tokens;
use mcp_tailor_core::seam::Found;
use mcp_tailor_core::{Description, MAX_VERBOSITY, ToolDef};
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

impl Finding {
    /// Whether this is about the server's own input schema (`string` is `schema`), which no
    /// tailoring file can change: `mcp-tailor inspect lint` prints it as a note about the
    /// upstream, not as a failure of the file.
    pub fn is_about_schema(&self) -> bool {
        self.string == "schema"
    }
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
pub fn property_names(schema: &Value, out: &mut BTreeSet<String>) {
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

/// Every text value a JSON Schema allows or suggests (`enum`, `const`, `default`,
/// `examples`) and every type it names, at every nesting level: a description that names
/// one names a value.
fn schema_values(schema: &Value, out: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("enum" | "examples", Value::Array(items)) => {
                        out.extend(items.iter().filter_map(Value::as_str).map(str::to_owned))
                    }
                    ("const" | "default" | "type", Value::String(text)) => {
                        out.insert(text.clone());
                    }
                    _ => schema_values(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| schema_values(v, out)),
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

/// The argument names a text mentions: backticked identifiers ([`backticked`]), and the
/// parameters of a signature `tool(a, b?, c: type)` of the tool itself
/// ([`signature_parameters`]); each with whether the text gives it as a value. Each name
/// once.
fn named_arguments(text: &str, tool: &str) -> Vec<(String, bool)> {
    let mut names = backticked(text);
    for name in signature_parameters(text, tool) {
        if !names.iter().any(|(named, _)| *named == name) {
            names.push((name, false));
        }
    }
    names
}

/// The backticked identifiers of a text, each with whether the text gives it as a value
/// (`Possible values include `asc``, `a `cursor` value`), wherever it names it — a word
/// that is no argument then names no missing one. Each name once.
fn backticked(text: &str) -> Vec<(String, bool)> {
    let parts: Vec<&str> = text.split('`').collect();
    // Odd parts sit between two backticks (an unclosed last one is not a name).
    let quoted: Vec<usize> = (1..parts.len().saturating_sub(1))
        .step_by(2)
        .filter(|&i| is_identifier(parts[i]))
        .collect();
    let values: BTreeSet<&str> = quoted
        .iter()
        .filter(|&&i| {
            let before = parts[..i].concat();
            let sentence = before
                .rfind(['.', '!', '?', '\n'])
                .map_or(before.as_str(), |end| &before[end + 1..]);
            let after = parts[i + 1]
                .split(['.', '!', '?', '\n'])
                .next()
                .unwrap_or("");
            let said = format!("{sentence} {after}").to_ascii_lowercase();
            said.contains("values") || parts[i + 1].to_ascii_lowercase().starts_with(" value")
        })
        .map(|&i| parts[i])
        .collect();
    let mut names: Vec<(String, bool)> = Vec::new();
    for &i in &quoted {
        if !names.iter().any(|(named, _)| named == parts[i]) {
            names.push((parts[i].to_owned(), values.contains(parts[i])));
        }
    }
    names
}

/// The parameters of each signature `tool(a, b?, c: type)` of the tool itself in a text,
/// each once.
fn signature_parameters(text: &str, tool: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
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
            if is_identifier(&name) && !names.contains(&name) {
                names.push(name);
            }
        }
        rest = &after[close..];
    }
    names
}

/// Which readers read `text` of `description`, at which levels: `codex@0..=9, -@3`.
fn read_by(description: &Description, classes: &[ReaderClass], text: &str) -> String {
    readers_where(classes, |class, level| {
        cells(description, class)[level] == Some(text)
    })
}

/// The readers and levels where `reads` holds: `codex@0..=9, -@3`.
fn readers_where(classes: &[ReaderClass], reads: impl Fn(&ReaderClass, usize) -> bool) -> String {
    let mut parts = Vec::new();
    for class in classes {
        let levels: Vec<usize> = (0..=usize::from(MAX_VERBOSITY))
            .filter(|&level| reads(class, level))
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

/// Every finding for this catalog: per tool, texts naming arguments it lacks, terse levels
/// costing more than rich ones, texts over budget and an open schema; then readers whose
/// catalog never varies by level.
pub fn lint(
    defs: &[&'static ToolDef],
    classes: &[ReaderClass],
    config: &LintConfig,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let tool_names: BTreeSet<&str> = defs.iter().map(|d| d.name()).collect();
    for def in defs {
        let mut properties = BTreeSet::new();
        property_names(def.input_schema(), &mut properties);
        let mut values = BTreeSet::new();
        schema_values(def.input_schema(), &mut values);
        let mut names_arguments = false;
        for tailorable in strings(def) {
            let (label, description) = (tailorable.label, tailorable.description);
            let string = Strings {
                def,
                label: &label,
                key: &tailorable.key,
                description,
                classes,
            };
            let known = Known {
                properties: &properties,
                values: &values,
                tools: &tool_names,
            };
            names_arguments |= unknown_arguments(&string, &known, &mut findings);
            own_words::keeps_the_servers_rules(&string, &known, &mut findings);
            terse_costs_more(&string, &mut findings);
            over_budget(&string, config, &mut findings);
        }
        if names_arguments {
            open_schema(def, &mut findings);
        }
        silent_description(def, classes, &mut findings);
    }
    if defs.iter().any(|d| d.is_tailored()) {
        invariant_readers(defs, classes, &mut findings);
    }
    findings
}

/// One tailorable string of one tool, as every reader class reads it.
struct Strings<'a> {
    def: &'static ToolDef,
    label: &'a str,
    /// Its key among the definition's strings (`description`, an argument's path).
    key: &'a str,
    description: &'static Description,
    classes: &'a [ReaderClass],
}

impl Strings<'_> {
    /// A finding about `text`, naming the readers and levels that read it.
    fn finding(&self, text: &str, message: String) -> Finding {
        Finding {
            tool: self.def.name().to_owned(),
            string: self.label.to_owned(),
            read_by: read_by(self.description, self.classes, text),
            message,
        }
    }

    /// Whether `text` is a server's own words wherever it is read (another server's tool
    /// inspected; not where its tailoring file words it, nor a compiled definition).
    fn servers_own(&self, text: &str) -> bool {
        self.classes.iter().all(|class| {
            cells(self.description, class)
                .into_iter()
                .enumerate()
                .filter(|(_, cell)| *cell == Some(text))
                .all(|(level, _)| {
                    self.def.reads_file(self.key, &class.ctx(level as u8)) == Some(false)
                })
        })
    }

    /// Every distinct text some reader reads at some level, in first-read order.
    fn texts(&self) -> Vec<&'static str> {
        let mut texts: Vec<&'static str> = Vec::new();
        for class in self.classes {
            for text in cells(self.description, class).into_iter().flatten() {
                if !texts.contains(&text) {
                    texts.push(text);
                }
            }
        }
        texts
    }
}

/// What a tool's descriptions may name besides its arguments.
struct Known<'a> {
    /// Its arguments, at every nesting level.
    properties: &'a BTreeSet<String>,
    /// The values its schema allows or suggests.
    values: &'a BTreeSet<String>,
    /// The catalog's tools.
    tools: &'a BTreeSet<&'a str>,
}

/// A text that names an argument the tool lacks (another tool's name, a value of its
/// schema, `true`, `false` and `null` aside). A server's own words are read for signatures
/// only: its prose backticks values, result fields and names of its service as often as
/// arguments (firecrawl-mcp's `status`, `changed`, `cron`), while a tailoring file's
/// author backticks an argument. Returns whether any text names one of the tool's own
/// arguments.
fn unknown_arguments(string: &Strings<'_>, known: &Known<'_>, findings: &mut Vec<Finding>) -> bool {
    let properties = known.properties;
    let mut names_arguments = false;
    let tool = string.def.name();
    // What the server's own words name: a file's text repeating it (a level `init` drafted
    // of the server's sentences) is judged where the server says it.
    let servers: BTreeSet<String> = string
        .texts()
        .into_iter()
        .filter(|text| string.servers_own(text))
        .flat_map(|text| {
            named_arguments(text, tool)
                .into_iter()
                .map(|(name, _)| name)
        })
        .collect();
    for text in string.texts() {
        // Of a server's own words, the names its signatures give.
        let checked = string
            .servers_own(text)
            .then(|| signature_parameters(text, tool));
        for (name, as_value) in named_arguments(text, tool) {
            if properties.contains(&name) {
                names_arguments = true;
            } else if checked.as_ref().is_none_or(|names| names.contains(&name))
                && (checked.is_some() || !servers.contains(&name))
                && !as_value
                && !known.tools.contains(name.as_str())
                && !known.values.contains(&name)
                && !matches!(name.as_str(), "true" | "false" | "null")
            {
                let known: Vec<&str> = properties.iter().map(String::as_str).collect();
                findings.push(string.finding(
                    text,
                    format!(
                        "names argument `{name}`, which `{}` does not have; its arguments: {}",
                        string.def.name(),
                        if known.is_empty() {
                            "none".to_owned()
                        } else {
                            known.join(", ")
                        }
                    ),
                ));
            }
        }
    }
    names_arguments
}

/// A terser level whose text costs more tokens than a richer level's, per reader; each pair
/// of texts is reported once, at its first levels.
fn terse_costs_more(string: &Strings<'_>, findings: &mut Vec<Finding>) {
    for class in string.classes {
        let cells = cells(string.description, class);
        for terse in 0..cells.len() {
            for rich in terse + 1..cells.len() {
                let (Some(a), Some(b)) = (cells[terse], cells[rich]) else {
                    continue;
                };
                if a == b
                    || cells[..terse].contains(&Some(a))
                    || cells[terse + 1..rich].contains(&Some(b))
                {
                    continue;
                }
                let (ta, tb) = (tokens::count(a), tokens::count(b));
                if ta > tb {
                    findings.push(Finding {
                        tool: string.def.name().to_owned(),
                        string: string.label.to_owned(),
                        read_by: class.label(),
                        message: format!(
                            "level {terse} ({ta} tokens) costs more than the richer level {rich} ({tb} tokens); make the terser text shorter"
                        ),
                    });
                }
            }
        }
    }
}

/// A text over its level's `--budget`, once per text.
fn over_budget(string: &Strings<'_>, config: &LintConfig, findings: &mut Vec<Finding>) {
    for (level, budget) in config.budgets.iter().enumerate() {
        let Some(budget) = budget else { continue };
        let mut over: Vec<&str> = Vec::new();
        for class in string.classes {
            if let Some(text) = cells(string.description, class)[level]
                && tokens::count(text) > *budget
                && !over.contains(&text)
            {
                over.push(text);
                findings.push(string.finding(
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

/// A tool description that says nothing (`None`, a file's `false`) for some reader: MCP
/// allows it, but a model then chooses the tool by its name and schema alone.
fn silent_description(def: &'static ToolDef, classes: &[ReaderClass], findings: &mut Vec<Finding>) {
    let description = def.description();
    let silent = |class: &ReaderClass, level: usize| {
        description.lookup(&class.ctx(level as u8)) == Found::Nothing
    };
    let read_by = readers_where(classes, silent);
    if read_by.is_empty() {
        return;
    }
    findings.push(Finding {
        tool: def.name().to_owned(),
        string: "description".to_owned(),
        read_by,
        message: "says nothing: clients list the tool without a description, and a model \
                  chooses it by its name and schema alone (MCP allows it)"
            .to_owned(),
    });
}

/// A tool whose descriptions name its arguments while its schema accepts unknown ones.
fn open_schema(def: &'static ToolDef, findings: &mut Vec<Finding>) {
    if def.input_schema().get("additionalProperties") == Some(&Value::Bool(false)) {
        return;
    }
    findings.push(Finding {
        tool: def.name().to_owned(),
        string: "schema".to_owned(),
        read_by: String::new(),
        message: "accepts unknown arguments while its descriptions name arguments: a misspelt \
                  name would be silently ignored; the schema can say \
                  `additionalProperties: false` (in Rust, `#[serde(deny_unknown_fields)]`)"
            .to_owned(),
    });
}

/// A reader of a tailored catalog who reads the same catalog at every level.
fn invariant_readers(
    defs: &[&'static ToolDef],
    classes: &[ReaderClass],
    findings: &mut Vec<Finding>,
) {
    for class in classes {
        let at = |level: u8| -> Vec<Option<&'static str>> {
            defs.iter()
                .flat_map(|def| {
                    strings(def)
                        .into_iter()
                        .map(|s| s.description.resolve(&class.ctx(level)))
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
}

mod own_words;

#[cfg(test)]
mod tests;
