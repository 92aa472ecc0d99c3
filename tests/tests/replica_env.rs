//! Replicas are configured without code: with none set in code, the builder reads the tag
//! from `MCP_TAILOR_REPLICA_TAG` and the reverse proxies from `MCP_TAILOR_TRUSTED_PROXIES`;
//! a value in code wins; a bad value fails `build`. One test in a binary of its own,
//! because it sets the process environment.

use mcp_tailor::server::HttpConfig;
use mcp_tailor::server::wire::{ENV_REPLICA_TAG, ENV_TRUSTED_PROXIES};
use mcp_tailor::server::{BuildError, Server};

#[allow(unsafe_code)] // the only test in this process: nothing reads the environment meanwhile
fn set(name: &str, value: &str) {
    // SAFETY: no other thread of this test binary runs while the variable changes.
    unsafe { std::env::set_var(name, value) }
}

fn built(config: HttpConfig) -> Result<HttpConfig, BuildError> {
    let server: Server = Server::builder().http_config(config).build()?;
    Ok(server.http_config().clone())
}

#[test]
fn the_builder_reads_the_replica_settings_from_the_environment_unless_code_sets_them() {
    set(ENV_REPLICA_TAG, "east-1");
    set(ENV_TRUSTED_PROXIES, "10.0.0.1, ::1");
    let from_env = built(HttpConfig::default()).unwrap();
    assert_eq!(from_env.replica_tag.as_deref(), Some("east-1"));
    let proxies: [std::net::IpAddr; 2] = ["10.0.0.1".parse().unwrap(), "::1".parse().unwrap()];
    assert_eq!(from_env.trusted_proxies, proxies);

    let mut in_code = HttpConfig::default();
    in_code.replica_tag = Some("west-2".to_owned());
    in_code.trusted_proxies = vec!["192.0.2.1".parse().unwrap()];
    assert_eq!(built(in_code.clone()), Ok(in_code), "code wins");

    set(ENV_REPLICA_TAG, "east 1");
    assert_eq!(
        built(HttpConfig::default()),
        Err(BuildError::ReplicaTag("east 1".to_owned()))
    );
    set(ENV_REPLICA_TAG, "east-1");
    set(ENV_TRUSTED_PROXIES, "10.0.0.1,nginx");
    assert_eq!(
        built(HttpConfig::default()),
        Err(BuildError::TrustedProxy("nginx".to_owned()))
    );
}
