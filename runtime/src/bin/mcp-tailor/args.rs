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
    /// The reader of a request that names none (`--runner`, `--model`, `--verbosity`).
    pub(crate) runner: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) verbosity: Option<u8>,
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
    let (mut runner, mut model, mut verbosity, mut headers) = (None, None, None, Vec::new());
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
            "--upstream" => upstream = Some(http_upstream(value("--upstream")?)?),
            "--upstream-header" => headers.push(header(&value("--upstream-header")?)?),
            "--runner" => runner = Some(value("--runner")?),
            "--model" => model = Some(value("--model")?),
            "--verbosity" => {
                let level = value("--verbosity")?;
                verbosity = Some(
                    level
                        .parse::<u8>()
                        .ok()
                        .filter(|l| *l <= 9)
                        .ok_or_else(|| format!("`--verbosity {level}`: expected a level 0..=9"))?,
                );
            }
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
    let mut upstream =
        upstream.ok_or("`proxy` needs an upstream: `-- COMMAND ARGS…` or `--upstream URL`")?;
    match &mut upstream {
        Upstream::Http { headers: given, .. } => *given = headers,
        Upstream::Command { .. } if !headers.is_empty() => {
            return Err(
                "`--upstream-header` is for an `--upstream URL`; a command inherits \
                        this process's environment"
                    .into(),
            );
        }
        Upstream::Command { .. } => {}
    }
    Ok(ProxyOptions {
        tailoring,
        http,
        deadline,
        upstream,
        runner,
        model,
        verbosity,
    })
}

/// `--upstream URL`: an `http` or `https` URL.
fn http_upstream(url: String) -> Result<Upstream, String> {
    match reqwest::Url::parse(&url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(Upstream::http(url)),
        Ok(parsed) => Err(format!(
            "`--upstream {url}`: an MCP endpoint is http or https, not {}",
            parsed.scheme()
        )),
        Err(error) => Err(format!(
            "`--upstream {url}`: not a URL ({error}); write one such as http://127.0.0.1:8080/mcp"
        )),
    }
}

/// `--upstream-header 'NAME: VALUE'`; `${VAR}` in VALUE is the environment variable's value,
/// so a secret stays out of the process list.
fn header(spec: &str) -> Result<(String, String), String> {
    let bad = || format!("`--upstream-header {spec}`: expected 'NAME: VALUE'");
    let (name, value) = spec.split_once(':').ok_or_else(bad)?;
    let (name, mut rest) = (name.trim(), value.trim());
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(bad());
    }
    let mut value = String::new();
    while let Some(start) = rest.find("${") {
        let end = rest[start..]
            .find('}')
            .ok_or_else(|| format!("`--upstream-header {name}`: `${{` without `}}`"))?;
        let var = &rest[start + 2..start + end];
        let found = std::env::var(var)
            .map_err(|_| format!("`--upstream-header {name}`: the environment has no `{var}`"))?;
        value.push_str(&rest[..start]);
        value.push_str(&found);
        rest = &rest[start + end + 1..];
    }
    value.push_str(rest);
    Ok((name.to_owned(), value))
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
        "--upstream" => Source::Upstream(http_upstream(value("--upstream")?)?),
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
        assert!(
            parse_args("proxy --upstream nowhere")
                .unwrap_err()
                .contains("not a URL")
        );
        assert!(parse_args("proxy --upstream ftp://x/mcp").is_err());
        assert!(parse_args("proxy --upstream-header X:1 -- python3 s.py").is_err());
        let Ok(Command::Proxy(p)) = parse_args(
            "proxy --runner codex --verbosity 0 --upstream-header X-Key:${HOME} --upstream http://x/mcp",
        ) else {
            panic!()
        };
        let home = std::env::var("HOME").unwrap_or_default();
        assert_eq!(
            p.upstream,
            Upstream::Http {
                url: "http://x/mcp".into(),
                headers: vec![("X-Key".into(), home)]
            }
        );
        assert_eq!((p.runner.as_deref(), p.verbosity), (Some("codex"), Some(0)));
        assert!(
            parse_args(
                "proxy --upstream-header X:${NO_SUCH_VARIABLE_HERE} --upstream http://x/mcp"
            )
            .is_err()
        );
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
