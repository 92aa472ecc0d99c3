//! `--servers FILE`: the `mcpServers` file clients already use, read as the fleet's members.
//!
//! | form | written by |
//! |---|---|
//! | `{"mcpServers": {NAME: {"command", "args", "env"}}}` | Claude Desktop, Claude Code's `.mcp.json`, Cursor |
//! | `{"mcpServers": {NAME: {"url", "headers"}}}` | the same, for a remote server |
//! | `{"servers": {NAME: {"type": "stdio" \| "http" \| "sse", …}}}` | VS Code's `mcp.json` |
//!
//! Keys of our own per server: `"tailoring"` (a file for its tools, by their own names;
//! relative to FILE's folder), `"tools": {"allow": […], "deny": […]}` (names or globs), and
//! `"deadline"` (seconds). `"disabled": true` leaves a server out. Any other key is checked
//! (`keys`): another client's is ignored or refused on purpose, an unknown one is an error
//! at its `LINE:COL`. `${VAR}` and `${VAR:-default}` in a command, its arguments, `env`, a
//! URL and headers are read from the environment; each server's variables are kept from
//! every other server's process.

mod keys;

use crate::CommandError;
use crate::values::{expand, variables};
use mcp_tailor::gateway::Upstream;
use mcp_tailor::gateway::fleet::ToolFilter;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One server of the file.
#[derive(Debug)]
pub(crate) struct ServerEntry {
    pub(crate) name: String,
    pub(crate) upstream: Upstream,
    /// Its own tailoring file, by its tools' own names.
    pub(crate) tailoring: Option<PathBuf>,
    pub(crate) tools: ToolFilter,
    pub(crate) deadline: Option<Duration>,
    /// The environment variables its entry names (`${VAR}`): its own, for no other
    /// server's process to inherit.
    pub(crate) variables: BTreeSet<String>,
}

/// The servers of the file at `path`, in the order written.
pub(crate) fn read(path: &str) -> Result<Vec<ServerEntry>, CommandError> {
    let text = std::fs::read_to_string(path).map_err(CommandError::read(path))?;
    let folder = Path::new(path).parent().unwrap_or(Path::new(""));
    parse(&text, folder, path)
}

/// The servers of `text`, the file `name` (said in errors: `NAME:LINE:COL: …` where a
/// key is wrong, else `NAME: …`); relative tailoring paths are taken from `folder`.
pub(crate) fn parse(
    text: &str,
    folder: &Path,
    name: &str,
) -> Result<Vec<ServerEntry>, CommandError> {
    keys::check(text, name)?;
    entries(text, folder).map_err(|why| CommandError::Servers {
        place: name.to_owned(),
        why,
    })
}

/// The servers of `text`, whose keys `parse` has checked.
fn entries(text: &str, folder: &Path) -> Result<Vec<ServerEntry>, String> {
    let file: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let servers = file
        .get("mcpServers")
        .or_else(|| file.get("servers"))
        .and_then(Value::as_object)
        .ok_or("expected an object `mcpServers` (or VS Code's `servers`)")?;
    let mut entries = Vec::new();
    for (name, entry) in servers {
        let entry = entry
            .as_object()
            .ok_or_else(|| format!("server `{name}`: expected an object"))?;
        if entry.get("disabled").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        entries.push(server(name, entry, folder).map_err(|e| format!("server `{name}`: {e}"))?);
    }
    if entries.is_empty() {
        return Err("no server to serve".to_owned());
    }
    // What one server's entry names is its own: every other command is started without it
    // (unless its own entry names it too).
    let named: BTreeSet<String> = entries.iter().flat_map(|e| e.variables.clone()).collect();
    for entry in &mut entries {
        if let Upstream::Command { withheld, .. } = &mut entry.upstream {
            withheld.extend(named.difference(&entry.variables).cloned());
        }
    }
    Ok(entries)
}

/// Every string of `value`, keys of objects included.
fn strings_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings_in(v, out);
        }),
        _ => {}
    }
}

fn server(name: &str, entry: &Map<String, Value>, folder: &Path) -> Result<ServerEntry, String> {
    let text = |key: &str| -> Result<Option<String>, String> {
        match entry.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => expand(s).map(Some),
            Some(_) => Err(format!("`{key}` must be a string")),
        }
    };
    let upstream = match (text("command")?, text("url")?) {
        (Some(program), None) => Upstream::Command {
            program,
            args: strings(entry.get("args"), "args")?
                .iter()
                .map(|a| expand(a))
                .collect::<Result<_, _>>()?,
            env: pairs(entry.get("env"), "env")?,
            withheld: Vec::new(),
            stderr_log: None,
        },
        (None, Some(url)) => Upstream::Http {
            url,
            headers: pairs(entry.get("headers"), "headers")?,
        },
        (Some(_), Some(_)) => return Err("give `command` or `url`, not both".to_owned()),
        (None, None) => return Err("expected `command` (stdio) or `url` (HTTP)".to_owned()),
    };
    let tools = match entry.get("tools") {
        None => ToolFilter::default(),
        Some(Value::Object(filter)) => {
            let allow = match filter.get("allow") {
                Some(allow) => Some(strings(Some(allow), "tools.allow")?),
                None => None,
            };
            let deny = strings(filter.get("deny"), "tools.deny")?;
            ToolFilter::new(allow.as_deref(), &deny).map_err(|e| e.to_string())?
        }
        Some(_) => return Err("`tools` must be {\"allow\": […], \"deny\": […]}".to_owned()),
    };
    let deadline = match entry.get("deadline") {
        None => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(secs) if secs > 0.0 && secs.is_finite() => Some(Duration::from_secs_f64(secs)),
            _ => return Err("`deadline` must be a positive number of seconds".to_owned()),
        },
        Some(_) => return Err("`deadline` must be a number of seconds".to_owned()),
    };
    let mut texts = Vec::new();
    for key in ["command", "args", "env", "url", "headers"] {
        if let Some(value) = entry.get(key) {
            strings_in(value, &mut texts);
        }
    }
    let variables = texts
        .iter()
        .flat_map(|text| variables(text))
        .map(str::to_owned)
        .collect();
    Ok(ServerEntry {
        name: name.to_owned(),
        variables,
        upstream,
        tailoring: text("tailoring")?.map(|file| folder.join(file)),
        tools,
        deadline,
    })
}

/// A list of strings (absent: none).
fn strings(value: Option<&Value>, key: &str) -> Result<Vec<String>, String> {
    let bad = || format!("`{key}` must be a list of strings");
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned).ok_or_else(bad))
            .collect(),
        Some(_) => Err(bad()),
    }
}

/// An object of strings, each value expanded (absent: none).
fn pairs(value: Option<&Value>, key: &str) -> Result<Vec<(String, String)>, String> {
    let bad = || format!("`{key}` must be an object of strings");
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(items)) => items
            .iter()
            .map(|(name, value)| {
                let value = value.as_str().ok_or_else(bad)?;
                Ok((name.clone(), expand(value)?))
            })
            .collect(),
        Some(_) => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::values::expand;
    use mcp_tailor::gateway::Upstream;
    use std::path::Path;

    #[test]
    fn claude_and_vs_code_files_are_read_in_the_order_written() {
        let claude = r#"{"mcpServers": {
            "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
                       "env": {"MEMORY_FILE_PATH": "${MCP_TAILOR_TEST_UNSET:-/tmp/m.json}"},
                       "tailoring": "memory.toml", "tools": {"deny": ["delete_*"]},
                       "deadline": 5},
            "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "k"}},
            "off": {"command": "x", "disabled": true}
        }}"#;
        let servers = parse(claude, Path::new("/etc/mcp"), "mcp.json").unwrap();
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[0].name, "memory");
        let Upstream::Command {
            program, args, env, ..
        } = &servers[0].upstream
        else {
            panic!("{:?}", servers[0].upstream)
        };
        assert_eq!((program.as_str(), args.len()), ("npx", 2));
        assert_eq!(env[0].1, "/tmp/m.json");
        assert_eq!(
            servers[0].tailoring.as_deref(),
            Some(Path::new("/etc/mcp/memory.toml"))
        );
        assert!(!servers[0].tools.serves("delete_entities"));
        assert!(servers[0].tools.serves("read_graph"));
        assert_eq!(servers[0].deadline.map(|d| d.as_secs()), Some(5));
        assert!(
            matches!(&servers[1].upstream, Upstream::Http { headers, .. } if headers.len() == 1)
        );
        let vs_code = r#"{"servers": {"git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"]}}}"#;
        assert_eq!(
            parse(vs_code, Path::new(""), "mcp.json").unwrap()[0].name,
            "git"
        );
    }

    #[test]
    fn an_error_with_a_place_is_said_at_file_line_col() {
        let typo = "{\"mcpServers\": {\"a\": {\"command\": \"x\",\n  \"tool\": {}}}}";
        let said = parse(typo, Path::new(""), "mcp.json")
            .unwrap_err()
            .to_string();
        assert!(said.starts_with("mcp.json:2:"), "{said}");
        assert!(said.contains(": server `a`: unknown key `tool`"), "{said}");
        let said = parse("{}", Path::new(""), "mcp.json")
            .unwrap_err()
            .to_string();
        assert!(said.starts_with("mcp.json: expected"), "{said}");
    }

    #[test]
    fn what_cannot_be_served_is_named() {
        let error = |text: &str| {
            parse(text, Path::new(""), "mcp.json")
                .unwrap_err()
                .to_string()
        };
        assert!(error("{}").contains("mcpServers"));
        assert!(error(r#"{"mcpServers": {"a": {}}}"#).contains("server `a`: expected `command`"));
        assert!(
            error(r#"{"mcpServers": {"a": {"command": "x", "tools": {"allow": "x"}}}}"#)
                .contains("tools.allow")
        );
        assert!(
            error(r#"{"mcpServers": {"a": {"command": "${MCP_TAILOR_TEST_UNSET}"}}}"#)
                .contains("MCP_TAILOR_TEST_UNSET")
        );
        assert!(expand("${input:token}").unwrap_err().contains("VS Code"));
        assert_eq!(expand("a${MCP_TAILOR_TEST_UNSET:-b}c").unwrap(), "abc");
    }
}
