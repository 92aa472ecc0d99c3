//! The values of the command line's options that need more than a type: seconds, an
//! address to listen on, an upstream's URL, a header (its `${VAR}`s read from the
//! environment).

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

/// `HOST:PORT` to listen on: an IP address or a host name (`localhost:8080`), resolved
/// once; of a name's addresses, its first IPv4 one (what `localhost` clients try first),
/// else its first.
pub(crate) fn listen_addr(value: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = value.parse() {
        return Ok(addr);
    }
    if !value.contains(':') {
        return Err(format!(
            "expected HOST:PORT, e.g. 127.0.0.1:8080 or localhost:8080 (no port in `{value}`)"
        ));
    }
    let found: Vec<SocketAddr> = value
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve `{value}`: {e}"))?
        .collect();
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| format!("`{value}` names no address"))
}

/// Seconds, more than zero.
/// An index budget: `N` tokens, or `N%` of the catalog's own `tools/list`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum IndexBudget {
    Tokens(usize),
    Share(f64),
}

impl IndexBudget {
    /// `surface` with this budget.
    pub(crate) fn apply(
        self,
        surface: mcp_tailor::server::IndexSurface,
    ) -> mcp_tailor::server::IndexSurface {
        match self {
            IndexBudget::Tokens(tokens) => surface.budget(tokens),
            IndexBudget::Share(share) => surface.budget_share(share),
        }
    }
}

/// `--index-budget`: `300` (tokens) or `8%` (of the catalog's own listing).
pub(crate) fn index_budget(value: &str) -> Result<IndexBudget, String> {
    let wrong = || format!("`{value}` is not a budget: a number of tokens (300) or a share (8%)");
    match value.trim().strip_suffix('%') {
        Some(share) => match share.trim().parse::<f64>() {
            Ok(share) if (0.0..=100.0).contains(&share) => Ok(IndexBudget::Share(share / 100.0)),
            _ => Err(wrong()),
        },
        None => value
            .trim()
            .parse()
            .map(IndexBudget::Tokens)
            .map_err(|_| wrong()),
    }
}

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

/// `NAME: VALUE`; `${VAR}` in VALUE is the environment variable's value ([`expand`]), so a secret stays
/// out of the process list.
pub(crate) fn header(spec: &str) -> Result<(String, String), String> {
    let bad = || "expected 'NAME: VALUE'".to_owned();
    let (name, value) = spec.split_once(':').ok_or_else(bad)?;
    let (name, rest) = (name.trim(), value.trim());
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(bad());
    }
    let value = expand(rest)?;
    Ok((name.to_owned(), value))
}

/// The names of the variables `text` reads (`${VAR}`, `${VAR:-default}`), in order.
pub(crate) fn variables(text: &str) -> impl Iterator<Item = &str> {
    text.split("${").skip(1).filter_map(|after| {
        let inner = &after[..after.find('}')?];
        let name = inner.split_once(":-").map_or(inner, |(name, _)| name);
        (!name.is_empty() && !name.starts_with("input:")).then_some(name)
    })
}

/// `text` with each `${VAR}` (or `${VAR:-default}`) replaced by the variable's value; each
/// value read from the environment is kept out of the log from then on
/// ([`crate::redact::secret`]).
pub(crate) fn expand(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| format!("`${{` without `}}` in `{text}`"))?;
        let inner = &rest[start + 2..start + end];
        let (var, default) = match inner.split_once(":-") {
            Some((var, default)) => (var, Some(default)),
            None => (inner, None),
        };
        if var.starts_with("input:") {
            return Err(format!(
                "`${{{inner}}}` asks the user for input (VS Code); set it in the environment"
            ));
        }
        let value = match (std::env::var(var), default) {
            (Ok(value), _) => {
                crate::redact::secret(&value);
                value
            }
            (Err(_), Some(default)) => default.to_owned(),
            (Err(_), None) => return Err(format!("the environment has no `{var}`")),
        };
        out.push_str(&rest[..start]);
        out.push_str(&value);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_budget_is_tokens_or_a_share() {
        assert_eq!(index_budget("300"), Ok(IndexBudget::Tokens(300)));
        assert_eq!(index_budget(" 8% "), Ok(IndexBudget::Share(0.08)));
        for wrong in ["", "8 %x", "-1", "120%", "a lot"] {
            let error = index_budget(wrong).unwrap_err();
            assert!(error.contains("is not a budget"), "{wrong}: {error}");
        }
    }
}
