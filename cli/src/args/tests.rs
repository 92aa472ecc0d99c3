//! The command line as people write it: each command, its errors, help and version.

use super::*;
use mcp_tailor::gateway::UpstreamSessions;
use std::time::Duration;

fn parse_args(line: &str) -> Result<Command, clap::Error> {
    parse(
        std::iter::once("mcp-tailor")
            .chain(line.split_whitespace())
            .map(str::to_owned),
    )
}

fn error(line: &str) -> String {
    parse_args(line).unwrap_err().to_string()
}

#[test]
fn the_definition_is_consistent() {
    command().debug_assert();
}

#[test]
fn commands() {
    assert_eq!(
        parse_args("check t.toml").unwrap(),
        Command::Check {
            file: "t.toml".into(),
            source: None,
        }
    );
    assert_eq!(
        parse_args("check t.toml --catalog c.json").unwrap(),
        Command::Check {
            file: "t.toml".into(),
            source: Some(Source::Catalog("c.json".into())),
        }
    );
    assert!(parse_args("check t.toml --catalog c.json --upstream http://x/mcp").is_err());
    assert!(parse_args("check").is_err());
    let Ok(Command::Proxy(p)) =
        parse_args("proxy --tailoring t.toml --http 127.0.0.1:9 -- python3 server.py --flag")
    else {
        panic!()
    };
    assert_eq!(p.tailoring.as_deref(), Some("t.toml"));
    assert_eq!(p.http, Some("127.0.0.1:9".parse().unwrap()));
    assert_eq!(p.deadline, Duration::from_secs(10));
    assert_eq!(
        (p.sessions, p.warm_spare),
        (UpstreamSessions::PerClient, false)
    );
    let Ok(Command::Proxy(shared)) =
        parse_args("proxy --upstream-sessions shared --warm-spare -- s")
    else {
        panic!()
    };
    assert_eq!(
        (shared.sessions, shared.warm_spare),
        (UpstreamSessions::Shared, true)
    );
    assert!(error("proxy --upstream-sessions some -- s").contains("per-client"));
    assert_eq!(p.page_size, None, "as the upstream pages");
    let Ok(Command::Proxy(paged)) = parse_args("proxy --page-size 20 -- s") else {
        panic!()
    };
    assert_eq!(paged.page_size, Some(20));
    assert!(error("proxy --page-size 0 -- s").contains("--page-size"));
    assert!(parse_args("proxy --forward-authorization -- s").is_err());
    assert_eq!(
        p.upstream,
        Upstreams::One(Upstream::command(
            "python3",
            vec!["server.py".into(), "--flag".into()]
        ))
    );
    let Ok(Command::Proxy(fleet)) = parse_args("proxy --servers mcp.json") else {
        panic!()
    };
    assert_eq!(fleet.upstream, Upstreams::Servers("mcp.json".into()));
    assert!(parse_args("proxy --servers mcp.json -- s").is_err());
    let no_upstream = error("proxy --tailoring t.toml");
    assert!(no_upstream.contains("give one upstream"), "{no_upstream}");
    assert!(
        !no_upstream.contains("--catalog"),
        "proxy takes none: {no_upstream}"
    );
    let Ok(Command::Proxy(p)) = parse_args("proxy --http localhost:8080 -- s") else {
        panic!("a host name is an address to listen on");
    };
    assert_eq!(p.http, Some("127.0.0.1:8080".parse().unwrap()));
    assert!(error("proxy --http localhost -- s").contains("HOST:PORT"));
    assert!(parse_args("proxy --upstream").is_err());
    assert!(error("proxy --http nowhere --upstream http://x/mcp").contains("nowhere"));
    assert!(error("proxy --upstream nowhere").contains("not a valid URL"));
    assert!(error("proxy --upstream ftp://x/mcp").contains("http or https"));
    assert!(parse_args("proxy --upstream-header X:1 -- python3 s.py").is_err());
    assert!(error("proxy --verbosity 10 -- s").contains("10"));
    assert!(error("proxy --deadline 0 -- s").contains("seconds"));
    let Ok(Command::Proxy(p)) = parse_args(
        "proxy --runner codex --verbosity 0 --upstream-header X-Key:${HOME} --upstream http://x/mcp",
    ) else {
        panic!()
    };
    let home = std::env::var("HOME").unwrap_or_default();
    assert_eq!(
        p.upstream,
        Upstreams::One(Upstream::Http {
            url: "http://x/mcp".into(),
            headers: vec![("X-Key".into(), home)]
        })
    );
    assert_eq!((p.runner.as_deref(), p.verbosity), (Some("codex"), Some(0)));
    assert!(
        error("proxy --upstream-header X:${NO_SUCH_VARIABLE_HERE} --upstream http://x/mcp")
            .contains("NO_SUCH_VARIABLE_HERE")
    );
}

#[test]
fn inspect_and_init() {
    let Ok(Command::Inspect(i)) =
        parse_args("inspect --tailoring t.toml list --runner codex -- python3 s.py")
    else {
        panic!()
    };
    assert_eq!(i.report, ["list", "--runner", "codex"]);
    let Ok(Command::Inspect(nested)) =
        parse_args("inspect list -- mcp-tailor proxy --upstream http://x/mcp")
    else {
        panic!()
    };
    let Sources::One(Source::Upstream(Upstream::Command { program, args, .. })) = nested.source
    else {
        panic!()
    };
    assert_eq!((program.as_str(), args.len()), ("mcp-tailor", 3));
    assert_eq!(i.tailoring.as_deref(), Some("t.toml"));
    assert_eq!(
        i.source,
        Sources::One(Source::Upstream(Upstream::command(
            "python3",
            vec!["s.py".into()]
        )))
    );
    let Ok(Command::Inspect(i)) = parse_args("inspect --catalog c.json lint") else {
        panic!()
    };
    assert_eq!(
        (i.source, i.report),
        (
            Sources::One(Source::Catalog("c.json".into())),
            vec!["lint".to_owned()]
        )
    );
    let Ok(Command::Inspect(i)) = parse_args("inspect --servers mcp.json tokens") else {
        panic!()
    };
    assert_eq!(i.source, Sources::Servers("mcp.json".into()));
    assert!(parse_args("inspect --servers mcp.json --catalog c.json tokens").is_err());
    assert!(parse_args("inspect lint").is_err());
    assert!(error("inspect list --catalog c.json").contains("before the report"));
    assert!(parse_args("inspect --catalog c.json").is_err());
    assert!(parse_args("inspect --catalog c.json --upstream http://x/mcp lint").is_err());
    let Ok(Command::Init(i)) = parse_args("init --out t.toml --tasks k.toml -- npx s /tmp") else {
        panic!()
    };
    assert_eq!(
        (i.out.as_deref(), i.tasks.as_deref()),
        (Some("t.toml"), Some("k.toml"))
    );
    assert!(matches!(
        i.source,
        Sources::One(Source::Upstream(Upstream::Command { .. }))
    ));
    assert!(parse_args("init --out t.toml").is_err());
    let Ok(Command::Init(i)) = parse_args("init --servers mcp.json --out drafts") else {
        panic!()
    };
    assert_eq!(i.source, Sources::Servers("mcp.json".into()));
    assert!(
        parse_args("init --servers mcp.json").is_err(),
        "--out names the folder"
    );
    assert!(parse_args("init --servers mcp.json --out d -- s").is_err());
}

#[test]
fn help_and_version() {
    for line in [
        "--help",
        "proxy --help",
        "check --help",
        "inspect --help",
        "init -h",
    ] {
        let error = parse_args(line).unwrap_err();
        assert_eq!(error.kind(), clap::error::ErrorKind::DisplayHelp, "{line}");
    }
    let error = parse_args("--version").unwrap_err();
    assert_eq!(error.kind(), clap::error::ErrorKind::DisplayVersion);
    assert!(error.to_string().contains(env!("CARGO_PKG_VERSION")));
}
