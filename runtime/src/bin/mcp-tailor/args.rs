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
    Inspect(InspectOptions),
    Init(InitOptions),
}

/// `init`'s options: where the catalog comes from, where the draft goes, a tasks file.
#[derive(Debug, PartialEq)]
pub(crate) struct InitOptions {
    pub(crate) source: Source,
    pub(crate) out: Option<String>,
    pub(crate) tasks: Option<String>,
}

/// Where `inspect` reads the catalog from.
#[derive(Debug, PartialEq)]
pub(crate) enum Source {
    Upstream(Upstream),
    Catalog(String),
}

/// `inspect`'s options: the file, the catalog, and the inspect subcommand with its own
/// arguments (`list --runner codex`, `lint`, …).
#[derive(Debug, PartialEq)]
pub(crate) struct InspectOptions {
    pub(crate) tailoring: Option<String>,
    pub(crate) source: Source,
    pub(crate) command: Vec<String>,
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
        Some("inspect") => inspect(args).map(Command::Inspect),
        Some("init") => init(args).map(Command::Init),
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

/// `inspect [--tailoring FILE] [--catalog FILE | --upstream URL] SUBCOMMAND ARGS… [-- COMMAND ARGS…]`:
/// everything after `--` is the upstream's command line, so the subcommand comes before it.
fn inspect(mut args: impl Iterator<Item = String>) -> Result<InspectOptions, String> {
    let (mut tailoring, mut source, mut command) = (None, None, Vec::new());
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("`{flag}` takes a value"));
        if arg == "--tailoring" && command.is_empty() {
            tailoring = Some(value("--tailoring")?);
        } else if let Some(found) = source_flag(&arg, &mut args)? {
            source = Some(found);
        } else {
            command.push(arg);
        }
    }
    let source = source.ok_or(
        "`inspect` needs a catalog: `--catalog FILE`, `--upstream URL` or `-- COMMAND ARGS…`",
    )?;
    if command.is_empty() {
        return Err(
            "`inspect` needs a subcommand: list, matrix, tokens, diff, lint or eval".into(),
        );
    }
    Ok(InspectOptions {
        tailoring,
        source,
        command,
    })
}

/// Where a catalog comes from, when `arg` says: `--catalog FILE`, `--upstream URL`, or
/// `-- COMMAND ARGS…` (which takes every argument left).
fn source_flag(
    arg: &str,
    args: &mut impl Iterator<Item = String>,
) -> Result<Option<Source>, String> {
    let mut value = |flag: &str| args.next().ok_or_else(|| format!("`{flag}` takes a value"));
    Ok(Some(match arg {
        "--catalog" => Source::Catalog(value("--catalog")?),
        "--upstream" => Source::Upstream(Upstream::Http(value("--upstream")?)),
        "--" => {
            let program = args.next().ok_or("`--` takes the upstream's COMMAND")?;
            Source::Upstream(Upstream::Command {
                program,
                args: args.collect(),
            })
        }
        _ => return Ok(None),
    }))
}

/// `init (-- COMMAND ARGS… | --upstream URL | --catalog FILE) [--out FILE] [--tasks FILE]`.
fn init(mut args: impl Iterator<Item = String>) -> Result<InitOptions, String> {
    let (mut source, mut out, mut tasks) = (None, None, None);
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| args.next().ok_or_else(|| format!("`{flag}` takes a value"));
        match arg.as_str() {
            "--out" => out = Some(value("--out")?),
            "--tasks" => tasks = Some(value("--tasks")?),
            other => match source_flag(other, &mut args)? {
                Some(found) => source = Some(found),
                None => return Err(format!("unknown option `{other}`")),
            },
        }
    }
    let source = source.ok_or(
        "`init` needs a catalog: `-- COMMAND ARGS…`, `--upstream URL` or `--catalog FILE`",
    )?;
    Ok(InitOptions { source, out, tasks })
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
        let Ok(Command::Inspect(i)) =
            parse_args("inspect --tailoring t.toml list --runner codex -- python3 s.py")
        else {
            panic!()
        };
        assert_eq!(i.command, ["list", "--runner", "codex"]);
        assert_eq!(
            i.source,
            Source::Upstream(Upstream::Command {
                program: "python3".into(),
                args: vec!["s.py".into()]
            })
        );
        let Ok(Command::Inspect(i)) = parse_args("inspect --catalog c.json lint") else {
            panic!()
        };
        assert_eq!(
            (i.source, i.command),
            (Source::Catalog("c.json".into()), vec!["lint".to_owned()])
        );
        assert!(parse_args("inspect lint").is_err());
        let Ok(Command::Init(i)) = parse_args("init --out t.toml --tasks k.toml -- npx s /tmp")
        else {
            panic!()
        };
        assert_eq!(
            (i.out.as_deref(), i.tasks.as_deref()),
            (Some("t.toml"), Some("k.toml"))
        );
        assert!(matches!(
            i.source,
            Source::Upstream(Upstream::Command { .. })
        ));
        assert!(parse_args("init --out t.toml").is_err());
        assert!(parse_args("inspect --catalog c.json").is_err());
    }
}
