use super::*;

/// A command upstream that reads what it is sent and answers nothing (@modelcontextprotocol
/// /server-redis with no Redis to reach retries for a minute before it answers), each start
/// written to `starts`.
fn silent(starts: &std::path::Path) -> Upstream {
    Upstream::command(
        "sh",
        vec![
            "-c".into(),
            format!("echo started >> '{}'; cat > /dev/null", starts.display()),
        ],
    )
}

#[tokio::test]
async fn an_upstream_that_answers_nothing_is_not_asked_again() {
    let starts = std::env::temp_dir().join(format!("mcp-tailor-silent-{}", std::process::id()));
    let _ = std::fs::remove_file(&starts);
    let upstream = silent(&starts);
    let client = gateway_client(Default::default());
    let opened = Connection::open_initialize_first(&upstream, &Learned::default(), client).await;
    let Err(error @ UpstreamError::Silent { .. }) = opened else {
        panic!("{:?}", opened.err());
    };
    assert_eq!(
        error.to_string(),
        format!("`{upstream}` did not complete the MCP handshake: no answer within 2s")
    );
    // `server/discover` is for an upstream that refused `initialize`, not one that is
    // silent: asking a second process would double the wait.
    let started = std::fs::read_to_string(&starts).unwrap();
    assert_eq!(started.lines().count(), 1, "{started}");
    std::fs::remove_file(&starts).unwrap();
}
