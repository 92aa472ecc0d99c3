//! Replicas get their tags without code: with no tag set in code, the builder reads
//! `MCP_TAILOR_REPLICA_TAG`; a tag in code wins; a bad value fails `build`. One test in a
//! binary of its own, because it sets the process environment.

use mcp_tailor::server::limits::HttpConfig;
use mcp_tailor::server::wire::ENV_REPLICA_TAG;
use mcp_tailor::server::{BuildError, Server};

#[allow(unsafe_code)] // the only test in this process: nothing reads the environment meanwhile
fn set_tag(value: &str) {
    // SAFETY: no other thread of this test binary runs while the variable changes.
    unsafe { std::env::set_var(ENV_REPLICA_TAG, value) }
}

fn tag_of(config: HttpConfig) -> Result<Option<String>, BuildError> {
    let server: Server = Server::builder().http_config(config).build()?;
    Ok(server.http_config().replica_tag.clone())
}

#[test]
fn the_builder_reads_the_replica_tag_from_the_environment_unless_code_sets_one() {
    set_tag("east-1");
    assert_eq!(tag_of(HttpConfig::default()), Ok(Some("east-1".to_owned())));
    let mut in_code = HttpConfig::default();
    in_code.replica_tag = Some("west-2".to_owned());
    assert_eq!(tag_of(in_code), Ok(Some("west-2".to_owned())), "code wins");
    set_tag("east 1");
    assert_eq!(
        tag_of(HttpConfig::default()),
        Err(BuildError::ReplicaTag("east 1".to_owned()))
    );
}
