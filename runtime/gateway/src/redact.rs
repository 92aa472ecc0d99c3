//! What may be a secret, left out of how an upstream is named in logs and errors: a URL's
//! query values and user information, an argument's value when its name says it is a
//! credential (`--token=…`, `--api-key …`, `GITHUB_TOKEN=…`), and an argument that looks
//! like a token itself. The rest stays, so a person can still tell which upstream it is.

/// Words that, in an argument's or a query key's name, say its value is a credential.
const SECRET_WORDS: [&str; 11] = [
    "token",
    "key",
    "secret",
    "password",
    "passwd",
    "pwd",
    "auth",
    "credential",
    "pat",
    "authorization",
    "cookie",
];

/// What stands in for a value left out.
pub const HIDDEN: &str = "…";

/// Whether a name (`--api-key`, `GITHUB_TOKEN`, `access_token`, `Authorization`) names a
/// credential.
pub fn credential_name(name: &str) -> bool {
    let name = name.trim_start_matches('-').to_ascii_lowercase();
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| SECRET_WORDS.iter().any(|secret| word.ends_with(secret)))
}

/// Whether `text` looks like a token by itself: long, one word of letters and digits (and
/// `-`, `_`, `.`), holding both.
fn token_like(text: &str) -> bool {
    text.len() >= 24
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && text.chars().any(|c| c.is_ascii_digit())
        && text.chars().any(|c| c.is_ascii_alphabetic())
}

/// How a value is shown in logs and errors, and what was left out of it (for a log writer
/// that replaces those values wherever another library prints them).
#[derive(Debug, PartialEq, Eq)]
pub struct Redacted<'a> {
    /// The value as it may be shown.
    pub shown: String,
    /// Each part left out, as it was.
    pub hidden: Vec<&'a str>,
}

impl<'a> Redacted<'a> {
    fn plain(text: &str) -> Redacted<'a> {
        Redacted {
            shown: text.to_owned(),
            hidden: Vec::new(),
        }
    }

    fn hiding(shown: String, hidden: &'a str) -> Redacted<'a> {
        Redacted {
            shown,
            hidden: vec![hidden],
        }
    }
}

/// `url` with its user information and every query value left out.
pub fn url(url: &str) -> String {
    redact_url(url).shown
}

/// `url` with its user information and every query value left out, and those values.
pub fn redact_url(url: &str) -> Redacted<'_> {
    let mut hidden = Vec::new();
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (url, None),
    };
    let (base, query) = match before_fragment.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (before_fragment, None),
    };
    let mut shown = match base.split_once("://") {
        Some((scheme, rest)) => {
            let authority_end = rest.find('/').unwrap_or(rest.len());
            let (authority, path) = rest.split_at(authority_end);
            match authority.rsplit_once('@') {
                Some((user, host)) => {
                    hidden.push(user);
                    hidden.extend(user.split_once(':').map(|(_, password)| password));
                    format!("{scheme}://{HIDDEN}@{host}{path}")
                }
                None => base.to_owned(),
            }
        }
        None => base.to_owned(),
    };
    if let Some(query) = query {
        shown.push('?');
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, value)) => {
                    hidden.push(value);
                    format!("{name}={HIDDEN}")
                }
                None => pair.to_owned(),
            })
            .collect();
        shown.push_str(&pairs.join("&"));
    }
    if let Some(fragment) = fragment {
        hidden.push(fragment);
        shown.push_str("#…");
    }
    Redacted { shown, hidden }
}

/// A command's arguments as they may be logged: a credential's value left out, whether
/// it follows its name (`--token=…`, `TOKEN=…`) or comes as the next argument
/// (`--token …`); URLs as [`url`] leaves them; a token-like argument left out whole.
pub fn arguments(args: &[String]) -> impl Iterator<Item = String> + '_ {
    redact_arguments(args).into_iter().map(|arg| arg.shown)
}

/// Each of `args` as [`arguments`] shows it, and what it leaves out.
pub fn redact_arguments(args: &[String]) -> Vec<Redacted<'_>> {
    let mut after_secret_flag = false;
    args.iter()
        .map(|arg| {
            let follows_secret = std::mem::take(&mut after_secret_flag);
            if follows_secret && !arg.starts_with('-') {
                return Redacted::hiding(HIDDEN.to_owned(), arg);
            }
            if let Some((name, value)) = arg.split_once('=')
                && !name.contains("://")
            {
                if credential_name(name) || token_like(value) {
                    return Redacted::hiding(format!("{name}={HIDDEN}"), value);
                }
                if value.contains("://") {
                    let value = redact_url(value);
                    let shown = format!("{name}={}", value.shown);
                    return Redacted { shown, ..value };
                }
                return Redacted::plain(arg);
            }
            if arg.starts_with('-') && credential_name(arg) {
                after_secret_flag = true;
                return Redacted::plain(arg);
            }
            if arg.contains("://") {
                return redact_url(arg);
            }
            match token_like(arg) {
                true => Redacted::hiding(HIDDEN.to_owned(), arg),
                false => Redacted::plain(arg),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{arguments, url};

    fn shown(args: &[&str]) -> Vec<String> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        arguments(&args).collect()
    }

    #[test]
    fn a_url_keeps_its_host_and_path_and_loses_its_query_values_and_password() {
        assert_eq!(
            url("https://user:pw@api.example.com/mcp?api_key=abc&v=2#frag"),
            "https://…@api.example.com/mcp?api_key=…&v=…#…"
        );
        assert_eq!(
            url("http://127.0.0.1:8080/mcp"),
            "http://127.0.0.1:8080/mcp"
        );
    }

    #[test]
    fn what_is_left_out_is_said_as_it_was() {
        let url = super::redact_url("https://user:pw@h/mcp?api_key=abc&v=2");
        assert_eq!(url.hidden, ["user:pw", "pw", "abc", "2"]);
        let args: Vec<String> = ["--token", "s3cr3t", "--url=http://h/?key=k1", "-y"]
            .map(String::from)
            .into();
        let hidden: Vec<&str> = super::redact_arguments(&args)
            .into_iter()
            .flat_map(|arg| arg.hidden)
            .collect();
        assert_eq!(hidden, ["s3cr3t", "k1"]);
    }

    #[test]
    fn a_credential_argument_loses_its_value_in_every_form() {
        assert_eq!(
            shown(&[
                "-y",
                "server",
                "--token=s3cr3t",
                "--api-key",
                "k3y",
                "--port",
                "80"
            ]),
            [
                "-y",
                "server",
                "--token=…",
                "--api-key",
                "…",
                "--port",
                "80"
            ]
        );
        assert_eq!(
            shown(&[
                "GITHUB_PERSONAL_ACCESS_TOKEN=ghp_x",
                "PORT=1",
                "--auth",
                "--verbose"
            ]),
            [
                "GITHUB_PERSONAL_ACCESS_TOKEN=…",
                "PORT=1",
                "--auth",
                "--verbose"
            ]
        );
        assert_eq!(
            shown(&[
                "ghp_0123456789abcdefABCDEF0123",
                "@modelcontextprotocol/server-github"
            ]),
            ["…", "@modelcontextprotocol/server-github"]
        );
        assert_eq!(
            shown(&["--url=http://h/mcp?key=1", "http://u:p@h/"]),
            [
                "--url=http://h/mcp?key=1".replace("key=1", "key=…"),
                "http://…@h/".to_owned()
            ]
        );
    }
}
