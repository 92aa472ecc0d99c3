//! Secrets stay where they belong, tried as an attacker would: a fleet's command upstream
//! started with the client-auth secret or another server's `${VAR}` value in its
//! environment could hand it to any client (a server with a `get-env` tool did), so each
//! child's `/proc/PID/environ` is read; and a log line at any level that prints a
//! credential leaks it to whoever reads the logs.

mod common;

use common::{log_holding, proxy, sh_server};
use mcp_tailor_test_support::{children, eventually};
use std::time::Duration;

/// The environment of each child of `pid` that names itself in `SECRETS_TEST_WHO`, by
/// that name: `/proc/PID/environ`, as the system holds it.
fn environments(pid: u32) -> std::collections::BTreeMap<String, String> {
    children(pid)
        .into_iter()
        .filter_map(|child| {
            let environ = std::fs::read(format!("/proc/{child}/environ")).ok()?;
            let environ = String::from_utf8_lossy(&environ).replace('\0', "\n");
            let who = environ
                .lines()
                .find_map(|line| line.strip_prefix("SECRETS_TEST_WHO="))?
                .to_owned();
            Some((who, environ))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn no_upstream_holds_the_gateway_s_secret_or_another_server_s_values() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-secrets-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let file = serde_json::json!({"mcpServers": {
        "a": {"command": "sh", "args": ["-c", sh_server("a", &[])],
              "env": {"A_TOKEN": "${SECRETS_TEST_A}", "SECRETS_TEST_WHO": "a"}},
        "b": {"command": "sh", "args": ["-c", sh_server("b", &[]), "${SECRETS_TEST_B}"],
              "env": {"SECRETS_TEST_WHO": "b"}},
    }});
    let servers = folder.join("mcp.json");
    std::fs::write(&servers, file.to_string()).unwrap();
    let (proxy, _) = proxy(
        &[
            "--servers",
            servers.to_str().unwrap(),
            "--bearer-token-env",
            "SECRETS_TEST_ACCESS",
        ],
        &[
            ("SECRETS_TEST_ACCESS", "access-secret-0123456789"),
            ("SECRETS_TEST_A", "a-secret-0123456789"),
            ("SECRETS_TEST_B", "b-secret-0123456789"),
        ],
    )
    .await;
    let pid = proxy.id().unwrap();
    let found = eventually(Duration::from_secs(20), || async {
        let found = environments(pid);
        (found.len() == 2).then_some(found)
    })
    .await;
    let found = found.expect("both servers started");
    let (a, b) = (&found["a"], &found["b"]);
    // Each has what its own entry gives it, and the user's environment.
    assert!(a.contains("A_TOKEN=a-secret-0123456789"), "{a}");
    assert!(a.contains("PATH="), "{a}");
    // Never the access token; never the other's value.
    for (what, env) in [("a", a), ("b", b)] {
        assert!(!env.contains("access-secret"), "{what}: {env}");
    }
    assert!(!a.contains("b-secret"), "{a}");
    assert!(!b.contains("a-secret"), "{b}");
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn no_secret_reaches_the_log_at_any_level() {
    let folder = std::env::temp_dir().join(format!("mcp-tailor-logs-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    // A command that fails with a token among its arguments, an endpoint that refuses with
    // a key in its query, and a header with a credential: each retried, each logged.
    let file = serde_json::json!({"mcpServers": {
        "failing": {"command": "sh", "args": ["-c", "exit 3", "--token=${LOGS_TEST_TOKEN}",
            "--password", "literal-password-value"]},
        "remote": {"url": "http://127.0.0.1:9/mcp?api_key=${LOGS_TEST_KEY}&plain=literal-query-value",
            "headers": {"Authorization": "Bearer ${LOGS_TEST_BEARER}"}},
        "ok": {"command": "sh", "args": ["-c", sh_server("ok", &[])]},
    }});
    let servers = folder.join("mcp.json");
    std::fs::write(&servers, file.to_string()).unwrap();
    let secrets = [
        "token-value-0123456789",
        "key-value-0123456789",
        "bearer-value-0123456789",
        "literal-password-value",
        "literal-query-value",
    ];
    let log = folder.join("stderr.log");
    let mut child = tokio::process::Command::new(common::BIN)
        .args([
            "proxy",
            "--servers",
            servers.to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ])
        .env("RUST_LOG", "trace")
        .env("LOGS_TEST_TOKEN", secrets[0])
        .env("LOGS_TEST_KEY", secrets[1])
        .env("LOGS_TEST_BEARER", secrets[2])
        .stderr(std::fs::File::create(&log).unwrap())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    // Both failures told (each names its server), the endpoint served.
    let failures = [
        "`sh -c exit 3",
        "127.0.0.1:9/mcp?api_key=…",
        "mcp-tailor proxy on",
    ];
    let told = log_holding(&log, &failures, Duration::from_secs(30)).await;
    child.kill().await.unwrap();
    let text = told.unwrap_or_else(|| std::fs::read_to_string(&log).unwrap());
    assert!(text.contains("--token=…"), "{text}");
    for secret in secrets {
        assert!(!text.contains(secret), "{secret} in the log:\n{text}");
    }
    std::fs::remove_dir_all(&folder).unwrap();
}
