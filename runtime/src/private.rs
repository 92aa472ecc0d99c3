//! Items the macro expansions name. Not a stable API: use the macros instead.

pub use crate::def::Generated;
pub use crate::description::{ModelMatch, Rule, Tailored};
pub use crate::packed::{Packed, ToolTable, unreachable_schema};

use crate::def::{Fields, Nested};
use crate::tool::McpArgs;
use serde_json::Value;
use std::cell::RefCell;

/// A tailored description over an expansion's tables.
pub const fn tailored(tables: &'static Tailored) -> crate::Description {
    crate::Description::from_tables(tables)
}

/// The key `mark_args` puts on an `#[mcp_args]` type's schema while a tool's input schema
/// is generated; `input_schema` takes every one out again.
const ARGS_MARKER: &str = "x-mcp-tailor-args";

thread_local! {
    /// The field tables of the `#[mcp_args]` types met while generating an input schema;
    /// `None` outside `input_schema`, so other generators (an rmcp server's) see no marker.
    static ARGS: RefCell<Option<Vec<Fields>>> = const { RefCell::new(None) };
}

/// The `schemars` transform `#[mcp_args]` puts on its type: marks the type's schema with
/// the index of its field table, wherever schemars places it (`$defs`, inline).
pub fn mark_args<T: McpArgs>(schema: &mut schemars::Schema) {
    ARGS.with_borrow_mut(|args| {
        if let (Some(args), Some(object)) = (args.as_mut(), schema.as_object_mut()) {
            object.insert(ARGS_MARKER.into(), args.len().into());
            args.push(T::fields());
        }
    });
}

/// The input schema of `T` (JSON Schema 2020-12, as MCP requires), without the root
/// `title` and `description` that `schemars` copies from the type (the tool's own,
/// tailored, strings say that), and where each `#[mcp_args]` type's schema sits.
pub fn input_schema<T: schemars::JsonSchema>() -> Generated {
    let outer = ARGS.replace(Some(Vec::new()));
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let tables = ARGS.replace(outer).unwrap_or_default();
    let mut value = schema.to_value();
    if let Some(root) = value.as_object_mut() {
        root.remove("title");
        root.remove("description");
    }
    let mut nested = Vec::new();
    // No `#[mcp_args]` type was met: there is no mark to look for.
    let mut stack = if tables.is_empty() {
        Vec::new()
    } else {
        vec![(String::new(), &mut value)]
    };
    while let Some((pointer, node)) = stack.pop() {
        match node {
            Value::Object(object) => {
                let marker = object.remove(ARGS_MARKER).and_then(|m| m.as_u64());
                if let Some(fields) = marker.and_then(|i| tables.get(usize::try_from(i).ok()?)) {
                    nested.push(Nested {
                        pointer: pointer.clone(),
                        fields,
                    });
                }
                for (key, child) in object.iter_mut() {
                    let key = key.replace('~', "~0").replace('/', "~1");
                    stack.push((format!("{pointer}/{key}"), child));
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter_mut().enumerate() {
                    stack.push((format!("{pointer}/{index}"), child));
                }
            }
            _ => {}
        }
    }
    nested.sort_by(|a, b| a.pointer.cmp(&b.pointer));
    Generated { value, nested }
}

/// `text` without surrounding ASCII whitespace, at compile time.
pub const fn trim(text: &'static str) -> &'static str {
    text.trim_ascii()
}

/// Whether `text` is empty or only Unicode whitespace; usable in a const assertion, so a
/// text given as a const or a macro is checked at compile time too.
pub const fn is_blank(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // `text` is valid UTF-8, so the continuation bytes are there.
        let (code, width) = if b < 0x80 {
            (b as u32, 1)
        } else if b < 0xE0 {
            (((b & 0x1F) as u32) << 6 | (bytes[i + 1] & 0x3F) as u32, 2)
        } else if b < 0xF0 {
            (
                ((b & 0x0F) as u32) << 12
                    | ((bytes[i + 1] & 0x3F) as u32) << 6
                    | (bytes[i + 2] & 0x3F) as u32,
                3,
            )
        } else {
            (
                ((b & 0x07) as u32) << 18
                    | ((bytes[i + 1] & 0x3F) as u32) << 12
                    | ((bytes[i + 2] & 0x3F) as u32) << 6
                    | (bytes[i + 3] & 0x3F) as u32,
                4,
            )
        };
        match char::from_u32(code) {
            Some(c) if c.is_whitespace() => i += width,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::is_blank;

    #[test]
    fn blank_matches_char_is_whitespace() {
        for text in ["", " ", "\t\n", "\u{3000}", " \u{2028} \u{85}"] {
            assert!(is_blank(text), "{text:?}");
        }
        for text in ["a", " a ", "é", "\u{3000}x", "😀", " ·"] {
            assert!(!is_blank(text), "{text:?}");
        }
    }
}
