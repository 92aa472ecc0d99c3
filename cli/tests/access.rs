//! Who may call `proxy --http`, as clients and attackers meet it: a request without the bearer
//! token is 401 with `WWW-Authenticate`, a foreign `Origin` is 403, a JWT of the wrong
//! audience, issuer or key, expired, not valid yet or issued in the future, is 401, one
//! without a required scope 403; what the client presents never reaches the upstream; a
//! session answers only the principal (or credential) that opened it; a token without
//! `kid` is tried against every key; a rotated key is read when a token names it; a JWKS
//! that never answers stops the start. The JWTs are signed in the test with Ed25519 and
//! P-256 keys whose JWKS the proxy reads from a file or a URL.

mod common;

use common::{BIN, notes_behind, post, proxy};
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
        "clientInfo": {"name": "access", "version": "1"}}})
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
    )
    .await;
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

/// `proxy --upstream URL` accepting `ISSUER`'s JWTs checked against `jwks`, with `extra`
/// arguments.
async fn oauth_proxy(url: &str, jwks: &str, extra: &[&str]) -> (tokio::process::Child, SocketAddr) {
    let mut args = vec![
        "--upstream",
        url,
        "--oauth-issuer",
        ISSUER,
        "--oauth-jwks",
        jwks,
    ];
    args.extend_from_slice(extra);
    proxy(&args, &[]).await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oauth_resource_server_checks_issuer_audience_expiry_and_key() {
    let (url, seen) = recording_upstream().await;
    let (key, jwk) = ed25519(7, "k1");
    let (stranger, _) = ed25519(9, "k1");
    let folder = std::env::temp_dir().join(format!("mcp-tailor-access-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let jwks = folder.join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [jwk]}).to_string()).unwrap();
    let (_proxy, addr) = oauth_proxy(&url, jwks.to_str().unwrap(), &[]).await;
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
    let (_proxy, addr) = oauth_proxy(&url, &jwks_url, &["--oauth-audience", "mcp-notes"]).await;
    let claims = json!({"sub": "ada", "aud": "mcp-notes", "iss": ISSUER, "exp": now() + 300});
    let token = format!("Bearer {}", jwt(&key, "k2", &claims));
    assert_eq!(knock(addr, &[("authorization", &token)]).await.0, 200);
}

/// The JWKS of `keys` in a file of its own, for the life of the returned folder.
fn jwks_file(name: &str, keys: &[Value]) -> (std::path::PathBuf, String) {
    let folder =
        std::env::temp_dir().join(format!("mcp-tailor-access-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let jwks = folder.join("jwks.json");
    std::fs::write(&jwks, json!({ "keys": keys }).to_string()).unwrap();
    let path = jwks.to_str().unwrap().to_owned();
    (folder, path)
}

/// `initialize` then `notifications/initialized` with `authorization`; the session id.
async fn open_session(mcp: &str, authorization: &str) -> String {
    let client = reqwest::Client::new();
    let opened = client
        .post(mcp)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("authorization", authorization)
        .body(initialize().to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status().as_u16(), 200);
    let id = opened.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let sent = on_session(
        mcp,
        &id,
        authorization,
        reqwest::Method::POST,
        Some(&initialized),
    );
    assert!(sent.await.status().is_success());
    id
}

/// A request on session `id` with `authorization`: a POST of `message`, or a GET or DELETE.
async fn on_session(
    mcp: &str,
    id: &str,
    authorization: &str,
    method: reqwest::Method,
    message: Option<&Value>,
) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .request(method, mcp)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .header("mcp-session-id", id)
        .header("authorization", authorization);
    if let Some(message) = message {
        request = request
            .header("content-type", "application/json")
            .body(message.to_string());
    }
    request.send().await.unwrap()
}

/// Every way a request can name a session: a listing, a call, the event stream, the end.
async fn every_method_on(mcp: &str, id: &str, authorization: &str) -> Vec<(&'static str, u16)> {
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "search_notes", "arguments": {"query": "stolen"}}});
    let mut statuses = Vec::new();
    for (what, method, message) in [
        ("tools/list", reqwest::Method::POST, Some(&list)),
        ("tools/call", reqwest::Method::POST, Some(&call)),
        ("GET", reqwest::Method::GET, None),
        ("DELETE", reqwest::Method::DELETE, None),
    ] {
        let answer = on_session(mcp, id, authorization, method, message).await;
        statuses.push((what, answer.status().as_u16()));
    }
    statuses
}

#[tokio::test(flavor = "multi_thread")]
async fn another_principal_s_token_on_a_session_id_finds_no_session() {
    let (url, seen) = recording_upstream().await;
    let (key, jwk) = ed25519(13, "k1");
    let (folder, jwks) = jwks_file("bound", &[jwk]);
    let (_proxy, addr) = oauth_proxy(
        &url,
        &jwks,
        &["--oauth-audience", "notes", "--forward-authorization"],
    )
    .await;
    let mcp = format!("http://{addr}/mcp");
    let token = |sub: &str| {
        let claims = json!({"sub": sub, "aud": "notes", "iss": ISSUER, "exp": now() + 300});
        format!("Bearer {}", jwt(&key, "k1", &claims))
    };
    let (alice, bob) = (token("alice"), token("bob"));
    let session = open_session(&mcp, &alice).await;
    // Bob's valid token on Alice's session id: no such session, whatever he asks.
    let statuses = every_method_on(&mcp, &session, &bob).await;
    assert!(
        statuses.iter().all(|(_, status)| *status == 404),
        "{statuses:?}"
    );
    // Nothing of Bob's went upstream, under his credential or Alice's.
    let calls_upstream = seen.lock().unwrap().len();
    assert!(seen.lock().unwrap().iter().all(|v| *v == alice), "{seen:?}");
    // Alice's session still serves her, and her call goes upstream with her credential.
    let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "search_notes", "arguments": {"query": "mine"}}});
    let answer = on_session(&mcp, &session, &alice, reqwest::Method::POST, Some(&call)).await;
    assert_eq!(answer.status().as_u16(), 200);
    assert!(answer.text().await.unwrap().contains("mine"));
    {
        let seen = seen.lock().unwrap();
        assert!(seen.len() > calls_upstream);
        assert!(seen.iter().all(|v| *v == alice), "{seen:?}");
    }
    // Alice may end her own session.
    let ended = on_session(&mcp, &session, &alice, reqwest::Method::DELETE, None).await;
    assert_eq!(ended.status().as_u16(), 200);
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn without_client_auth_a_session_belongs_to_the_credential_that_opened_it() {
    // The proxy checks no credential but forwards each: a session opened with Alice's is
    // hers, and Bob's request naming it never goes upstream, with either credential.
    let (url, seen) = recording_upstream().await;
    let (_proxy, addr) = proxy(&["--upstream", &url, "--forward-authorization"], &[]).await;
    let mcp = format!("http://{addr}/mcp");
    let session = open_session(&mcp, "Bearer alice-upstream-token").await;
    let statuses = every_method_on(&mcp, &session, "Bearer bob-upstream-token").await;
    assert!(
        statuses.iter().all(|(_, status)| *status == 404),
        "{statuses:?}"
    );
    let statuses = every_method_on(&mcp, &session, "Bearer alice-upstream-token").await;
    assert!(
        statuses.iter().all(|(_, status)| *status != 404),
        "{statuses:?}"
    );
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty());
    assert!(
        seen.iter().all(|v| v == "Bearer alice-upstream-token"),
        "{seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_not_valid_yet_or_issued_in_the_future_is_refused() {
    let (url, _) = recording_upstream().await;
    let (key, jwk) = ed25519(15, "k1");
    let (folder, jwks) = jwks_file("times", &[jwk]);
    let (_proxy, addr) = oauth_proxy(&url, &jwks, &["--oauth-audience", "notes"]).await;
    let base =
        json!({"sub": "ada", "aud": "notes", "iss": ISSUER, "exp": now() + 10 * 365 * 86400});
    let with = |claim: &str, value: u64| {
        let mut claims = base.clone();
        claims[claim] = json!(value);
        format!("Bearer {}", jwt(&key, "k1", &claims))
    };
    // Valid from 2033: refused, whatever its expiry.
    let (status, challenge) = knock(addr, &[("authorization", &with("nbf", 2_000_000_000))]).await;
    assert_eq!(status, 401);
    assert!(challenge.contains("not valid yet"), "{challenge}");
    let (status, challenge) = knock(addr, &[("authorization", &with("iat", now() + 3600))]).await;
    assert_eq!(status, 401);
    assert!(challenge.contains("issued in the future"), "{challenge}");
    // Within the leeway, both hold.
    assert_eq!(
        knock(addr, &[("authorization", &with("nbf", now() + 30))])
            .await
            .0,
        200
    );
    assert_eq!(
        knock(addr, &[("authorization", &with("iat", now() + 30))])
            .await
            .0,
        200
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

/// A P-256 key: its PKCS#8 DER (to sign ES256) and its JWK, with neither `kid` nor `alg`.
fn p256() -> (EncodingKey, Value) {
    let pair = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    let point = pair.public_key_raw();
    use base64::Engine;
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let jwk =
        json!({"kty": "EC", "crv": "P-256", "x": b64(&point[1..33]), "y": b64(&point[33..65])});
    (EncodingKey::from_ec_der(&pair.serialize_der()), jwk)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_without_kid_is_tried_against_every_key_and_scopes_are_required() {
    let (url, _) = recording_upstream().await;
    let (key, ec) = p256();
    use base64::Engine;
    let modulus = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode([0xc3u8; 256]);
    // An RSA key first, neither naming an algorithm: the token fits both until tried.
    let rsa = json!({"kty": "RSA", "n": modulus, "e": "AQAB", "kid": "r1"});
    let (folder, jwks) = jwks_file("kidless", &[rsa, ec]);
    let (_proxy, addr) = oauth_proxy(
        &url,
        &jwks,
        &["--oauth-audience", "notes", "--require-scope", "notes:read"],
    )
    .await;
    let token = |scope: &str| {
        let claims = json!({"sub": "ada", "aud": "notes", "iss": ISSUER, "exp": now() + 300, "scope": scope});
        let header = Header::new(Algorithm::ES256);
        format!(
            "Bearer {}",
            jsonwebtoken::encode(&header, &claims, &key).unwrap()
        )
    };
    assert_eq!(
        knock(addr, &[("authorization", &token("notes:read other"))])
            .await
            .0,
        200
    );
    // Without the scope: 403, naming it.
    let (status, challenge) = knock(addr, &[("authorization", &token("other"))]).await;
    assert_eq!(status, 403);
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(challenge.contains("scope=\"notes:read\""), "{challenge}");
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_jwks_that_never_answers_stops_the_start_within_its_timeout() {
    // Accepts connections, reads nothing, answers nothing.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let jwks_url = format!("http://{}/jwks.json", silent.local_addr().unwrap());
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = silent.accept().await {
            open.push(stream);
        }
    });
    let started = std::time::Instant::now();
    let output = tokio::process::Command::new(BIN)
        .args(["proxy", "--http", "127.0.0.1:0", "--oauth-issuer", ISSUER])
        .args([
            "--oauth-jwks",
            &jwks_url,
            "--upstream",
            "http://127.0.0.1:9/mcp",
        ])
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(std::time::Duration::from_secs(60), output)
        .await
        .expect("the proxy stops by itself")
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no answer within 10s"), "{said}");
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    held.abort();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_of_a_key_rotated_in_makes_the_jwks_be_read_again() {
    let (url, _) = recording_upstream().await;
    let (old, old_jwk) = ed25519(17, "old");
    let (new, new_jwk) = ed25519(19, "new");
    let set = Arc::new(Mutex::new(json!({"keys": [old_jwk.clone()]})));
    let served = set.clone();
    let reads = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = reads.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let jwks_url = format!("http://{}/jwks.json", listener.local_addr().unwrap());
    let app = axum::Router::new().route(
        "/jwks.json",
        axum::routing::get(move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let set = served.lock().unwrap().to_string();
            async move { set }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await });
    let (_proxy, addr) = oauth_proxy(&url, &jwks_url, &["--oauth-audience", "notes"]).await;
    let claims = json!({"sub": "ada", "aud": "notes", "iss": ISSUER, "exp": now() + 300});
    let with = |key: &EncodingKey, kid: &str| format!("Bearer {}", jwt(key, kid, &claims));
    assert_eq!(
        knock(addr, &[("authorization", &with(&old, "old"))])
            .await
            .0,
        200
    );
    // The issuer rotates: the new key's token makes the set be read again, once.
    *set.lock().unwrap() = json!({"keys": [old_jwk, new_jwk]});
    assert_eq!(
        knock(addr, &[("authorization", &with(&new, "new"))])
            .await
            .0,
        200
    );
    let after_rotation = reads.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(after_rotation, 2);
    // Forged `kid`s within the interval read nothing more.
    for forged in ["a", "b", "c"] {
        assert_eq!(
            knock(addr, &[("authorization", &with(&new, forged))])
                .await
                .0,
            401
        );
    }
    assert_eq!(
        reads.load(std::sync::atomic::Ordering::SeqCst),
        after_rotation
    );
}
