//! The keys of an `mcpServers` entry, checked before the file is read for what it means: a
//! key nobody reads is a typo until shown otherwise (`"tools": {"denny": […]}` once served
//! the tool it meant to deny). The check is a pass of serde over the text, so an error has
//! the line and column serde_json read it at.
//!
//! | keys | |
//! |---|---|
//! | `command`, `args`, `env`, `url`, `headers` | read: the server |
//! | `type` (`stdio`, `http`, `streamable-http`, `sse`) | read: the transport is told by `command` or `url`, the legacy one found by trying |
//! | `disabled` | read: `true` leaves the server out |
//! | `tailoring`, `tools` (`allow`, `deny`), `deadline` | read: ours |
//! | [`IGNORED`] | other clients' own, ignored on purpose |
//! | [`UNSUPPORTED`] | other clients' own, which would change what is served: refused, with what to write instead |

use crate::CommandError;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use std::fmt;

/// The keys of an entry read here.
const READ: [&str; 10] = [
    "command",
    "args",
    "env",
    "url",
    "headers",
    "type",
    "disabled",
    "tailoring",
    "tools",
    "deadline",
];

/// Keys other clients write that change nothing a gateway serves: ignored on purpose.
pub(crate) const IGNORED: [&str; 9] = [
    "timeout",
    "description",
    "autoApprove",
    "alwaysAllow",
    "transportType",
    "watchPaths",
    "trust",
    "name",
    "gallery",
];

/// Keys other clients write whose meaning a gateway would drop silently, with what to
/// write instead.
pub(crate) const UNSUPPORTED: [(&str, &str); 7] = [
    (
        "cwd",
        "start the proxy in that folder, or run the command through `sh -c 'cd DIR && …'`",
    ),
    (
        "envFile",
        "set its variables in `env` (values may be `${VAR}`)",
    ),
    ("excludeTools", "write `\"tools\": {\"deny\": […]}`"),
    ("disabledTools", "write `\"tools\": {\"deny\": […]}`"),
    ("includeTools", "write `\"tools\": {\"allow\": […]}`"),
    ("serverUrl", "write `url`"),
    ("httpUrl", "write `url`"),
];

/// The keys of `tools`.
const TOOLS: [&str; 2] = ["allow", "deny"];

/// The transports `type` may name.
const TYPES: [&str; 4] = ["stdio", "http", "streamable-http", "sse"];

/// Checks every entry's keys in `text`, an `mcpServers` (or VS Code `servers`) file named
/// `name`; the first unknown one as `NAME:LINE:COL: message`.
pub(crate) fn check(text: &str, name: &str) -> Result<(), CommandError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    match ServersFile.deserialize(&mut deserializer) {
        Ok(()) => Ok(()),
        // This check's own findings; a shape it does not expect (not JSON, an entry that
        // is no object) is for the reading to refuse, in its own words.
        Err(error) if error.is_data() && error.to_string().starts_with("server `") => {
            let message = error.to_string();
            let suffix = format!(" at line {} column {}", error.line(), error.column());
            let message = message.strip_suffix(&suffix).unwrap_or(&message);
            Err(CommandError::Servers {
                place: format!("{name}:{}:{}", error.line(), error.column()),
                why: message.to_owned(),
            })
        }
        Err(_) => Ok(()),
    }
}

/// `unknown key `X``, with the key it likely means.
fn unknown(key: &str, known: &[&str], place: &str) -> String {
    let hint = match mcp_tailor_model::errors::did_you_mean(key, known) {
        Some(close) => format!("; did you mean `{close}`?"),
        None => format!("; known keys: {}", known.join(", ")),
    };
    format!("{place}: unknown key `{key}`{hint}")
}

/// The whole file: its `mcpServers` (or `servers`) object checked, the rest skipped.
struct ServersFile;

impl<'de> DeserializeSeed<'de> for ServersFile {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ServersFile {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "mcpServers" | "servers" => map.next_value_seed(Servers)?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The object of servers, by name.
struct Servers;

impl<'de> DeserializeSeed<'de> for Servers {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Servers {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of servers")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(name) = map.next_key::<String>()? {
            map.next_value_seed(EntryName(&name))?;
        }
        Ok(())
    }
}

/// One server's entry, named.
struct EntryName<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for EntryName<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntryName<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "server `{}` as an object", self.0)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let place = format!("server `{}`", self.0);
        while let Some(key) = map.next_key::<String>()? {
            if let Some((_, instead)) = UNSUPPORTED.iter().find(|(k, _)| *k == key) {
                return Err(de::Error::custom(format!(
                    "{place}: `{key}` is another client's key that mcp-tailor does not read; {instead}"
                )));
            }
            match key.as_str() {
                "tools" => map.next_value_seed(Tools(&place))?,
                "type" => {
                    let kind: serde_json::Value = map.next_value()?;
                    if !kind.as_str().is_some_and(|k| TYPES.contains(&k)) {
                        return Err(de::Error::custom(format!(
                            "{place}: `type` is {kind}; expected one of {}",
                            TYPES.join(", ")
                        )));
                    }
                }
                known if READ.contains(&known) || IGNORED.contains(&known) => {
                    map.next_value::<IgnoredAny>()?;
                }
                _ => return Err(de::Error::custom(unknown(&key, &READ, &place))),
            }
        }
        Ok(())
    }
}

/// An entry's `tools`: `allow` and `deny` only (its shape is checked when it is read).
struct Tools<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for Tools<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Tools<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`tools` as {\"allow\": […], \"deny\": […]}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if !TOOLS.contains(&key.as_str()) {
                let place = format!("{} `tools`", self.0);
                return Err(de::Error::custom(unknown(&key, &TOOLS, &place)));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
    // Any other shape is refused, in its words, when the entry is read.
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn a_typo_in_an_entry_is_named_where_it_is_with_the_key_meant() {
        let file = "{\"mcpServers\": {\n  \"fs\": {\"command\": \"x\",\n    \"tools\": {\"denny\": [\"write_file\"]}}}}";
        let error = check(file, "mcp.json").unwrap_err().to_string();
        assert!(error.starts_with("mcp.json:3:"), "{error}");
        assert!(
            error.contains("server `fs` `tools`: unknown key `denny`; did you mean `deny`?"),
            "{error}"
        );
        let error = check(
            r#"{"mcpServers": {"fs": {"command": "x", "disabeld": true}}}"#,
            "mcp.json",
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("unknown key `disabeld`; did you mean `disabled`?"),
            "{error}"
        );
        let error = check(
            r#"{"mcpServers": {"fs": {"command": "x", "tool": {}}}}"#,
            "mcp.json",
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("did you mean `tools`?"), "{error}");
    }

    #[test]
    fn other_clients_keys_are_read_ignored_or_refused_on_purpose() {
        let ok = r#"{"mcpServers": {"a": {"type": "stdio", "command": "x", "timeout": 60,
            "autoApprove": [], "description": "d", "disabled": false}}, "inputs": []}"#;
        assert!(check(ok, "mcp.json").is_ok());
        let error = check(
            r#"{"servers": {"a": {"command": "x", "excludeTools": ["rm"]}}}"#,
            "mcp.json",
        );
        assert!(
            error
                .unwrap_err()
                .to_string()
                .contains("`excludeTools` is another client's key")
        );
        let error = check(
            r#"{"servers": {"a": {"type": "websocket", "url": "x"}}}"#,
            "mcp.json",
        );
        assert!(
            error
                .unwrap_err()
                .to_string()
                .contains("`type` is \"websocket\"")
        );
        // Shapes are the reading's to refuse, in its own words.
        assert!(
            check(
                r#"{"mcpServers": {"a": {"command": "x", "tools": "no"}}}"#,
                "mcp.json"
            )
            .is_ok()
        );
        assert!(check("not json", "mcp.json").is_ok());
    }
}
