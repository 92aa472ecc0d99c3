//! `proxy --http`'s door, opened at start: the bearer token read from the environment, or
//! the issuer's JWKS read from its file or URL; the origins handed to the HTTP limits.

use crate::args::{Auth, Door};
use mcp_tailor::server::auth::{BearerToken, ClientAuth, JwtAuth};
use std::net::SocketAddr;
use std::sync::Arc;

/// The check `door` asks of every request at `addr`, if any; `Err` says what is missing.
pub(crate) async fn client_auth(
    door: &Door,
    addr: SocketAddr,
) -> Result<Option<ClientAuth>, String> {
    match &door.auth {
        Auth::Open => Ok(None),
        Auth::Bearer { env } => {
            let token = std::env::var(env).unwrap_or_default();
            let token = BearerToken::new(token.trim())
                .ok_or_else(|| format!("--bearer-token-env {env}: ${env} is not set, or empty"))?;
            Ok(Some(ClientAuth::Bearer(token)))
        }
        Auth::Oauth {
            issuer,
            jwks,
            audience,
            resource,
        } => {
            let text = jwks_text(jwks).await?;
            let resource = resource
                .clone()
                .unwrap_or_else(|| format!("http://{addr}/mcp"));
            let audience = audience.clone().unwrap_or_else(|| resource.clone());
            let jwt = JwtAuth::new(issuer.as_str(), audience, resource, &text)
                .map_err(|e| format!("--oauth-jwks {jwks}: {e}"))?;
            Ok(Some(ClientAuth::Jwt(Arc::new(jwt))))
        }
    }
}

/// The JWKS at `source`: an `http://` or `https://` URL, fetched once, or a file.
async fn jwks_text(source: &str) -> Result<String, String> {
    let failed = |e: &dyn std::fmt::Display| format!("--oauth-jwks {source}: {e}");
    if !(source.starts_with("http://") || source.starts_with("https://")) {
        return std::fs::read_to_string(source).map_err(|e| failed(&e));
    }
    // (Built, not `Client::new()`: that panics where TLS finds no root certificate.)
    let client = reqwest::Client::builder().build().map_err(|e| failed(&e))?;
    let response = client.get(source).send().await.map_err(|e| failed(&e))?;
    let status = response.status();
    if !status.is_success() {
        return Err(failed(&format!("HTTP {status}")));
    }
    response.text().await.map_err(|e| failed(&e))
}
