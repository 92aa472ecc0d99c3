//! Who may call `proxy --http`, settled at start: the bearer token read from the
//! environment, or the issuer's JWKS read from its file or URL; the origins handed to the
//! HTTP settings.
//!
//! A JWKS at a URL is read with a time limit (start-up fails, saying so, when the issuer
//! does not answer), read again as its `Cache-Control: max-age` says (an hour when it says
//! nothing; never more often than a minute, never less than a day), and read again at once
//! when a token names a key the set lacks, at most once a minute. A JWKS file is read
//! again on such a token too.

use crate::CommandError;
use crate::args::{Access, Auth};
use mcp_tailor::server::auth::{BearerToken, ClientAuth, JwtAuth, Refresh};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// How long reading the JWKS may take.
const JWKS_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time between two reads of the JWKS for tokens naming an unknown key.
const UNKNOWN_KEY_INTERVAL: Duration = Duration::from_secs(60);

/// How often a JWKS URL is read again when it says nothing of caching, and the bounds of
/// what it may say.
const JWKS_MAX_AGE: Duration = Duration::from_secs(3600);
const JWKS_MAX_AGE_BOUNDS: (Duration, Duration) =
    (Duration::from_secs(60), Duration::from_secs(24 * 3600));

/// The check `access` asks of every request at `addr`, if any; `Err` says what is missing.
pub(crate) async fn client_auth(
    access: &Access,
    addr: SocketAddr,
) -> Result<Option<ClientAuth>, CommandError> {
    match &access.auth {
        Auth::Open => Ok(None),
        Auth::Bearer { env } => bearer(env, "--bearer-token-env").map(Some),
        Auth::Oauth {
            issuer,
            jwks,
            audience,
            resource,
            scopes,
        } => {
            let (text, max_age) = jwks_text(jwks).await.map_err(CommandError::Credential)?;
            let resource = resource
                .clone()
                .unwrap_or_else(|| format!("http://{addr}/mcp"));
            let audience = audience.clone().unwrap_or_else(|| resource.clone());
            let source = jwks.clone();
            let refresh: Refresh = Arc::new(move || {
                let source = source.clone();
                Box::pin(async move { jwks_text(&source).await.map(|(text, _)| text) })
            });
            let jwt = JwtAuth::new(issuer.as_str(), audience, resource, &text)
                .map_err(|e| CommandError::Credential(format!("--oauth-jwks {jwks}: {e}")))?
                .require_scopes(scopes.iter().cloned())
                .with_refresh(refresh, UNKNOWN_KEY_INTERVAL);
            let jwt = Arc::new(jwt);
            if let Some(max_age) = max_age {
                tokio::spawn(rotate(jwks.clone(), Arc::downgrade(&jwt), max_age));
            }
            Ok(Some(ClientAuth::Jwt(jwt)))
        }
    }
}

/// The bearer token held by the environment variable `env` (named by `option`), kept out
/// of the log; `Err` when it is unset or empty.
pub(crate) fn bearer(env: &str, option: &str) -> Result<ClientAuth, CommandError> {
    let token = std::env::var(env).unwrap_or_default();
    crate::redact::secret(&token);
    let token = BearerToken::new(token.trim()).ok_or_else(|| {
        CommandError::Credential(format!("{option} {env}: ${env} is not set, or empty"))
    })?;
    Ok(ClientAuth::Bearer(token))
}

/// Reads the JWKS at `url` again each time its last answer's `max_age` runs out, for as
/// long as the proxy runs.
async fn rotate(url: String, jwt: std::sync::Weak<JwtAuth>, mut max_age: Duration) {
    loop {
        tokio::time::sleep(max_age).await;
        let Some(jwt) = jwt.upgrade() else { return };
        match jwks_text(&url).await {
            Ok((text, age)) => {
                max_age = age.unwrap_or(JWKS_MAX_AGE);
                match jwt.set_jwks(&text) {
                    Ok(keys) => tracing::debug!(keys, "JWKS read again"),
                    Err(error) => {
                        tracing::warn!(%error, "JWKS read again: unusable; old keys kept")
                    }
                }
            }
            Err(error) => {
                max_age = JWKS_MAX_AGE_BOUNDS.0;
                tracing::warn!("{error}; old keys kept");
            }
        }
    }
}

/// The JWKS at `source`, an `http://` or `https://` URL or a file; for a URL, how long its
/// answer may be kept (its `Cache-Control: max-age`, within bounds).
async fn jwks_text(source: &str) -> Result<(String, Option<Duration>), String> {
    let failed = |e: &dyn std::fmt::Display| format!("--oauth-jwks {source}: {e}");
    if !(source.starts_with("http://") || source.starts_with("https://")) {
        let text = std::fs::read_to_string(source).map_err(|e| failed(&e))?;
        return Ok((text, None));
    }
    // (Built, not `Client::new()`: that panics where TLS finds no root certificate.)
    let client = reqwest::Client::builder()
        .connect_timeout(JWKS_TIMEOUT)
        .timeout(JWKS_TIMEOUT)
        .build()
        .map_err(|e| failed(&e))?;
    let response = client.get(source).send().await.map_err(|e| {
        let said = crate::redact::error_chain(&e);
        match e.is_timeout() {
            true => failed(&format!(
                "no answer within {}s ({said})",
                JWKS_TIMEOUT.as_secs()
            )),
            false => failed(&said),
        }
    })?;
    let status = response.status();
    if !status.is_success() {
        return Err(failed(&format!("HTTP {status}")));
    }
    let max_age = response
        .headers()
        .get(reqwest::header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .and_then(max_age)
        .map(|age| age.clamp(JWKS_MAX_AGE_BOUNDS.0, JWKS_MAX_AGE_BOUNDS.1))
        .unwrap_or(JWKS_MAX_AGE);
    let text = tokio::time::timeout(JWKS_TIMEOUT, response.text())
        .await
        .map_err(|_| failed(&format!("no answer within {}s", JWKS_TIMEOUT.as_secs())))?
        .map_err(|e| failed(&e))?;
    Ok((text, Some(max_age)))
}

/// `max-age=N` of a `Cache-Control` value (`no-store`/`no-cache`: the least).
fn max_age(cache_control: &str) -> Option<Duration> {
    cache_control.split(',').find_map(|directive| {
        let directive = directive.trim();
        if directive.eq_ignore_ascii_case("no-store") || directive.eq_ignore_ascii_case("no-cache")
        {
            return Some(Duration::ZERO);
        }
        let (name, value) = directive.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("max-age")
            .then(|| value.trim().trim_matches('"').parse().ok())
            .flatten()
            .map(Duration::from_secs)
    })
}

#[cfg(test)]
mod tests {
    use super::max_age;
    use std::time::Duration;

    #[test]
    fn the_cache_control_of_a_jwks_says_how_long_to_keep_it() {
        assert_eq!(
            max_age("public, max-age=600"),
            Some(Duration::from_secs(600))
        );
        assert_eq!(max_age("MAX-AGE=\"60\""), Some(Duration::from_secs(60)));
        assert_eq!(max_age("no-store"), Some(Duration::ZERO));
        assert_eq!(max_age("public"), None);
    }
}
