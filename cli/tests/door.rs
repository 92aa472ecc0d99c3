//! `proxy --http`'s door, as clients meet it: a request without the bearer token is 401
//! with `WWW-Authenticate`, a foreign `Origin` is 403, a JWT of the wrong audience, issuer
//! or key, or expired, is 401; what the client presents never reaches the upstream. The
//! JWTs are signed in the test with an Ed25519 key whose JWKS the proxy reads from a file
//! or a URL.

mod common;

use common::{BIN, listening, notes_behind, post, proxy};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// The notes server, recording the `Authorization` of every request it gets.
async fn recording_upstream() -> (String, Arc<Mutex<Vec<String>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = seen.clone();
    let url = notes_behind(move |router| {
        router.layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| {
                let kept = kept.clone();
                async move {
                    if let Some(value) = request.headers().get("authorization") {
                        let value = value.to_str().unwrap_or_default().to_owned();
                        kept.lock().unwrap().push(value);
                    }
                    next.run(request).await
                }
            },
        ))
    })
    .await;
    (url, seen)
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "door", "version": "1"}}})
}

/// POSTs `initialize` to `addr` with these headers; the status and `WWW-Authenticate`.
async fn knock(addr: SocketAddr, headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(initialize().to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (response.status().as_u16(), challenge)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bearer_token_and_the_origin_guard_the_door() {
    let (url, seen) = recording_upstream().await;
    let (_proxy, addr) = proxy(
        &[
            "--upstream",
            &url,
            "--bearer-token-env",
            "DOOR_TOKEN",
            "--allow-origin",
            "https://app.example.com",
        ],
        &[("DOOR_TOKEN", "open-sesame")],
    );
    listening(addr).await;
    let (status, challenge) = knock(addr, &[]).await;
    assert_eq!(status, 401);
    assert!(challenge.starts_with("Bearer"), "{challenge}");
    let (status, challenge) = knock(addr, &[("authorization", "Bearer open-sesam")]).await;
    assert_eq!(status, 401);
    assert!(challenge.contains("invalid_token"), "{challenge}");
    let token = [("authorization", "Bearer open-sesame")];
    assert_eq!(knock(addr, &token).await.0, 200);
    // A foreign page is refused even with the token; the endpoint's own page and an
    // allowed one are not.
    let evil = [token[0], ("origin", "http://evil.example.com")];
    assert_eq!(knock(addr, &evil).await.0, 403);
    let own_origin = format!("http://{addr}");
    let own = [token[0], ("origin", own_origin.as_str())];
    assert_eq!(knock(addr, &own).await.0, 200);
    let allowed = [token[0], ("origin", "https://app.example.com")];
    assert_eq!(knock(addr, &allowed).await.0, 200);
    // A session works with the token, and the upstream never saw it.
    let client = reqwest::Client::new();
    let mcp = format!("http://{addr}/mcp");
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let unauthorized = post(&client, &mcp, Some("no-such"), &list).await;
    assert_eq!(unauthorized.status().as_u16(), 401);
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .all(|v| !v.contains("open-sesame")),
        "{seen:?}"
    );
}

#[tokio::test]
async fn a_bearer_token_variable_that_is_unset_stops_the_proxy() {
    let output = tokio::process::Command::new(BIN)
        .args([
            "proxy",
            "--http",
            "127.0.0.1:0",
            "--bearer-token-env",
            "DOOR_TOKEN_UNSET",
            "--upstream",
            "http://127.0.0.1:9/mcp",
        ])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("$DOOR_TOKEN_UNSET is not set"), "{said}");
}

/// An Ed25519 key from a fixed seed: its PKCS#8 DER (to sign) and its JWK (to verify).
fn ed25519(seed: u8, kid: &str) -> (EncodingKey, Value) {
    let seed = [seed; 32];
    // PKCS#8 v1 for Ed25519 (RFC 8410): a fixed prefix, then the 32-byte seed.
    let mut der = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    der.extend_from_slice(&seed);
    let public = ed25519_dalek::SigningKey::from_bytes(&seed)
        .verifying_key()
        .to_bytes();
    use base64::Engine;
    let x = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(public);
    let jwk = json!({"kty": "OKP", "crv": "Ed25519", "x": x, "kid": kid,
        "alg": "EdDSA", "use": "sig"});
    (EncodingKey::from_ed_der(&der), jwk)
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A JWT of `claims` signed by `key` as `kid`.
fn jwt(key: &EncodingKey, kid: &str, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(&header, claims, key).unwrap()
}

const ISSUER: &str = "https://issuer.example.com";

#[tokio::test(flavor = "multi_thread")]
async fn an_oauth_resource_server_checks_issuer_audience_expiry_and_key() {
    let (url, seen) = recording_upstream().await;
    let (key, jwk) = ed25519(7, "k1");
    let (stranger, _) = ed25519(9, "k1");
    let folder = std::env::temp_dir().join(format!("mcp-tailor-door-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let jwks = folder.join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [jwk]}).to_string()).unwrap();
    let (_proxy, addr) = proxy(
        &[
            "--upstream",
            &url,
            "--oauth-issuer",
            ISSUER,
            "--oauth-jwks",
            jwks.to_str().unwrap(),
        ],
        &[],
    );
    listening(addr).await;
    let resource = format!("http://{addr}/mcp");
    let claims = |aud: &str, iss: &str, exp: u64| json!({"sub": "ada", "scope": "tools:read", "aud": aud, "iss": iss, "exp": exp});
    let bearer = |token: String| format!("Bearer {token}");
    let good = bearer(jwt(&key, "k1", &claims(&resource, ISSUER, now() + 300)));
    assert_eq!(knock(addr, &[("authorization", &good)]).await.0, 200);
    for (why, token) in [
        (
            "audience",
            jwt(&key, "k1", &claims("http://other/mcp", ISSUER, now() + 300)),
        ),
        (
            "expired",
            jwt(&key, "k1", &claims(&resource, ISSUER, now() - 3600)),
        ),
        (
            "issuer",
            jwt(&key, "k1", &claims(&resource, "https://evil", now() + 300)),
        ),
        (
            "key",
            jwt(&stranger, "k1", &claims(&resource, ISSUER, now() + 300)),
        ),
    ] {
        let (status, challenge) = knock(addr, &[("authorization", &bearer(token))]).await;
        assert_eq!(status, 401, "{why}");
        assert!(challenge.contains("invalid_token"), "{why}: {challenge}");
    }
    // Without a token the challenge names the metadata, which names the issuer.
    let (status, challenge) = knock(addr, &[]).await;
    assert_eq!(status, 401);
    let metadata_url = format!("http://{addr}/.well-known/oauth-protected-resource/mcp");
    assert!(challenge.contains(&metadata_url), "{challenge}");
    let metadata: Value = reqwest::get(&metadata_url)
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(metadata["resource"], resource.as_str());
    assert_eq!(metadata["authorization_servers"], json!([ISSUER]));
    assert!(seen.lock().unwrap().iter().all(|v| !v.contains(&good[7..])));
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_jwks_is_read_from_a_url() {
    let (url, _) = recording_upstream().await;
    let (key, jwk) = ed25519(11, "k2");
    let set = json!({"keys": [jwk]}).to_string();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let jwks_url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
    let app = axum::Router::new().route(
        "/jwks.json",
        axum::routing::get(move || {
            let set = set.clone();
            async move { set }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    let (_proxy, addr) = proxy(
        &[
            "--upstream",
            &url,
            "--oauth-issuer",
            ISSUER,
            "--oauth-jwks",
            &jwks_url,
            "--oauth-audience",
            "mcp-notes",
        ],
        &[],
    );
    listening(addr).await;
    let claims = json!({"sub": "ada", "aud": "mcp-notes", "iss": ISSUER, "exp": now() + 300});
    let token = format!("Bearer {}", jwt(&key, "k2", &claims));
    assert_eq!(knock(addr, &[("authorization", &token)]).await.0, 200);
}
