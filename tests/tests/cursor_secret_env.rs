//! Replicas share a cursor secret without code: with no secret set in code, the builder
//! reads `MCP_TAILOR_CURSOR_SECRET` (hex), so a cursor one server issued pages on another;
//! a secret in code wins; a bad value fails `build`. One test in a binary of its own,
//! because it sets the process environment.

use mcp_tailor::mcp_tool;
use mcp_tailor::server::wire::ENV_CURSOR_SECRET;
use mcp_tailor::server::{BuildError, CallContext, RequestInfo, Server};

/// Alpha.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Alpha {}

/// Bravo.
#[mcp_tool]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Bravo {}

fn replica() -> Result<Server, BuildError> {
    Server::builder()
        .page_size(1)
        .tool(|_: Alpha, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .tool(|_: Bravo, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .build()
}

#[allow(unsafe_code)] // the only test in this process: nothing reads the environment meanwhile
fn set_secret(value: Option<&str>) {
    match value {
        // SAFETY: no other thread of this test binary runs while the variable changes.
        Some(value) => unsafe { std::env::set_var(ENV_CURSOR_SECRET, value) },
        None => unsafe { std::env::remove_var(ENV_CURSOR_SECRET) },
    }
}

async fn second_page(server: &Server, cursor: &str) -> Result<String, String> {
    match server
        .list_tools_for(RequestInfo::default(), Some(cursor))
        .await
    {
        Ok(page) => Ok(page.tools[0].name.to_string()),
        Err(e) => Err(e.data.map(|d| d["reason"].to_string()).unwrap_or_default()),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn replicas_share_the_cursor_secret_from_the_environment() {
    set_secret(Some(&"ab".repeat(32)));
    let (a, b) = (replica().unwrap(), replica().unwrap());
    let first = a
        .list_tools_for(RequestInfo::default(), None)
        .await
        .unwrap();
    let cursor = first.next_cursor.expect("two tools, pages of one");
    assert_eq!(
        second_page(&b, &cursor).await,
        Ok("bravo".to_owned()),
        "another replica pages on"
    );

    // Another deployment's secret, and a secret in code, refuse the cursor.
    set_secret(Some(&"cd".repeat(32)));
    assert_eq!(
        second_page(&replica().unwrap(), &cursor).await,
        Err("\"invalid_cursor\"".to_owned())
    );
    set_secret(Some(&"ab".repeat(32)));
    let coded = Server::builder()
        .page_size(1)
        .cursor_secret(vec![1u8; 32])
        .tool(|_: Alpha, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .tool(|_: Bravo, _: CallContext| async { Ok::<_, String>(serde_json::json!({})) })
        .build()
        .unwrap();
    assert_eq!(
        second_page(&coded, &cursor).await,
        Err("\"invalid_cursor\"".to_owned())
    );

    // Bad values fail the build, saying why.
    set_secret(Some("not hex"));
    assert_eq!(replica().unwrap_err(), BuildError::EnvCursorSecretNotHex);
    set_secret(Some("abc"));
    assert_eq!(replica().unwrap_err(), BuildError::EnvCursorSecretNotHex);
    set_secret(Some(&"ab".repeat(31)));
    assert!(
        matches!(replica().unwrap_err(), BuildError::CursorSecret(short) if short.0 == 31),
        "a 31-byte secret is short"
    );

    // Unset: a random secret per process.
    set_secret(None);
    assert_eq!(
        second_page(&replica().unwrap(), &cursor).await,
        Err("\"invalid_cursor\"".to_owned())
    );
}
