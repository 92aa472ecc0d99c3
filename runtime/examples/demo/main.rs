//! The mcp-tailor demo: a notes server whose tool descriptions fit each reader.
//!
//! ```text
//! cargo run -p mcp-tailor --example demo -- list --runner codex --model 5.4 --verbosity 2
//! cargo run -p mcp-tailor --example demo -- matrix
//! cargo run -p mcp-tailor --example demo -- serve                      # stdio
//! cargo run -p mcp-tailor --example demo -- serve --http 127.0.0.1:8080 # streamable HTTP at /mcp
//! ```

mod serve;
mod store;
mod tools;

use mcp_tailor::server::Reader;
use mcp_tailor::{RenderCtx, ToolDef};
use serde_json::{Value, json};
use std::process::ExitCode;

const USAGE: &str = "\
usage: demo list [--runner NAME] [--model NAME] [--verbosity N] [--fallback-verbosity N]
       demo matrix
       demo serve [--http IP:PORT] [--verbosity N] [--scopes a,b]

list    prints the tools/list result ({\"tools\": [...]}) for that reader
matrix  prints, per tool, what each (runner, level) cell resolves to, and the bytes of
        the whole catalog at each level
serve   serves the notes server over MCP on stdio, or on streamable HTTP at /mcp;
        --verbosity sets the server's default level, --scopes the stdio caller's scopes
        (on HTTP the X-Demo-Scopes header stands in for authentication)";

/// The options of `list`: the reader, and the fallback level.
#[derive(Default)]
struct ListArgs {
    reader: Reader,
    fallback: Option<u8>,
}

fn parse_level(flag: &str, value: Option<String>) -> Result<u8, String> {
    let value = value.ok_or_else(|| format!("`{flag}` needs a level 0..=9"))?;
    value
        .parse()
        .map_err(|_| format!("`{flag} {value}`: expected a level 0..=9"))
}

fn parse_list(args: impl IntoIterator<Item = String>) -> Result<ListArgs, String> {
    let mut out = ListArgs::default();
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--runner" => out.reader.runner = Some(args.next().ok_or("`--runner` needs a name")?),
            "--model" => out.reader.model = Some(args.next().ok_or("`--model` needs a name")?),
            "--verbosity" => out.reader.verbosity = Some(parse_level(&flag, args.next())?),
            "--fallback-verbosity" => out.fallback = Some(parse_level(&flag, args.next())?),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(out)
}

/// The `tools/list` result for one reader.
fn list(ctx: &RenderCtx<'_>) -> Value {
    let tools: Vec<Value> = tools::catalog().iter().map(|t| t.render(ctx)).collect();
    json!({ "tools": tools })
}

/// The readers the matrix shows, as (label, runner, model).
const READERS: [(&str, Option<&str>, Option<&str>); 4] = [
    ("(anyone)", None, None),
    ("codex", Some("codex"), None),
    ("codex/5.4", Some("codex"), Some("5.4")),
    ("grok", Some("grok"), None),
];

fn reader_ctx(runner: Option<&'static str>, model: Option<&'static str>) -> RenderCtx<'static> {
    let mut ctx = RenderCtx::new();
    if let Some(r) = runner {
        ctx = ctx.runner(r);
    }
    if let Some(m) = model {
        ctx = ctx.model(m);
    }
    ctx
}

/// Prints one string of a tool: per reader, runs of levels that resolve to the same text.
/// Readers that read the same in every cell share one block.
fn matrix_rows(
    label: &str,
    resolve: impl Fn(&RenderCtx<'_>) -> Option<&'static str>,
    out: &mut String,
) {
    out.push_str(&format!("  {label}\n"));
    let mut groups: Vec<(Vec<&str>, Vec<Option<&'static str>>)> = Vec::new();
    for (name, runner, model) in READERS {
        let base = reader_ctx(runner, model);
        let cells: Vec<_> = (0..=9)
            .map(|level| resolve(&base.verbosity(level)))
            .collect();
        match groups.iter_mut().find(|(_, c)| *c == cells) {
            Some((names, _)) => names.push(name),
            None => groups.push((vec![name], cells)),
        }
    }
    for (names, cells) in groups {
        let who = if names.len() == READERS.len() {
            "everyone".to_owned()
        } else {
            names.join(", ")
        };
        out.push_str(&format!("    {who}\n"));
        let mut start = 0;
        while start < cells.len() {
            let end = (start..cells.len())
                .take_while(|&i| cells[i] == cells[start])
                .last()
                .unwrap_or(start);
            let levels = if start == end {
                format!("{start}")
            } else {
                format!("{start}..={end}")
            };
            let text = cells[start].map_or("(nothing)".to_owned(), |t| format!("{t:?}"));
            out.push_str(&format!("      {levels:<6} {text}\n"));
            start = end + 1;
        }
    }
}

fn matrix(catalog: &[&'static ToolDef]) -> String {
    let mut out = String::new();
    for tool in catalog {
        out.push_str(&format!("{}\n", tool.name()));
        if let Some(definitive) = tool.description().definitive() {
            out.push_str(&format!("  definitive: {definitive:?}\n"));
        }
        matrix_rows("title", |ctx| tool.title().resolve(ctx), &mut out);
        matrix_rows(
            "description",
            |ctx| tool.description().resolve(ctx),
            &mut out,
        );
        for (field, description) in tool.fields() {
            matrix_rows(
                &format!("argument `{field}`"),
                |ctx| description.resolve(ctx),
                &mut out,
            );
        }
        out.push('\n');
    }
    out.push_str("catalog bytes (compact tools/list JSON) per level\n");
    out.push_str(&format!(
        "    {:<10} {}\n",
        "",
        (0..=9).map(|l| format!("{l:>6}")).collect::<String>()
    ));
    for (name, runner, model) in READERS {
        let base = reader_ctx(runner, model);
        let sizes: String = (0..=9)
            .map(|level| {
                let bytes =
                    serde_json::to_vec(&list(&base.verbosity(level))).map_or(0, |b| b.len());
                format!("{bytes:>6}")
            })
            .collect();
        out.push_str(&format!("    {name:<10} {sizes}\n"));
    }
    out
}

fn run(mut args: impl Iterator<Item = String>) -> Result<String, String> {
    match args.next().as_deref() {
        Some("serve") => {
            let options = serve::parse(args)?;
            let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
            runtime.block_on(serve::run(options))?;
            Ok(String::new())
        }
        Some("list") => {
            let options = parse_list(args)?;
            let ctx = options
                .reader
                .ctx(options.fallback.unwrap_or(mcp_tailor::DEFAULT_VERBOSITY));
            serde_json::to_string_pretty(&list(&ctx)).map_err(|e| e.to_string())
        }
        Some("matrix") => match args.next() {
            None => Ok(matrix(&tools::catalog())),
            Some(extra) => Err(format!("`matrix` takes no options, found `{extra}`")),
        },
        Some("help" | "--help" | "-h") => Ok(USAGE.to_owned()),
        Some(other) => Err(format!("unknown command `{other}`")),
        None => Err("no command given".to_owned()),
    }
}

fn main() -> ExitCode {
    // Logs go to stderr: on stdio, stdout carries the protocol.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    match run(std::env::args().skip(1)) {
        Ok(output) => {
            if !output.is_empty() {
                println!("{output}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("demo: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> impl Iterator<Item = String> {
        line.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
            .into_iter()
    }

    fn listed(line: &str) -> Value {
        serde_json::from_str(&run(args(line)).unwrap()).unwrap()
    }

    #[test]
    fn list_prints_a_tools_list_result_for_the_reader() {
        let codex = listed("list --runner codex --model 5.4 --verbosity 2");
        let tools = codex["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 5);
        assert_eq!(tools[1]["name"], "search_notes");
        assert_eq!(
            tools[1]["description"],
            "search_notes(query, tag?, limit?) -> [{id, title, tags, snippet}]"
        );
        let grok = listed("list --runner grok --verbosity 2");
        assert_ne!(
            codex["tools"][1]["description"],
            grok["tools"][1]["description"]
        );
    }

    #[test]
    fn level_zero_is_terser_than_level_nine() {
        for runner in ["", "--runner codex", "--runner grok"] {
            let bytes = |level: u8| {
                run(args(&format!("list {runner} --verbosity {level}")))
                    .unwrap()
                    .len()
            };
            assert!(
                bytes(0) < bytes(9),
                "{runner}: {} !< {}",
                bytes(0),
                bytes(9)
            );
        }
    }

    #[test]
    fn schemas_are_identical_for_every_reader() {
        let strip = |mut v: Value| {
            for tool in v["tools"].as_array_mut().unwrap() {
                for prop in tool["inputSchema"]["properties"]
                    .as_object_mut()
                    .unwrap()
                    .values_mut()
                {
                    prop.as_object_mut().unwrap().remove("description");
                }
                tool.as_object_mut()
                    .unwrap()
                    .retain(|k, _| k == "inputSchema");
            }
            v
        };
        let reference = strip(listed("list"));
        for line in [
            "list --runner codex --verbosity 0",
            "list --runner grok --model spark --verbosity 9",
        ] {
            assert_eq!(strip(listed(line)), reference, "{line}");
        }
    }

    #[test]
    fn matrix_shows_every_tool_and_the_catalog_bytes() {
        let out = run(args("matrix")).unwrap();
        for tool in tools::catalog() {
            assert!(
                out.contains(&format!("{}\n", tool.name())),
                "{}",
                tool.name()
            );
        }
        assert!(out.contains("catalog bytes"));
        assert!(out.contains("codex, codex/5.4"));
    }

    #[test]
    fn bad_arguments_are_reported() {
        assert!(
            run(args("list --verbosity"))
                .unwrap_err()
                .contains("needs a level")
        );
        assert!(
            run(args("list --verbosity x"))
                .unwrap_err()
                .contains("expected a level")
        );
        assert!(
            run(args("list --colour red"))
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(
            run(args("frobnicate"))
                .unwrap_err()
                .contains("unknown command")
        );
        assert!(run(args("")).is_err());
        assert!(
            serve::parse(args("--http nowhere"))
                .unwrap_err()
                .contains("IP:PORT")
        );
        let parsed = serve::parse(args(
            "--http 127.0.0.1:0 --verbosity 3 --scopes notes.delete,x",
        ))
        .unwrap();
        assert_eq!(parsed.verbosity, Some(3));
        assert_eq!(parsed.scopes, vec!["notes.delete", "x"]);
    }
}
