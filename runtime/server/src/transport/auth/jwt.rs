//! OAuth 2.1 access tokens as JWTs (feature `oauth`): the resource-server half of the MCP
//! authorization specification. A token holds when an issuer's JWKS key signed it, its
//! `iss` is the issuer, its `aud` names this server and it has not expired (60 s leeway).
//! The protected-resource metadata (RFC 9728) tells clients which issuer to ask.

use super::Refusal;
use crate::request::info::Principal;
use axum::response::IntoResponse;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use std::sync::Arc;

/// Where RFC 9728 puts a resource's metadata.
const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Checks JWT access tokens for one protected resource.
pub struct JwtAuth {
    issuer: String,
    audience: String,
    /// This server's MCP endpoint (`http://host:port/mcp`), as clients name it.
    resource: String,
    keys: Vec<Key>,
}

/// One verification key of the JWKS.
struct Key {
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
        let set: JwkSet =
            serde_json::from_str(jwks).map_err(|e| JwtError::NotJwks(e.to_string()))?;
        let keys: Vec<Key> = set.keys.iter().filter_map(key).collect();
        if keys.is_empty() {
            return Err(JwtError::NoKeys);
        }
        Ok(JwtAuth {
            issuer: issuer.into(),
            audience: audience.into(),
            resource: resource.into(),
            keys,
        })
    }

    /// The principal `token` proves, or why not.
    pub(super) fn principal(&self, token: &str) -> Result<Principal, Refusal> {
        let malformed = Refusal::Invalid("the token is not a JWT");
        let header = jsonwebtoken::decode_header(token).map_err(|_| malformed)?;
        let key = self
            .keys
            .iter()
            .filter(|k| k.algorithm.is_none_or(|a| a == header.alg))
            .find(|k| header.kid.is_none() || k.id == header.kid)
            .ok_or(Refusal::Invalid("no key of the issuer signs such a token"))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let data = jsonwebtoken::decode::<Claims>(token, &key.key, &validation).map_err(|e| {
            Refusal::Invalid(match e.kind() {
                ErrorKind::ExpiredSignature => "the token has expired",
                ErrorKind::InvalidAudience => "the token is for another audience",
                ErrorKind::InvalidIssuer => "the token is from another issuer",
                ErrorKind::ImmatureSignature => "the token is not valid yet",
                ErrorKind::MissingRequiredClaim(_) => "the token lacks exp, iss or aud",
                _ => "the token's signature does not hold",
            })
        })?;
        let claims = data.claims;
        let mut principal = Principal::new(claims.sub.unwrap_or_default());
        principal.scopes = claims
            .scope
            .unwrap_or_default()
            .split_whitespace()
            .map(str::to_owned)
            .collect();
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
            .field("keys", &self.keys.len())
            .finish()
    }
}

/// A JWK that verifies signatures, as a key; `None` for an encryption key or one the
/// library cannot read.
fn key(jwk: &Jwk) -> Option<Key> {
    if jwk.common.public_key_use == Some(PublicKeyUse::Encryption) {
        return None;
    }
    let algorithm = match jwk.common.key_algorithm {
        Some(named) => Some(Algorithm::try_from(named).ok()?),
        None => None,
    };
    Some(Key {
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
