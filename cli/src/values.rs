//! The values of the command line's options that need more than a type: seconds, an
//! upstream's URL, a header (its `${VAR}`s read from the environment).

use std::time::Duration;

/// Seconds, more than zero.
pub(crate) fn seconds(value: &str) -> Result<Duration, String> {
    match value.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() => Ok(Duration::from_secs_f64(secs)),
        _ => Err("expected a number of seconds, more than 0".to_owned()),
    }
}

/// An `http` or `https` URL.
pub(crate) fn http_url(value: &str) -> Result<String, String> {
    if !value.contains("://") {
        return Err(format!(
            "not a valid URL: it needs http:// or https:// in front, e.g. http://{value}"
        ));
    }
    match url::Url::parse(value) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(value.to_owned()),
        Ok(parsed) => Err(format!(
            "an MCP endpoint is http or https, not {}",
            parsed.scheme()
        )),
        Err(error) => Err(format!(
            "not a valid URL ({error}); write one such as http://127.0.0.1:8080/mcp"
        )),
    }
}

/// `NAME: VALUE`; `${VAR}` in VALUE is the environment variable's value, so a secret stays
/// out of the process list.
pub(crate) fn header(spec: &str) -> Result<(String, String), String> {
    let bad = || "expected 'NAME: VALUE'".to_owned();
    let (name, value) = spec.split_once(':').ok_or_else(bad)?;
    let (name, mut rest) = (name.trim(), value.trim());
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(bad());
    }
    let mut value = String::new();
    while let Some(start) = rest.find("${") {
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| "`${` without `}`".to_owned())?;
        let var = &rest[start + 2..start + end];
        let found = std::env::var(var).map_err(|_| format!("the environment has no `{var}`"))?;
        value.push_str(&rest[..start]);
        value.push_str(&found);
        rest = &rest[start + end + 1..];
    }
    value.push_str(rest);
    Ok((name.to_owned(), value))
}
