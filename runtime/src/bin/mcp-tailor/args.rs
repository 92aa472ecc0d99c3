//! The command line, read by hand (a handful of flags do not need a parser crate).

use mcp_tailor::gateway::Upstream;
use std::net::SocketAddr;
use std::time::Duration;

/// What to do.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    Help,
    Check { file: String },
    Proxy(ProxyOptions),
}

/// `proxy`'s options.
#[derive(Debug, PartialEq)]
pub(crate) struct ProxyOptions {
    pub(crate) tailoring: Option<String>,
    pub(crate) http: Option<SocketAddr>,
    pub(crate) deadline: Duration,
    pub(crate) upstream: Upstream,
}

pub(crate) fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut args = args.into_iter();
    match args.next().as_deref() {
        None | Some("-h" | "--help" | "help") => Ok(Command::Help),
        Some("check") => match (args.next(), args.next()) {
            (Some(file), None) => Ok(Command::Check { file }),
            _ => Err("`check` takes one FILE".into()),
        },
        Some("proxy") => proxy(args).map(Command::Proxy),
        Some(other) => Err(format!("unknown command `{other}`")),
    }
}

fn proxy(mut args: impl Iterator<Item = String>) -> Result<ProxyOptions, String> {
    let (mut tailoring, mut http, mut deadline, mut upstream) =
        (None, None, Duration::from_secs(10), None);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("`{flag}` takes a value"));
        match arg.as_str() {
            "--tailoring" => tailoring = Some(value("--tailoring")?),
            "--http" => {
                let addr = value("--http")?;
                http = Some(addr.parse().map_err(|_| {
                    format!("`--http {addr}`: expected an address such as 127.0.0.1:8080")
                })?);
            }
            "--deadline" => {
                let secs = value("--deadline")?;
                let secs: f64 = secs
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0)
                    .ok_or_else(|| format!("`--deadline {secs}`: expected seconds"))?;
                deadline = Duration::from_secs_f64(secs);
            }
            "--upstream" => upstream = Some(Upstream::Http(value("--upstream")?)),
            "--" => {
                let program = args.next().ok_or("`--` takes the upstream's COMMAND")?;
                upstream = Some(Upstream::Command {
                    program,
                    args: args.by_ref().collect(),
                });
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let upstream =
        upstream.ok_or("`proxy` needs an upstream: `-- COMMAND ARGS…` or `--upstream URL`")?;
    Ok(ProxyOptions {
        tailoring,
        http,
        deadline,
        upstream,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_args(line: &str) -> Result<Command, String> {
        parse(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn commands() {
        assert_eq!(
            parse_args("check t.toml"),
            Ok(Command::Check {
                file: "t.toml".into()
            })
        );
        assert!(parse_args("check").is_err());
        assert_eq!(parse_args(""), Ok(Command::Help));
        let Ok(Command::Proxy(p)) =
            parse_args("proxy --tailoring t.toml --http 127.0.0.1:9 -- python3 server.py --flag")
        else {
            panic!()
        };
        assert_eq!(p.tailoring.as_deref(), Some("t.toml"));
        assert_eq!(p.http, Some("127.0.0.1:9".parse().unwrap()));
        assert_eq!(
            p.upstream,
            Upstream::Command {
                program: "python3".into(),
                args: vec!["server.py".into(), "--flag".into()]
            }
        );
        assert!(parse_args("proxy --tailoring t.toml").is_err());
        assert!(parse_args("proxy --upstream").is_err());
        assert!(parse_args("proxy --http nowhere --upstream http://x/mcp").is_err());
    }
}
