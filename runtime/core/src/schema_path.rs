//! Paths into a tool's input schema — the one place that finds a property in one: JSON
//! pointers (where the macro found an `#[mcp_args]` type), and the argument paths a
//! tailoring file names.
//!
//! An argument path is property names joined by `.`, each step into the property's own
//! object schema; `name[]` steps into an array's `items`, `name{}` into a map's
//! `additionalProperties`. Each step follows a local `$ref` (`#/$defs/…`) and looks into
//! `allOf`, `anyOf` and `oneOf` branches when the object itself lacks the property (the
//! first branch that has it). A root property whose name holds a `.` is found by its whole
//! name first.
//!
//! | path | reaches |
//! |---|---|
//! | `query` | `/properties/query` |
//! | `filter.tag` | `/properties/filter/properties/tag` (or through its `$ref`) |
//! | `files[].path` | `/properties/files/items/properties/path` |
//! | `labels{}.color` | `/properties/labels/additionalProperties/properties/color` |

use serde_json::{Map, Value};

#[cfg(feature = "rmcp")]
/// How many `$ref`s one step follows before giving up (a cycle, or a chain too deep).
const MAX_REFS: usize = 16;

#[cfg(feature = "rmcp")]
/// Where an argument sits: the JSON pointer of the object schema whose `properties` hold
/// it (empty for the root), and its property name there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentAt {
    /// The pointer of the object schema holding the property.
    pub parent: String,
    /// The property's name in it.
    pub name: String,
}

#[cfg(feature = "rmcp")]
impl ArgumentAt {
    /// The pointer of the property's own schema.
    pub fn pointer(&self) -> String {
        format!("{}/properties/{}", self.parent, escape(&self.name))
    }
}

#[cfg(feature = "rmcp")]
/// The value at `pointer` in a root schema held as a map (`""` is the root itself, which
/// is no `Value`: `None`).
pub fn at<'s>(root: &'s Map<String, Value>, pointer: &str) -> Option<&'s Value> {
    let (first, rest) = split(pointer)?;
    let node = root.get(&first)?;
    if rest.is_empty() {
        Some(node)
    } else {
        node.pointer(rest)
    }
}

/// The object at `pointer` in a root schema held as a map (`""` is the root).
pub fn object_mut<'s>(
    root: &'s mut Map<String, Value>,
    pointer: &str,
) -> Option<&'s mut Map<String, Value>> {
    if pointer.is_empty() {
        return Some(root);
    }
    let (first, rest) = split(pointer)?;
    let node = root.get_mut(&first)?;
    let node = if rest.is_empty() {
        node
    } else {
        node.pointer_mut(rest)?
    };
    node.as_object_mut()
}

/// Where the argument `path` (see the module documentation) sits in `root`, or `None`
/// when the schema has no such property. Where its last step's property stands in several
/// branches (`anyOf`), the first.
#[cfg(feature = "rmcp")]
pub fn argument(root: &Map<String, Value>, path: &str) -> Option<ArgumentAt> {
    arguments(root, path).into_iter().next()
}

/// Every place the argument `path` reaches in `root`: one, or one per `allOf`/`anyOf`/
/// `oneOf` branch whose object has the last step's property (the same argument, described
/// in each branch). Empty when the schema has no such property.
#[cfg(feature = "rmcp")]
pub fn arguments(root: &Map<String, Value>, path: &str) -> Vec<ArgumentAt> {
    if has_property(root, "", path) {
        return vec![ArgumentAt {
            parent: String::new(),
            name: path.to_owned(),
        }];
    }
    let mut parents = Vec::new();
    let Some((object, name)) = last_step(root, path) else {
        return Vec::new();
    };
    find_all(root, &object, &name, 0, &mut parents);
    parents
        .into_iter()
        .map(|parent| ArgumentAt {
            parent,
            name: name.clone(),
        })
        .collect()
}

/// The pointer of the object the last step of `path` looks in, and that step's name; each
/// earlier step follows the first branch that has its property.
#[cfg(feature = "rmcp")]
fn last_step(root: &Map<String, Value>, path: &str) -> Option<(String, String)> {
    let mut steps = path.split('.').peekable();
    let mut object = String::new();
    while let Some(step) = steps.next() {
        let (name, into) = match step.strip_suffix("[]") {
            Some(name) => (name, Some("items")),
            None => match step.strip_suffix("{}") {
                Some(name) => (name, Some("additionalProperties")),
                None => (step, None),
            },
        };
        if name.is_empty() {
            return None;
        }
        match (steps.peek(), into) {
            (None, None) => return Some((object, name.to_owned())),
            // A path ends at a property, not inside an array's or map's values.
            (None, Some(_)) => return None,
            (Some(_), into) => {
                let found = ArgumentAt {
                    parent: find(root, &object, name, 0)?,
                    name: name.to_owned(),
                };
                object = match into {
                    None => found.pointer(),
                    Some(into) => format!("{}/{into}", resolve(root, found.pointer())?),
                };
            }
        }
    }
    None
}

/// Every object schema at or below `object` (its `$ref`, its branches, theirs) whose
/// `properties` hold `name`, into `out`.
#[cfg(feature = "rmcp")]
fn find_all(
    root: &Map<String, Value>,
    object: &str,
    name: &str,
    depth: usize,
    out: &mut Vec<String>,
) {
    if depth > MAX_REFS {
        return;
    }
    let Some(object) = resolve(root, object.to_owned()) else {
        return;
    };
    if has_property(root, &object, name) {
        if !out.contains(&object) {
            out.push(object);
        }
        return;
    }
    let Some(node) = node(root, &object) else {
        return;
    };
    for key in ["allOf", "anyOf", "oneOf"] {
        let count = node.get(key).and_then(Value::as_array).map_or(0, Vec::len);
        for i in 0..count {
            find_all(root, &format!("{object}/{key}/{i}"), name, depth + 1, out);
        }
    }
}

#[cfg(feature = "rmcp")]
/// The pointer of the object schema, at or below `object` (its `$ref`, its branches), whose
/// `properties` hold `name`.
fn find(root: &Map<String, Value>, object: &str, name: &str, depth: usize) -> Option<String> {
    if depth > MAX_REFS {
        return None;
    }
    let object = resolve(root, object.to_owned())?;
    if has_property(root, &object, name) {
        return Some(object);
    }
    let node = node(root, &object)?;
    ["allOf", "anyOf", "oneOf"].iter().find_map(|key| {
        let branches = node.get(*key)?.as_array()?;
        (0..branches.len())
            .find_map(|i| find(root, &format!("{object}/{key}/{i}"), name, depth + 1))
    })
}

/// A schema, or what its chain of local `$ref`s names.
#[cfg(feature = "inspect")]
pub fn deref<'s>(root: &'s Map<String, Value>, schema: &'s Value) -> &'s Value {
    let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|t| t.strip_prefix('#'))
    else {
        return schema;
    };
    resolve(root, target.to_owned())
        .and_then(|pointer| at(root, &pointer))
        .unwrap_or(schema)
}

#[cfg(feature = "rmcp")]
/// `pointer`, or where its chain of local `$ref`s ends.
fn resolve(root: &Map<String, Value>, mut pointer: String) -> Option<String> {
    for _ in 0..MAX_REFS {
        match node(root, &pointer)?.get("$ref") {
            Some(Value::String(target)) => pointer = target.strip_prefix('#')?.to_owned(),
            Some(_) => return None,
            None => return Some(pointer),
        }
    }
    None
}

#[cfg(feature = "rmcp")]
/// The object schema at `pointer` (the root for `""`).
fn node<'s>(root: &'s Map<String, Value>, pointer: &str) -> Option<&'s Map<String, Value>> {
    if pointer.is_empty() {
        Some(root)
    } else {
        at(root, pointer)?.as_object()
    }
}

#[cfg(feature = "rmcp")]
fn has_property(root: &Map<String, Value>, object: &str, name: &str) -> bool {
    node(root, object)
        .and_then(|o| o.get("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| p.contains_key(name))
}

/// A pointer's first key (unescaped) and the rest, itself a pointer (`""` or `/…`).
fn split(pointer: &str) -> Option<(String, &str)> {
    let body = pointer.strip_prefix('/')?;
    let (first, rest) = match body.find('/') {
        Some(at) => (&body[..at], &body[at..]),
        None => (body, ""),
    };
    Some((first.replace("~1", "/").replace("~0", "~"), rest))
}

/// The argument path of the object schema at `pointer`, as a prefix for its properties'
/// paths: `/properties/filter` → `filter.`, `/properties/files/items` → `files[].`; a
/// `$defs` entry is named by its type (`/$defs/Filter` → `Filter.`), branches are skipped.
pub fn prefix(pointer: &str) -> String {
    let keys: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|k| k.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut out = String::new();
    let mut keys = keys.iter().peekable();
    while let Some(key) = keys.next() {
        match key.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Some(name) = keys.next() {
                    out.push_str(name);
                    out.push('.');
                }
            }
            "items" | "additionalProperties" => {
                let brackets = if key == "items" { "[]." } else { "{}." };
                match out.strip_suffix('.') {
                    Some(trimmed) => out = format!("{trimmed}{brackets}"),
                    None => out.push_str(brackets),
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                keys.next();
            }
            _ => {}
        }
    }
    out
}

/// A key escaped for a JSON pointer.
pub fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(all(test, feature = "rmcp"))]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Map<String, Value> {
        let Value::Object(root) = json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "a.b": {"type": "string"},
                "filter": {"$ref": "#/$defs/Filter"},
                "files": {"type": "array", "items": {"type": "object", "properties": {"path": {}}}},
                "refs": {"type": "array", "items": {"$ref": "#/$defs/Filter"}},
                "labels": {"type": "object", "additionalProperties": {"properties": {"color": {}}}},
                "target": {"anyOf": [{"properties": {"id": {}}}, {"properties": {"url": {}}}]},
                "loop": {"$ref": "#/$defs/Loop"}
            },
            "$defs": {
                "Filter": {"type": "object", "properties": {"tag": {}, "a/b": {}}},
                "Loop": {"$ref": "#/$defs/Loop"}
            }
        }) else {
            unreachable!()
        };
        root
    }

    fn reach(path: &str) -> Option<String> {
        argument(&schema(), path).map(|a| a.pointer())
    }

    #[test]
    fn every_kind_of_step() {
        assert_eq!(reach("query").as_deref(), Some("/properties/query"));
        assert_eq!(reach("a.b").as_deref(), Some("/properties/a.b"));
        assert_eq!(
            reach("filter.tag").as_deref(),
            Some("/$defs/Filter/properties/tag")
        );
        assert_eq!(
            reach("filter.a/b").as_deref(),
            Some("/$defs/Filter/properties/a~1b")
        );
        assert_eq!(
            reach("files[].path").as_deref(),
            Some("/properties/files/items/properties/path")
        );
        assert_eq!(
            reach("refs[].tag").as_deref(),
            Some("/$defs/Filter/properties/tag")
        );
        assert_eq!(
            reach("labels{}.color").as_deref(),
            Some("/properties/labels/additionalProperties/properties/color")
        );
        assert_eq!(
            reach("target.url").as_deref(),
            Some("/properties/target/anyOf/1/properties/url")
        );
    }

    #[test]
    fn a_property_in_several_branches_is_reached_in_each() {
        let Value::Object(root) = json!({"properties": {"c": {"type": "array", "items": {"anyOf": [
            {"properties": {"path": {}, "line": {}}},
            {"properties": {"path": {}, "position": {}}}
        ]}}}}) else {
            unreachable!()
        };
        let at: Vec<String> = arguments(&root, "c[].path")
            .iter()
            .map(ArgumentAt::pointer)
            .collect();
        assert_eq!(
            at,
            [
                "/properties/c/items/anyOf/0/properties/path",
                "/properties/c/items/anyOf/1/properties/path"
            ]
        );
        assert_eq!(arguments(&root, "c[].position").len(), 1);
        assert!(arguments(&root, "c[].nope").is_empty());
    }

    #[test]
    fn what_the_schema_lacks() {
        for path in [
            "nothing",
            "files.path",
            "files[]",
            "files[].",
            "[].x",
            "query.x",
            "loop.x",
            "",
        ] {
            assert_eq!(reach(path), None, "{path}");
        }
    }

    #[test]
    fn a_prefix_names_the_path_that_reaches_it() {
        for path in [
            "filter.tag",
            "files[].path",
            "labels{}.color",
            "target.url",
            "query",
        ] {
            let at = argument(&schema(), path).unwrap();
            let named = format!("{}{}", prefix(&at.parent), at.name);
            let expected = if path == "filter.tag" {
                "Filter.tag"
            } else if path == "target.url" {
                "target.url"
            } else {
                path
            };
            assert_eq!(named, expected);
        }
    }

    #[test]
    fn pointers_read_and_write_the_same_node() {
        let mut root = schema();
        let pointer = reach("files[].path").unwrap();
        assert!(at(&root, &pointer).is_some());
        object_mut(&mut root, &pointer)
            .unwrap()
            .insert("description".into(), "p".into());
        assert_eq!(
            root["properties"]["files"]["items"]["properties"]["path"]["description"],
            "p"
        );
        assert!(object_mut(&mut root, "").is_some());
        assert_eq!(at(&root, "/nope/x"), None);
    }
}
