//! Which browser origins may call the endpoint (streamable HTTP).
//!
//! The MCP transport asks servers to validate `Origin` on every request: a web page must
//! not reach a server on the user's machine through the browser (DNS rebinding). A request
//! passes when it carries no `Origin`, when its origin is the endpoint's own (its host and
//! port are the request's `Host`), or when [`HttpConfig::allowed_origins`] names it; any
//! other is answered HTTP 403.
//!
//! [`HttpConfig::allowed_origins`]: crate::http_config::HttpConfig::allowed_origins

/// An origin as RFC 6454 compares it: scheme, host and port (the scheme's default port
/// where none is written), lower case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

/// The origins a server accepts besides its own.
#[derive(Clone, Debug, Default)]
pub(crate) struct Origins {
    /// `*` was listed: every origin passes.
    any: bool,
    listed: Vec<Origin>,
}

/// The port a scheme implies.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

/// `host[:port]` split, an IPv6 host kept in its brackets; `None` for a port that is not a
/// number.
fn split_authority(authority: &str) -> Option<(&str, Option<u16>)> {
    let port_at = match authority.rfind(':') {
        Some(colon) if !authority[colon..].contains(']') => Some(colon),
        _ => None,
    };
    match port_at {
        Some(colon) => {
            let port = authority[colon + 1..].parse().ok()?;
            Some((&authority[..colon], Some(port)))
        }
        None => Some((authority, None)),
    }
}

impl Origin {
    /// Reads `scheme://host[:port]` (a trailing `/` allowed); `None` for anything else —
    /// `null`, a path, a scheme without a default port and no port written.
    pub(crate) fn parse(text: &str) -> Option<Origin> {
        let text = text.trim();
        let (scheme, rest) = text.split_once("://")?;
        let authority = rest.strip_suffix('/').unwrap_or(rest);
        if authority.is_empty() || authority.contains(['/', '?', '#', '@']) {
            return None;
        }
        let scheme = scheme.to_ascii_lowercase();
        let (host, port) = split_authority(authority)?;
        let port = port.or_else(|| default_port(&scheme))?;
        Some(Origin {
            host: host.to_ascii_lowercase(),
            scheme,
            port,
        })
    }

    /// Whether this origin is the one of an endpoint reached at `host` (the `Host` header:
    /// `host[:port]`, the origin's default port where none is written). The scheme is not
    /// compared: behind a proxy that ends TLS, a page at `https://h` posts to `http://h`.
    fn same_as_host(&self, host: &str) -> bool {
        let Some((name, port)) = split_authority(host.trim()) else {
            return false;
        };
        let port = port.or_else(|| default_port(&self.scheme));
        name.eq_ignore_ascii_case(&self.host) && port == Some(self.port)
    }
}

impl Origins {
    /// The origins `entries` name: each `scheme://host[:port]`, or `*` for any; `Err`
    /// names the first entry that is neither.
    pub(crate) fn parse(entries: &[String]) -> Result<Origins, String> {
        let mut origins = Origins::default();
        for entry in entries {
            if entry.trim() == "*" {
                origins.any = true;
                continue;
            }
            origins
                .listed
                .push(Origin::parse(entry).ok_or_else(|| entry.clone())?);
        }
        Ok(origins)
    }

    /// Whether a request with these `Origin` and `Host` headers may go on.
    pub(crate) fn admit(&self, origin: Option<&str>, host: Option<&str>) -> bool {
        let Some(origin) = origin else {
            return true;
        };
        if self.any {
            return true;
        }
        let Some(origin) = Origin::parse(origin) else {
            return false;
        };
        host.is_some_and(|host| origin.same_as_host(host)) || self.listed.contains(&origin)
    }
}

#[cfg(test)]
mod tests {
    use super::Origins;

    fn origins(entries: &[&str]) -> Origins {
        let entries: Vec<String> = entries.iter().map(|e| (*e).to_owned()).collect();
        Origins::parse(&entries).expect("valid entries")
    }

    #[test]
    fn no_origin_and_the_endpoints_own_pass() {
        let none = origins(&[]);
        assert!(none.admit(None, Some("127.0.0.1:8080")));
        assert!(none.admit(Some("http://127.0.0.1:8080"), Some("127.0.0.1:8080")));
        assert!(none.admit(Some("http://LOCALHOST:8080"), Some("localhost:8080")));
        assert!(none.admit(Some("https://example.com"), Some("example.com")));
        assert!(none.admit(Some("http://[::1]:9000"), Some("[::1]:9000")));
    }

    #[test]
    fn a_foreign_origin_is_refused_unless_listed() {
        let none = origins(&[]);
        assert!(!none.admit(Some("http://evil.example.com"), Some("127.0.0.1:8080")));
        assert!(!none.admit(Some("http://127.0.0.1:9999"), Some("127.0.0.1:8080")));
        assert!(!none.admit(Some("null"), Some("127.0.0.1:8080")));
        assert!(!none.admit(Some("http://127.0.0.1:8080"), None));
        let listed = origins(&["https://app.example.com", "http://localhost:3000/"]);
        assert!(listed.admit(Some("https://app.example.com:443"), None));
        assert!(listed.admit(Some("http://localhost:3000"), None));
        assert!(!listed.admit(Some("http://app.example.com"), None));
        assert!(origins(&["*"]).admit(Some("http://evil.example.com"), None));
    }

    #[test]
    fn an_entry_that_is_no_origin_is_named() {
        let entries = vec!["https://ok.example".to_owned(), "example.com".to_owned()];
        assert_eq!(
            Origins::parse(&entries).err().as_deref(),
            Some("example.com")
        );
        let path = vec!["https://example.com/app".to_owned()];
        assert!(Origins::parse(&path).is_err());
    }
}
