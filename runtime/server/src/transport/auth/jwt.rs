//! OAuth 2.1 access tokens as JWTs (feature `oauth`): the resource-server half of the MCP
//! authorization specification. A token holds when an issuer's JWKS key signed it, its
//! `iss` is the issuer, its `aud` names this server, it has not expired, is not used before
//! its `nbf` nor issued after now (`iat`), each with 60 s leeway, and it grants every
//! required scope. A token without `kid` is tried against every key of its algorithm.
//! The keys can be replaced while serving ([`JwtAuth::set_jwks`]), and read again when a
//! token names a key the set lacks ([`JwtAuth::with_refresh`]), at most once per interval.
//! The protected-resource metadata (RFC 9728) tells clients which issuer to ask.

use super::Refusal;
use crate::request::info::Principal;
use axum::response::IntoResponse;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use mcp_tailor_core::seam::Locked;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

/// How far a token's times may be off this server's clock.
const LEEWAY_SECS: u64 = 60;

/// Reads the issuer's JWKS again: the set's JSON, or why not.
pub type Refresh =
    Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<String, String>> + Send>> + Send + Sync>;

/// Where RFC 9728 puts a resource's metadata.
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Checks JWT access tokens for one protected resource.
pub struct JwtAuth {
    issuer: String,
    audience: String,
    /// This server's MCP endpoint (`http://host:port/mcp`), as clients name it.
    resource: String,
    /// Scopes every token must grant (`scope`), none by default.
    required_scopes: Vec<String>,
    keys: RwLock<Arc<Vec<VerifyKey>>>,
    /// Reads the set again when a token names a key it lacks; with its interval, and when
    /// it last ran.
    refresh: Option<(Refresh, Duration, Mutex<Option<Instant>>)>,
}

/// One verification key of the JWKS.
struct VerifyKey {
    id: Option<String>,
    /// The algorithm the JWK names, when it names one.
    algorithm: Option<Algorithm>,
    key: DecodingKey,
}

/// Why a JWKS cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JwtError {
    /// The text is not a JSON Web Key Set.
    #[error("the JWKS is not a JSON Web Key Set: {0}")]
    NotJwks(String),
    /// No key of the set verifies signatures.
    #[error("the JWKS holds no signature key this server can use")]
    NoKeys,
}

/// The claims read past the ones `Validation` checks.
#[derive(serde::Deserialize)]
struct Claims {
    sub: Option<String>,
    /// Scopes separated by spaces (RFC 8693 `scope`).
    scope: Option<String>,
    /// When the token was issued (seconds since the epoch).
    iat: Option<u64>,
}

/// The keys of a JWK Set's JSON that verify signatures.
fn keys_of(jwks: &str) -> Result<Vec<VerifyKey>, JwtError> {
    let set: JwkSet = serde_json::from_str(jwks).map_err(|e| JwtError::NotJwks(e.to_string()))?;
    let keys: Vec<VerifyKey> = set.keys.iter().filter_map(key).collect();
    match keys.is_empty() {
        true => Err(JwtError::NoKeys),
        false => Ok(keys),
    }
}

/// Seconds since the epoch, now.
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl JwtAuth {
    /// Tokens of `issuer` for `audience`, signed by a key of `jwks` (a JWK Set's JSON);
    /// `resource` is this server's MCP endpoint URL, named in the metadata.
    pub fn new(
        issuer: impl Into<String>,
        audience: impl Into<String>,
        resource: impl Into<String>,
        jwks: &str,
    ) -> Result<JwtAuth, JwtError> {
        Ok(JwtAuth {
            issuer: issuer.into(),
            audience: audience.into(),
            resource: resource.into(),
            required_scopes: Vec::new(),
            keys: RwLock::new(Arc::new(keys_of(jwks)?)),
            refresh: None,
        })
    }

    /// Requires every token to grant each of `scopes`; one that lacks any is answered
    /// HTTP 403 `insufficient_scope`, naming them.
    #[must_use]
    pub fn require_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.required_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Reads the set again through `refresh` when a token names a key (`kid`) the set
    /// lacks, at most once per `interval` (a stream of forged `kid`s costs one read per
    /// interval, not one per request).
    #[must_use]
    pub fn with_refresh(mut self, refresh: Refresh, interval: Duration) -> Self {
        self.refresh = Some((refresh, interval, Mutex::new(None)));
        self
    }

    /// Replaces the keys with those of `jwks` (a rotation read while serving); the old
    /// keys stay when it holds none. The number of keys now in use.
    pub fn set_jwks(&self, jwks: &str) -> Result<usize, JwtError> {
        let keys = keys_of(jwks)?;
        let count = keys.len();
        *self.keys.locked_mut() = Arc::new(keys);
        Ok(count)
    }

    fn keys(&self) -> Arc<Vec<VerifyKey>> {
        self.keys.locked().clone()
    }

    /// The principal `token` proves, or why not; a token naming a key the set lacks makes
    /// it be read again first, when the interval allows.
    pub(super) async fn check(&self, token: &str) -> Result<Principal, Refusal> {
        match self.principal(token) {
            Err(Refusal::UnknownKey) if self.may_refresh() => {
                if let Some((refresh, _, _)) = &self.refresh {
                    match refresh().await.map(|jwks| self.set_jwks(&jwks)) {
                        Ok(Ok(count)) => tracing::info!(keys = count, "JWKS read again"),
                        Ok(Err(error)) => tracing::warn!(%error, "JWKS read again: unusable"),
                        Err(error) => tracing::warn!(%error, "JWKS could not be read again"),
                    }
                }
                self.principal(token)
            }
            checked => checked,
        }
    }

    /// Whether the set may be read again now (and, if so, that it is being read).
    fn may_refresh(&self) -> bool {
        let Some((_, interval, last)) = &self.refresh else {
            return false;
        };
        let mut last = last.locked();
        let due = last.is_none_or(|at| at.elapsed() >= *interval);
        if due {
            *last = Some(Instant::now());
        }
        due
    }

    /// The principal `token` proves with the keys held now, or why not.
    fn principal(&self, token: &str) -> Result<Principal, Refusal> {
        let malformed = Refusal::Invalid("the token is not a JWT");
        let header = jsonwebtoken::decode_header(token).map_err(|_| malformed)?;
        let keys = self.keys();
        let fitting: Vec<&VerifyKey> = keys
            .iter()
            .filter(|k| k.algorithm.is_none_or(|a| a == header.alg))
            .filter(|k| header.kid.is_none() || k.id == header.kid)
            .collect();
        if fitting.is_empty() {
            return Err(match header.kid {
                Some(_) => Refusal::UnknownKey,
                None => Refusal::Invalid("no key of the issuer signs such a token"),
            });
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        validation.validate_nbf = true;
        validation.leeway = LEEWAY_SECS;
        // Without `kid`, each key that fits is tried: a signature that does not hold under
        // one may under the next; any other failure is the token's own.
        let mut refused = Refusal::Invalid("the token's signature does not hold");
        let mut data = None;
        for key in fitting {
            match jsonwebtoken::decode::<Claims>(token, &key.key, &validation) {
                Ok(decoded) => {
                    data = Some(decoded);
                    break;
                }
                Err(error) => {
                    refused = Refusal::Invalid(match error.kind() {
                        ErrorKind::ExpiredSignature => "the token has expired",
                        ErrorKind::InvalidAudience => "the token is for another audience",
                        ErrorKind::InvalidIssuer => "the token is from another issuer",
                        ErrorKind::ImmatureSignature => "the token is not valid yet",
                        ErrorKind::MissingRequiredClaim(_) => "the token lacks exp, iss or aud",
                        ErrorKind::InvalidSignature
                        | ErrorKind::InvalidEcdsaKey
                        | ErrorKind::InvalidEddsaKey
                        | ErrorKind::InvalidRsaKey(_)
                        | ErrorKind::InvalidAlgorithm
                        | ErrorKind::InvalidKeyFormat => continue,
                        _ => "the token's signature does not hold",
                    });
                    break;
                }
            }
        }
        let claims = data.ok_or(refused)?.claims;
        if claims.iat.is_some_and(|iat| iat > now() + LEEWAY_SECS) {
            return Err(Refusal::Invalid("the token is issued in the future"));
        }
        let mut principal = Principal::new(claims.sub.unwrap_or_default());
        principal.scopes = claims
            .scope
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let missing: Vec<&str> = self
            .required_scopes
            .iter()
            .filter(|scope| !principal.scopes.contains(*scope))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Err(Refusal::Insufficient(missing.join(" ")));
        }
        Ok(principal)
    }

    /// The URL of this resource's metadata: the well-known path, then the endpoint's path.
    pub(super) fn metadata_url(&self) -> String {
        let (origin, path) = split_url(&self.resource);
        format!("{origin}{METADATA_PATH}{path}")
    }

    /// The metadata document (RFC 9728 §2).
    fn metadata(&self) -> serde_json::Value {
        serde_json::json!({
            "resource": self.resource,
            "authorization_servers": [self.issuer],
            "bearer_methods_supported": ["header"],
        })
    }
}

impl std::fmt::Debug for JwtAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtAuth")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("resource", &self.resource)
            .field("keys", &self.keys().len())
            .field("required_scopes", &self.required_scopes)
            .finish()
    }
}

/// A JWK that verifies signatures, as a key; `None` for an encryption key or one the
/// library cannot read.
fn key(jwk: &Jwk) -> Option<VerifyKey> {
    if jwk.common.public_key_use == Some(PublicKeyUse::Encryption) {
        return None;
    }
    let algorithm = match jwk.common.key_algorithm {
        Some(named) => Some(Algorithm::try_from(named).ok()?),
        None => None,
    };
    Some(VerifyKey {
        id: jwk.common.key_id.clone(),
        algorithm,
        key: DecodingKey::from_jwk(jwk).ok()?,
    })
}

/// `scheme://authority` and the path of `url` (`""` for none).
fn split_url(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(slash) => url.split_at(after_scheme + slash),
        None => (url, ""),
    }
}

/// The metadata, served unguarded at the well-known path and at it followed by the
/// endpoint's path.
pub(super) fn metadata_routes(jwt: Arc<JwtAuth>) -> axum::Router {
    let (_, path) = split_url(&jwt.resource);
    let document = jwt.metadata().to_string();
    let answer = move || {
        let document = document.clone();
        async move {
            (
                [(axum::http::header::CONTENT_TYPE, "application/json")],
                document,
            )
                .into_response()
        }
    };
    let mut router = axum::Router::new().route(METADATA_PATH, axum::routing::get(answer.clone()));
    if !path.is_empty() && path != "/" {
        router = router.route(
            &format!("{METADATA_PATH}{path}"),
            axum::routing::get(answer),
        );
    }
    router
}

#[cfg(test)]
mod tests {
    use super::split_url;

    #[test]
    fn a_resource_url_splits_at_its_path() {
        assert_eq!(
            split_url("http://127.0.0.1:8080/mcp"),
            ("http://127.0.0.1:8080", "/mcp")
        );
        assert_eq!(
            split_url("https://example.com"),
            ("https://example.com", "")
        );
    }
}
