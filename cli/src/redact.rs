//! Secrets kept out of the log: every value the command read from the environment for an
//! upstream (`${VAR}`), the client-auth token, a header whose name says it is a
//! credential, and what the gateway leaves out when it names an upstream (a URL's query
//! values and user information, a credential argument), wherever another library prints
//! them (an HTTP client's error quotes the whole URL). Each line the log writes passes through
//! [`Redacting`], which writes `…` in place of any of them; how an upstream is named is
//! redacted where it is made (`mcp_tailor::gateway::redact`).

use mcp_tailor::gateway::{Upstream, redact};
use mcp_tailor::seam::Locked;
use std::io::Write;
use std::sync::RwLock;

/// The shortest value kept as a secret: shorter ones (`1`, `true`, a port) would blot out
/// ordinary words of the log, and are no credential.
const SHORTEST: usize = 6;

/// The secrets known so far.
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Keeps `value` out of the log from now on.
pub(crate) fn secret(value: &str) {
    let value = value.trim();
    if value.chars().count() < SHORTEST {
        return;
    }
    let mut secrets = SECRETS.locked_mut();
    if !secrets.iter().any(|s| s == value) {
        secrets.push(value.to_owned());
        // The longest first: a secret that holds another is replaced whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }
}

/// Keeps out of the log what may be a secret in how `upstream` is reached: the values
/// [`mcp_tailor::gateway::redact`] leaves out of its name, and its credential headers.
pub(crate) fn upstream(upstream: &Upstream) {
    let hidden = match upstream {
        Upstream::Command { args, .. } => redact::redact_arguments(args)
            .into_iter()
            .flat_map(|arg| arg.hidden)
            .collect(),
        Upstream::Http { url, headers } => {
            for (name, value) in headers {
                if redact::credential_name(name) {
                    secret(value);
                    secret(value.rsplit(' ').next().unwrap_or(value));
                }
            }
            redact::redact_url(url).hidden
        }
    };
    hidden.into_iter().for_each(secret);
}

/// `text` with every known secret replaced by `…`.
pub(crate) fn text(text: &str) -> String {
    let secrets = SECRETS.locked();
    let mut out = text.to_owned();
    for secret in secrets.iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), redact::HIDDEN);
        }
    }
    out
}

/// An error and each of its sources, `: `-joined, as one line of text.
pub(crate) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut said = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !said.contains(&cause_text) {
            said.push_str(": ");
            said.push_str(&cause_text);
        }
        source = cause.source();
    }
    said
}

/// The log's writer: stderr, each line redacted ([`text`]) as a whole.
pub(crate) struct Redacting;

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Redacting {
    type Writer = Line;
    fn make_writer(&'a self) -> Line {
        Line(Vec::new())
    }
}

/// One event's text, held until it is whole, then redacted and written to stderr.
pub(crate) struct Line(Vec<u8>);

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        let line = text(&String::from_utf8_lossy(&self.0));
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::{secret, text};

    #[test]
    fn a_secret_is_replaced_wherever_it_appears_and_short_values_are_not_secrets() {
        secret("ghp_testsecret0123");
        secret("ghp_testsecret0123-longer");
        secret("1234");
        assert_eq!(
            text("token ghp_testsecret0123-longer and ghp_testsecret0123 on port 1234"),
            "token … and … on port 1234"
        );
    }
}
