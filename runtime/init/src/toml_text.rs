//! TOML as a drafted file writes it: keys, quoted when they are not bare, and basic strings,
//! escaped.

/// A key: bare when it is `A-Z a-z 0-9 _ -`, else a quoted string (argument paths hold `.`,
/// `[]` and `{}`).
pub(super) fn key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare { name.to_owned() } else { string(name) }
}

/// A basic string: `"…"` with `\\`, `"` and control characters escaped.
pub(super) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_strings_read_back() {
        assert_eq!(key("read_file"), "read_file");
        assert_eq!(key("files[].path"), "\"files[].path\"");
        assert_eq!(key("a.b"), "\"a.b\"");
        let text = "say \"hi\" \\ then\n\ttab \u{1}";
        let source = format!("v = {}", string(text));
        let parsed: toml::Table = toml::from_str(&source).unwrap();
        assert_eq!(parsed["v"].as_str(), Some(text));
    }
}
