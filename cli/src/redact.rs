//! Secrets kept out of the log: every value the command read from the environment for an
//! upstream (`${VAR}`), the client-auth token, and a header given on the command line
//! whose name says it is a credential. Each line the log writes passes through
//! [`Redacting`], which writes `…` in place of any of them; how an upstream is named is
//! redacted where it is made (`mcp_tailor::gateway::redact`).

use std::io::Write;
use std::sync::{PoisonError, RwLock};

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
    let mut secrets = SECRETS.write().unwrap_or_else(PoisonError::into_inner);
    if !secrets.iter().any(|s| s == value) {
        secrets.push(value.to_owned());
        // The longest first: a secret that holds another is replaced whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }
}

/// `text` with every known secret replaced by `…`.
pub(crate) fn text(text: &str) -> String {
    let secrets = SECRETS.read().unwrap_or_else(PoisonError::into_inner);
    let mut out = text.to_owned();
    for secret in secrets.iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), mcp_tailor::gateway::redact::HIDDEN);
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
