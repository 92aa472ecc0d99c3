//! `https://` upstreams: the notes server behind a TLS terminator of the test's own, its
//! certificate made here for `localhost` and trusted only through `SSL_CERT_FILE`.

mod common;

use common::{BIN, RawSession, proxy};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};
use tokio::process::Command;
use tokio_rustls::rustls;

/// The notes server at an `https://localhost` URL, and the file of the certificate it
/// presents (a self-signed one: trusting it is trusting the server).
struct Https {
    url: String,
    certificate: PathBuf,
    _dir: TempDir,
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn https_notes() -> Https {
    let plain = common::upstream().await;
    let plain: std::net::SocketAddr = plain
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap();
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let dir = std::env::temp_dir().join(format!("mcp-tailor-tls-{}", plain.port()));
    std::fs::create_dir_all(&dir).unwrap();
    let certificate = dir.join("localhost.pem");
    std::fs::write(&certificate, made.cert.pem()).unwrap();

    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(made.signing_key.serialize_der());
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![made.cert.der().clone()], key.into())
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let Ok(mut upstream) = TcpStream::connect(plain).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut upstream).await;
            });
        }
    });
    Https {
        url: format!("https://localhost:{port}/mcp"),
        certificate,
        _dir: TempDir(dir),
    }
}

/// `inspect --upstream URL list`, trusting the certificates in `roots` (none: the
/// system's); its exit, stdout and stderr.
async fn inspect(url: &str, roots: Option<&Path>) -> (bool, String, String) {
    let mut command = Command::new(BIN);
    command.args(["inspect", "--upstream", url, "list"]);
    command
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR");
    if let Some(roots) = roots {
        command.env("SSL_CERT_FILE", roots);
    }
    let out = command.output().await.unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[tokio::test]
async fn an_https_upstream_is_read_when_its_certificate_is_trusted() {
    let https = https_notes().await;
    let (ok, out, err) = inspect(&https.url, Some(&https.certificate)).await;
    assert!(ok, "{err}");
    assert!(out.contains("search_notes"), "{out}");
}

#[tokio::test]
async fn an_https_upstream_with_an_unknown_certificate_is_refused() {
    let https = https_notes().await;
    let (ok, _, err) = inspect(&https.url, None).await;
    assert!(!ok);
    assert!(err.contains("certificate"), "{err}");
}

#[tokio::test]
async fn without_any_root_certificate_http_upstreams_still_serve() {
    let https = https_notes().await;
    let none = https.certificate.with_file_name("none.pem");
    std::fs::write(&none, "").unwrap();
    let plain = common::upstream().await;
    let (ok, out, err) = inspect(&plain, Some(&none)).await;
    assert!(ok, "{err}");
    assert!(out.contains("search_notes"), "{out}");
    let (ok, _, err) = inspect(&https.url, Some(&none)).await;
    assert!(!ok, "an https upstream is never read unverified");
    assert!(err.contains("certificate"), "{err}");
}

#[tokio::test]
async fn proxy_serves_an_https_upstream() {
    let https = https_notes().await;
    let roots = https.certificate.to_str().unwrap();
    let (_child, addr) = proxy(&["--upstream", &https.url], &[("SSL_CERT_FILE", roots)]).await;
    let session = RawSession::open(&format!("http://{addr}/mcp")).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "search_notes", "arguments": {"query": "tls"}}});
    let answer = session.ask(call).await;
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    assert!(answer["result"].to_string().contains("tls"), "{answer}");
}
