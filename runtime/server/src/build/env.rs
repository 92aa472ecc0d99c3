//! The builder's settings a deployment gives in the environment (the cursor secret, the
//! trusted proxies) and the checks of deployment settings (the replica tag): each a clear
//! `BuildError` when malformed.

use super::error::BuildError;
use crate::listing::cursor::ENV_CURSOR_SECRET;
use crate::listing::cursor::{MIN_SECRET_LEN, ShortSecret};

/// The secret in [`ENV_CURSOR_SECRET`], if it is set: `None` when unset, an error when it is
/// not hex or shorter than [`MIN_SECRET_LEN`] bytes.
pub(super) fn env_secret() -> Result<Option<Vec<u8>>, BuildError> {
    let Ok(text) = std::env::var(ENV_CURSOR_SECRET) else {
        return Ok(None);
    };
    let text = text.trim();
    if text.len() % 2 != 0 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(BuildError::EnvCursorSecretNotHex);
    }
    let secret: Vec<u8> = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap_or_default())
        .collect();
    if secret.len() < MIN_SECRET_LEN {
        return Err(ShortSecret(secret.len()).into());
    }
    Ok(Some(secret))
}

/// A replica tag is 1 to 32 of `A-Z a-z 0-9 - _`: it goes into session ids and into a load
/// balancer's routing rules.
#[cfg(feature = "http")]
pub(super) fn check_replica_tag(tag: Option<&str>) -> Result<(), BuildError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    match tag {
        Some(tag) if tag.is_empty() || tag.len() > 32 || !tag.chars().all(allowed) => {
            Err(BuildError::ReplicaTag(tag.to_owned()))
        }
        _ => Ok(()),
    }
}

/// The addresses in [`ENV_TRUSTED_PROXIES`](crate::http_config::ENV_TRUSTED_PROXIES),
/// separated by commas: none when it is unset, an error naming the first that is not an IP
/// address.
#[cfg(feature = "http")]
pub(super) fn env_trusted_proxies() -> Result<Vec<std::net::IpAddr>, BuildError> {
    let Ok(text) = std::env::var(crate::http_config::ENV_TRUSTED_PROXIES) else {
        return Ok(Vec::new());
    };
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| BuildError::TrustedProxy(s.to_owned()))
        })
        .collect()
}
