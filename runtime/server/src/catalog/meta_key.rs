//! The `_meta` key grammar: an optional prefix of dot-separated labels ending in
//! `/`, then a name. Reserved keys and prefixes are rejected where an application writes.

/// Why a `_meta` key was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum MetaKeyError {
    /// Not 1..=256 bytes.
    Length,
    /// The prefix or the name breaks the grammar.
    Grammar,
    /// A key or prefix MCP reserves for itself.
    Reserved,
}

impl std::fmt::Display for MetaKeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MetaKeyError::Length => "a `_meta` key is 1..=256 bytes",
            MetaKeyError::Grammar => "not a valid `_meta` key (`prefix.labels/name`)",
            MetaKeyError::Reserved => "a reserved `_meta` key or prefix",
        })
    }
}

impl std::error::Error for MetaKeyError {}

/// Keys reserved by MCP and W3C trace context.
const RESERVED_KEYS: [&str; 4] = ["progressToken", "traceparent", "tracestate", "baggage"];

fn is_label(label: &str) -> bool {
    let bytes = label.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphabetic()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        }
        _ => false,
    }
}

fn is_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (None, _) => true,
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        }
        (Some(_), None) => false,
    }
}

/// Checks a key an application may write (presentation `_meta`, registered `_meta`).
pub(crate) fn validate_meta_key(key: &str) -> Result<(), MetaKeyError> {
    if key.is_empty() || key.len() > 256 {
        return Err(MetaKeyError::Length);
    }
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    // `split_once` leaves any further `/` in the name, where `is_name` rejects it.
    if !is_name(name) {
        return Err(MetaKeyError::Grammar);
    }
    match prefix {
        None => {
            if name.is_empty() {
                return Err(MetaKeyError::Grammar);
            }
            if RESERVED_KEYS.contains(&name) {
                return Err(MetaKeyError::Reserved);
            }
        }
        Some(prefix) => {
            let labels: Vec<&str> = prefix.split('.').collect();
            if !labels.iter().all(|l| is_label(l)) {
                return Err(MetaKeyError::Grammar);
            }
            if let Some(second) = labels.get(1) {
                let second = second.to_ascii_lowercase();
                if second == "modelcontextprotocol" || second == "mcp" {
                    return Err(MetaKeyError::Reserved);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_keys_of_spec_c4() {
        for key in [
            "com.example/request-purpose",
            "com.example/",
            "simple",
            "a",
            "a.b-c_d9",
            "x/name",
        ] {
            assert_eq!(validate_meta_key(key), Ok(()), "{key:?}");
        }
    }

    #[test]
    fn invalid_keys_of_spec_c4() {
        let long = "a".repeat(257);
        for key in [
            "",
            "_leading",
            "trailing_",
            "-leading",
            "1com/value",
            "com..example/value",
            "com.example-/value",
            "com.example/has space",
            "com.example/a/b",
            long.as_str(),
            "simple\n",
        ] {
            assert!(validate_meta_key(key).is_err(), "{key:?}");
        }
        assert_eq!(validate_meta_key(&"a".repeat(256)), Ok(()));
    }

    #[test]
    fn reserved_keys_and_prefixes() {
        for key in [
            "progressToken",
            "traceparent",
            "tracestate",
            "baggage",
            "io.modelcontextprotocol/serverInfo",
            "dev.mcp/flag",
            "com.mcp.tools/x",
            "io.MCP/x",
        ] {
            assert_eq!(
                validate_meta_key(key),
                Err(MetaKeyError::Reserved),
                "{key:?}"
            );
        }
        for key in ["com.example.mcp/x", "mcp/x", "modelcontextprotocol.io/x"] {
            assert_eq!(validate_meta_key(key), Ok(()), "{key:?}");
        }
    }
}
