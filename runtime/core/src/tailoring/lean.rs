//! Lean schemas (`[schemas]`): what a tool's input and output schemas spend tokens on and
//! no reader needs, left out at the levels a file names. Two kinds, each its own key:
//! `$schema` where the schema means the same without it, and titles that repeat a name.
//!
//! | key | left out | where it stays |
//! |---|---|---|
//! | `dialect` | the root's `$schema` naming JSON Schema 2020-12 (MCP's default dialect) or draft-07 | a draft-07 schema using a keyword 2020-12 reads otherwise (`items` as a list, `dependencies`, `$ref` beside a keyword that checks, …); any other dialect |
//! | `titles` | a property's title made of its name's letters (`Repo Path` for `repo_path`); any other schema's one-word title (a type's name: `statusArguments`) | a title that says more |
//!
//! Only keywords in schema places are read: a `default`, `const`, `enum` or `examples`
//! value holding a `title` is data, left as written.

use serde_json::{Map, Value};

/// A schema object.
type Schema = Map<String, Value>;

/// The levels at which a file leaves each kind of schema boilerplate out (bit N: level N).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lean {
    pub(crate) dialect: u16,
    pub(crate) titles: u16,
}

/// What a schema loses for one reader: [`Lean`] at that reader's level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cut {
    dialect: bool,
    titles: bool,
}

impl Lean {
    /// Whether `$schema` is left out at `level`, where the schema means the same without it.
    pub fn dialect_at(&self, level: u8) -> bool {
        self.dialect & (1 << level) != 0
    }

    /// Whether titles that repeat a name are left out at `level`.
    pub fn titles_at(&self, level: u8) -> bool {
        self.titles & (1 << level) != 0
    }

    /// Whether the file leaves nothing out at any level.
    pub fn is_empty(&self) -> bool {
        self.dialect == 0 && self.titles == 0
    }

    /// The kinds of boilerplate `schema` holds, each at every level where it does: what a
    /// file could leave out of it.
    pub fn found_in(schema: &Map<String, Value>) -> Lean {
        let holds = |dialect, titles| Cut { dialect, titles }.lean(&mut schema.clone());
        let every = |held: bool| if held { (1 << 10) - 1 } else { 0 };
        Lean {
            dialect: every(holds(true, false)),
            titles: every(holds(false, true)),
        }
    }

    /// The kinds of boilerplate either holds.
    pub fn or(self, other: Lean) -> Lean {
        Lean {
            dialect: self.dialect | other.dialect,
            titles: self.titles | other.titles,
        }
    }

    /// What a schema loses for a reader at `level` (read by the view, with `rmcp`).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn cut(&self, level: u8) -> Cut {
        Cut {
            dialect: self.dialect_at(level),
            titles: self.titles_at(level),
        }
    }
}

impl Cut {
    /// Whether it leaves nothing out.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn is_none(self) -> bool {
        !self.dialect && !self.titles
    }

    /// Leaves out of `schema` what this cut leaves out; whether anything went.
    pub(crate) fn lean(self, schema: &mut Map<String, Value>) -> bool {
        let mut changed = false;
        if self.dialect && same_without_dialect(schema) {
            changed |= schema.shift_remove("$schema").is_some();
        }
        if self.titles {
            untitle(schema, None, &mut changed);
            each_subschema(schema, &mut |schema, name| {
                untitle(schema, name, &mut changed);
            });
        }
        changed
    }
}

/// The dialect `$schema` names, by its address less scheme and a trailing `#`.
const DRAFT_07: &str = "json-schema.org/draft-07/schema";
const DRAFT_2020_12: &str = "json-schema.org/draft/2020-12/schema";

/// Keywords a draft-07 validator ignores and a 2020-12 one applies, or the reverse.
const READ_OTHERWISE: &[&str] = &[
    "additionalItems",
    "dependencies",
    "$id",
    "prefixItems",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
];

/// Keywords that check nothing: beside a `$ref`, draft-07 and 2020-12 read them alike.
const ANNOTATIONS: &[&str] = &[
    "$ref",
    "$comment",
    "title",
    "description",
    "default",
    "examples",
    "readOnly",
    "writeOnly",
    "deprecated",
];

/// Whether `schema` (a root) means the same without its `$schema`: it names 2020-12, or
/// draft-07 and uses no keyword the two read otherwise.
fn same_without_dialect(schema: &mut Map<String, Value>) -> bool {
    let Some(Value::String(uri)) = schema.get("$schema") else {
        return false;
    };
    let uri = uri.trim_end_matches('#');
    let uri = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(uri);
    match uri {
        DRAFT_2020_12 => true,
        DRAFT_07 => {
            let mut alike = reads_alike(schema);
            each_subschema(schema, &mut |schema, _| alike &= reads_alike(schema));
            alike
        }
        _ => false,
    }
}

/// Whether draft-07 and 2020-12 read this one schema (not its subschemas) alike.
fn reads_alike(schema: &Map<String, Value>) -> bool {
    let tuple = matches!(schema.get("items"), Some(Value::Array(_)));
    let other = schema.keys().any(|k| READ_OTHERWISE.contains(&k.as_str()));
    let ref_beside =
        schema.contains_key("$ref") && schema.keys().any(|k| !ANNOTATIONS.contains(&k.as_str()));
    !(tuple || other || ref_beside)
}

/// Leaves out `schema`'s title where it repeats a name: the property `name`'s own letters,
/// or (not a property) one word, a type's name.
fn untitle(schema: &mut Map<String, Value>, name: Option<&str>, changed: &mut bool) {
    let Some(Value::String(title)) = schema.get("title") else {
        return;
    };
    let repeats = match name {
        Some(name) => letters(title) == letters(name),
        None => !title.trim().is_empty() && !title.trim().contains(char::is_whitespace),
    };
    if repeats {
        schema.shift_remove("title");
        *changed = true;
    }
}

/// A name's letters and digits, lowercase: `Repo Path`, `repo_path` and `repoPath` alike.
fn letters(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Calls `visit` on every subschema below `schema`, depth first, with the property name
/// where the subschema is a property's.
fn each_subschema(schema: &mut Schema, visit: &mut dyn FnMut(&mut Schema, Option<&str>)) {
    for (key, value) in schema.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for (name, property) in properties.iter_mut() {
                    if let Value::Object(property) = property {
                        visit(property, Some(name));
                        each_subschema(property, visit);
                    }
                }
            }
            (
                "patternProperties" | "$defs" | "definitions" | "dependentSchemas" | "dependencies",
                Value::Object(named),
            ) => {
                for inner in named.values_mut() {
                    if let Value::Object(inner) = inner {
                        visit(inner, None);
                        each_subschema(inner, visit);
                    }
                }
            }
            ("items" | "prefixItems" | "allOf" | "anyOf" | "oneOf", Value::Array(list)) => {
                for inner in list {
                    if let Value::Object(inner) = inner {
                        visit(inner, None);
                        each_subschema(inner, visit);
                    }
                }
            }
            (
                "items"
                | "additionalProperties"
                | "additionalItems"
                | "contains"
                | "not"
                | "if"
                | "then"
                | "else"
                | "propertyNames"
                | "unevaluatedProperties"
                | "unevaluatedItems",
                Value::Object(inner),
            ) => {
                visit(inner, None);
                each_subschema(inner, visit);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lean(schema: Value, dialect: bool, titles: bool) -> Option<Value> {
        let Value::Object(mut schema) = schema else {
            unreachable!()
        };
        let changed = Cut { dialect, titles }.lean(&mut schema);
        changed.then_some(Value::Object(schema))
    }

    #[test]
    fn a_draft_07_schema_that_reads_alike_in_2020_12_loses_its_dialect() {
        let zod = json!({"type": "object", "properties": {"path": {"type": "string"}},
            "required": ["path"], "additionalProperties": false,
            "$schema": "http://json-schema.org/draft-07/schema#"});
        let leaned = lean(zod, true, false).unwrap();
        assert!(leaned.get("$schema").is_none());
        assert_eq!(leaned["additionalProperties"], json!(false));
        // 2020-12 itself goes too; titles are not asked for, so they stay.
        let named =
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "A"});
        assert_eq!(lean(named, true, false), Some(json!({"title": "A"})));
    }

    #[test]
    fn a_dialect_that_changes_what_the_schema_means_stays() {
        let draft_07 = |extra: Value| {
            let mut schema = json!({"$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object"});
            schema["properties"] = json!({"p": extra});
            schema
        };
        for reads_otherwise in [
            json!({"type": "array", "items": [{"type": "string"}]}),
            json!({"type": "array", "additionalItems": false}),
            json!({"$ref": "#/definitions/x", "type": "string"}),
            json!({"type": "object", "dependencies": {"a": ["b"]}}),
        ] {
            assert_eq!(lean(draft_07(reads_otherwise.clone()), true, true), None);
        }
        // A `$ref` with a description beside it reads alike.
        let described = draft_07(json!({"$ref": "#/definitions/x", "description": "X."}));
        assert!(lean(described, true, false).is_some());
        let draft_04 = json!({"$schema": "http://json-schema.org/draft-04/schema#"});
        assert_eq!(lean(draft_04, true, true), None);
    }

    #[test]
    fn titles_that_repeat_a_name_go_and_those_that_say_more_stay() {
        let pydantic = json!({"title": "statusArguments", "type": "object", "properties": {
            "repo_path": {"title": "Repo Path", "type": "string"},
            "q": {"title": "Query", "type": "string"},
            "maxCount": {"title": "Max Count", "type": "integer"},
            "title": {"title": "The issue's title", "type": "string",
                "default": {"title": "data"}},
            "mode": {"anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}]}},
            "$defs": {"Mode": {"title": "Mode", "enum": ["a", "b"]},
                "Long": {"title": "A long title", "type": "string"}}});
        let leaned = lean(pydantic, false, true).unwrap();
        assert_eq!(
            leaned,
            json!({"type": "object", "properties": {
                "repo_path": {"type": "string"},
                "q": {"title": "Query", "type": "string"},
                "maxCount": {"type": "integer"},
                "title": {"title": "The issue's title", "type": "string",
                    "default": {"title": "data"}},
                "mode": {"anyOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}]}},
                "$defs": {"Mode": {"enum": ["a", "b"]},
                    "Long": {"title": "A long title", "type": "string"}}})
        );
    }

    #[test]
    fn nothing_to_leave_out_is_none() {
        let plain = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(lean(plain, true, true), None);
        let levels = Lean {
            dialect: 0b111,
            titles: 0,
        };
        assert!(levels.dialect_at(2) && !levels.dialect_at(3) && !levels.titles_at(0));
        assert!(levels.cut(5).is_none() && !levels.cut(0).is_none());
        let zod = json!({"$schema": "http://json-schema.org/draft-07/schema#", "title": "T"});
        let Value::Object(zod) = zod else {
            unreachable!()
        };
        let found = Lean::found_in(&zod);
        assert!(found.dialect_at(9) && found.titles_at(0));
        assert_eq!(found.or(Lean::default()), found);
    }
}
