//! Who may call the endpoint (streamable HTTP): one bearer token, or (feature `oauth`)
//! a JWT an OAuth 2.1 authorization server signed, as the MCP authorization specification
//! describes a resource server.
//!
//! | credential | accepted when | the handler's [`Principal`] |
//! |---|---|---|
//! | [`ClientAuth::Bearer`] | `Authorization: Bearer <token>` is the token (compared in constant time) | id `bearer` |
//! | [`ClientAuth::Jwt`] | the JWT's signature is a JWKS key's, its issuer, audience, times and required scopes hold | `sub`, `scope` |
//!
//! Any other request is answered HTTP 401 with `WWW-Authenticate: Bearer …` and a
//! JSON-RPC error (a JWT that lacks a required scope: 403 `insufficient_scope`); the JWT mode names its protected-resource metadata there, and serves
//! it at `/.well-known/oauth-protected-resource` (RFC 9728). Wrap a server's router:
//! `auth.guard(server.router())`.

#[cfg(feature = "oauth")]
mod jwt;

use crate::request::info::Principal;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ctutils::CtEq;
use sha2::{Digest, Sha256};

#[cfg(feature = "oauth")]
pub use jwt::{JwtAuth, JwtError, Refresh};

/// How clients prove who they are (see the module documentation).
#[derive(Clone)]
pub enum ClientAuth {
    /// One shared secret, sent as `Authorization: Bearer <token>`.
    Bearer(BearerToken),
    /// OAuth 2.1 access tokens: JWTs checked against an issuer's keys (feature `oauth`).
    #[cfg(feature = "oauth")]
    Jwt(std::sync::Arc<JwtAuth>),
}

/// A bearer token, kept as its SHA-256 digest: a presented token is hashed and the two
/// digests compared in constant time, so neither its bytes nor its length leak by timing.
#[derive(Clone)]
pub struct BearerToken([u8; 32]);

impl BearerToken {
    /// The token clients must send; `None` for an empty one (which would admit anyone
    /// sending `Bearer ` with nothing after it).
    pub fn new(token: &str) -> Option<BearerToken> {
        (!token.is_empty()).then(|| BearerToken(Sha256::digest(token.as_bytes()).into()))
    }

    /// Whether `presented` is this token.
    fn admits(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        digest.ct_eq(&self.0).to_bool()
    }
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(…)")
    }
}

/// Why a request was refused: no credential, one that does not hold, one signed by a key
/// the server does not know (yet), or one without the scopes required (space-separated).
pub(crate) enum Refusal {
    Missing,
    Invalid(&'static str),
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    UnknownKey,
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    Insufficient(String),
}

impl Refusal {
    /// What the client is told.
    fn why(&self) -> &'static str {
        match self {
            Refusal::Missing => "unauthorized: send Authorization: Bearer <token>",
            Refusal::Invalid(why) => why,
            Refusal::UnknownKey => "no key of the issuer signs such a token",
            Refusal::Insufficient(_) => "forbidden: the token lacks a required scope",
        }
    }
}

/// The token of `Authorization: Bearer <token>` (the scheme in any case).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

impl ClientAuth {
    /// `router` with every request checked first (and, for JWTs, the protected-resource
    /// metadata served beside it).
    pub fn guard(self, router: axum::Router) -> axum::Router {
        let metadata = self.metadata_routes();
        let guarded = router.layer(axum::middleware::from_fn_with_state(self, check));
        match metadata {
            Some(metadata) => guarded.merge(metadata),
            None => guarded,
        }
    }

    /// What clients read before they hold a token (the JWT mode's metadata).
    fn metadata_routes(&self) -> Option<axum::Router> {
        match self {
            ClientAuth::Bearer(_) => None,
            #[cfg(feature = "oauth")]
            ClientAuth::Jwt(jwt) => Some(jwt::metadata_routes(jwt.clone())),
        }
    }

    /// The principal `headers` prove, or why not.
    async fn principal(&self, headers: &HeaderMap) -> Result<Principal, Refusal> {
        let token = bearer(headers).ok_or(Refusal::Missing)?;
        match self {
            ClientAuth::Bearer(expected) => match expected.admits(token) {
                true => Ok(Principal::new("bearer")),
                false => Err(Refusal::Invalid("the bearer token is not this server's")),
            },
            #[cfg(feature = "oauth")]
            ClientAuth::Jwt(jwt) => jwt.check(token).await,
        }
    }

    /// The `WWW-Authenticate` value refusing a request.
    fn challenge(&self, refusal: &Refusal) -> String {
        let mut value = String::from("Bearer realm=\"mcp\"");
        #[cfg(feature = "oauth")]
        if let ClientAuth::Jwt(jwt) = self {
            value.push_str(&format!(", resource_metadata=\"{}\"", jwt.metadata_url()));
        }
        match refusal {
            Refusal::Missing => {}
            Refusal::Insufficient(scopes) => value.push_str(&format!(
                ", error=\"insufficient_scope\", scope=\"{scopes}\", error_description=\"{}\"",
                refusal.why()
            )),
            _ => value.push_str(&format!(
                ", error=\"invalid_token\", error_description=\"{}\"",
                refusal.why()
            )),
        }
        value
    }
}

/// The middleware: a request that proves a principal goes on carrying it; any other is
/// answered 401 (403 for a token without a required scope), and logged at most once per
/// [`refusals::EVERY`](crate::transport::refusals::EVERY).
async fn check(State(auth): State<ClientAuth>, mut request: Request, next: Next) -> Response {
    match auth.principal(request.headers()).await {
        Ok(principal) => {
            request.extensions_mut().insert(principal);
            next.run(request).await
        }
        Err(refusal) => {
            let why = refusal.why();
            crate::transport::refusals::refused(why);
            let body = serde_json::json!({
                "jsonrpc": "2.0", "id": null,
                "error": {"code": -32001, "message": why},
            });
            let status = match refusal {
                Refusal::Insufficient(_) => StatusCode::FORBIDDEN,
                _ => StatusCode::UNAUTHORIZED,
            };
            let mut response = (status, body.to_string()).into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            if let Ok(value) = HeaderValue::from_str(&auth.challenge(&refusal)) {
                headers.insert(header::WWW_AUTHENTICATE, value);
            }
            response
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BearerToken, bearer};
    use axum::http::{HeaderMap, HeaderValue, header};

    #[test]
    fn a_bearer_token_admits_itself_only() {
        let token = BearerToken::new("s3cret").unwrap();
        assert!(token.admits("s3cret"));
        assert!(!token.admits("s3cre"));
        assert!(!token.admits("s3cret "));
        assert!(BearerToken::new("").is_none());
    }

    #[test]
    fn the_token_is_read_from_authorization() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer abc"),
        );
        assert_eq!(bearer(&headers), Some("abc"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer(&headers), None);
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer "));
        assert_eq!(bearer(&headers), None);
    }
}
