//! Items the macro expansions name. Not a stable API: use the macros instead.

pub use crate::decode::{Packed, ToolTable};
pub use crate::description::{CompiledModelMatch, CompiledRule, Tailored};
pub use std::borrow::Cow;

use crate::tool::McpArgs;

/// A tailored description over an expansion's tables.
pub const fn tailored(tables: &'static Tailored) -> crate::Description {
    crate::Description::from_tables(tables)
}

/// The `schemars` transform `#[mcp_args]` puts on its type: marks the type's schema with
/// the index of its field table, wherever schemars places it (`$defs`, inline).
pub fn mark_args<T: McpArgs>(schema: &mut schemars::Schema) {
    crate::schema::mark(schema, T::fields);
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
