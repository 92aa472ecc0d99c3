//! The mcp-tailor demo: a notes server whose tool descriptions fit each reader.
//!
//! ```text
//! cargo run -p mcp-tailor-cli --example demo -- list --runner codex --model 5.4 --verbosity 2
//! cargo run -p mcp-tailor-cli --example demo -- matrix
//! cargo run -p mcp-tailor-cli --example demo -- eval --tasks cli/examples/demo/tasks.toml
//! cargo run -p mcp-tailor-cli --example demo -- serve                      # stdio
//! cargo run -p mcp-tailor-cli --example demo -- serve --http 127.0.0.1:8080 # streamable HTTP at /mcp
//! ```
//!
//! Its command line is `serve` and the reports of `mcp_tailor::inspect` on its own catalog,
//! as `mcp_tailor_cli::reports` reads and prints them.

mod serve;
mod store;
mod tools;

use mcp_tailor_cli::reports::{self, Request};
use std::process::ExitCode;

/// What the command line asks for.
enum Job {
    Serve(serve::ServeArgs),
    Report(Request),
}

fn command() -> clap::Command {
    clap::Command::new("demo")
        .about("A notes server whose tool descriptions fit each reader")
        .subcommand_required(true)
        .subcommand(serve::command())
        .subcommands(reports::subcommands())
}

/// Reads the arguments (after the program's name); `Err` is clap's error, help included.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Job, clap::Error> {
    let matches = command().no_binary_name(true).try_get_matches_from(args)?;
    let (name, matches) = matches.subcommand().expect("a subcommand is required");
    Ok(match name {
        "serve" => Job::Serve(serve::args(matches)),
        report => Job::Report(reports::request(report, matches).expect("a report")),
    })
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
    let job = match parse(std::env::args().skip(1)) {
        Ok(job) => job,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let done = match job {
        Job::Serve(options) => runtime
            .block_on(serve::run(options))
            .map(|()| ExitCode::SUCCESS),
        Job::Report(request) => {
            // What the server sends each reader: the same server `serve` runs.
            let server = serve::server(&serve::ServeArgs::default());
            runtime
                .block_on(reports::run(&server, &request))
                .map(|printed| printed.print())
                .map_err(Into::into)
        }
    };
    done.unwrap_or_else(|message| {
        eprintln!("demo: {message}");
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn args(line: &str) -> impl Iterator<Item = String> {
        line.split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
            .into_iter()
    }

    fn output(line: &str) -> reports::Printed {
        let Ok(Job::Report(request)) = parse(args(line)) else {
            panic!("{line}: no report");
        };
        let server = serve::server(&serve::ServeArgs::default());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(reports::run(&server, &request)).unwrap()
    }

    fn listed(line: &str) -> Value {
        let printed = output(line);
        assert!(!printed.findings, "{line}: {}", printed.text);
        serde_json::from_str(&printed.text).unwrap()
    }

    #[test]
    fn list_prints_the_servers_tools_list_result_for_the_reader() {
        let codex = listed("list --runner codex --model 5.4 --verbosity 2");
        let tools = codex["tools"].as_array().unwrap();
        // `delete_note` needs a scope this caller lacks, exactly as on the server.
        assert_eq!(tools.len(), 4);
        assert_eq!(tools[1]["name"], "search_notes");
        assert_eq!(
            tools[1]["description"],
            "search_notes(query, tag?, maxResults?) -> [{id, title, tags, snippet}]"
        );
        let grok = listed("list --runner grok --verbosity 2");
        assert_ne!(
            codex["tools"][1]["description"],
            grok["tools"][1]["description"]
        );
        let admin = listed("list --scopes notes.delete");
        assert_eq!(admin["tools"].as_array().unwrap().len(), 5);
    }

    #[test]
    fn serve_and_list_mean_the_same_by_verbosity() {
        let served = serve::server(&serve::ServeArgs {
            verbosity: Some(2),
            ..serve::ServeArgs::default()
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // A request as a codex client sends it, naming no level.
        let request = mcp_tailor::server::RequestInfo {
            protocol_version: Some("2025-11-25".into()),
            client_name: Some("codex".into()),
            ..Default::default()
        };
        let result = runtime
            .block_on(served.list_tools_for(request, None))
            .unwrap();
        let served_tools = serde_json::to_value(result).unwrap()["tools"].clone();
        assert_eq!(
            served_tools,
            listed("list --runner codex --verbosity 2")["tools"]
        );
    }

    #[test]
    fn arguments_are_closed_to_unknown_names() {
        for tool in listed("list --scopes notes.delete")["tools"]
            .as_array()
            .unwrap()
        {
            assert_eq!(
                tool["inputSchema"]["additionalProperties"], false,
                "{}",
                tool["name"]
            );
        }
    }

    #[test]
    fn level_zero_is_terser_than_level_nine() {
        for runner in ["", "--runner codex", "--runner grok"] {
            let bytes = |level: u8| {
                output(&format!("list {runner} --verbosity {level}"))
                    .text
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
    fn matrix_shows_every_tool_every_reader_class_and_the_catalog() {
        let out = output("matrix").text;
        for tool in serve::server(&serve::ServeArgs::default()).tools() {
            assert!(
                out.contains(&format!("{}\n", tool.name())),
                "{}",
                tool.name()
            );
        }
        // The `(_, spark)` rule of `tag_note` is a reader class of its own.
        assert!(out.contains("_/spark"), "{out}");
        assert!(out.contains("tokens"), "{out}");
    }

    #[test]
    fn lint_passes_on_the_demo() {
        let printed = output("lint");
        assert!(!printed.findings, "{}", printed.text);
    }

    #[test]
    fn eval_finds_the_tools_users_ask_for_at_every_level() {
        let tasks = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo/tasks.toml");
        // The floor `.ci/run` holds the demo to.
        let printed = output(&format!("eval --tasks {tasks} --floor 0.3"));
        assert!(!printed.findings, "{}", printed.text);
        assert!(
            printed.text.ends_with("eval: no findings"),
            "{}",
            printed.text
        );
        let report: Value =
            serde_json::from_str(&output(&format!("eval --tasks {tasks} --json")).text).unwrap();
        // Every reader class is asked, with every task at least 12 of them are about.
        let readers = report["readers"].as_object().unwrap();
        assert_eq!(readers.len(), 7);
        for levels in readers.values() {
            assert_eq!(levels.as_array().unwrap().len(), 10);
            assert!(levels[0]["tasks"].as_array().unwrap().len() >= 12);
        }
        // The picture in the README is the one `eval --svg` draws today.
        let svg = std::env::temp_dir().join(format!("demo-eval-{}.svg", std::process::id()));
        output(&format!("eval --tasks {tasks} --svg {}", svg.display()));
        let drawn = std::fs::read_to_string(&svg).unwrap();
        let _ = std::fs::remove_file(&svg);
        let committed = include_str!("eval.svg");
        assert!(
            drawn == committed,
            "regenerate it: cargo run -p mcp-tailor-cli --example demo -- eval --tasks \
             cli/examples/demo/tasks.toml --svg cli/examples/demo/eval.svg"
        );
    }

    #[test]
    fn bad_arguments_are_reported() {
        let usage = |line: &str| match parse(args(line)) {
            Err(error) => {
                assert_eq!(error.exit_code(), 2, "{line}: {error}");
                error.to_string()
            }
            Ok(_) => panic!("{line}: accepted"),
        };
        assert!(usage("list --verbosity").contains("a value is required"));
        assert!(usage("list --verbosity x").contains("invalid value 'x'"));
        assert!(usage("list --colour red").contains("unexpected argument '--colour'"));
        assert!(usage("frobnicate").contains("unrecognized subcommand"));
        assert!(usage("").contains("serve"));
        assert!(usage("serve --http nowhere").contains("invalid value 'nowhere'"));
        assert!(usage("serve --page-size 0").contains("0 is not in 1.."));
        let Ok(Job::Serve(parsed)) = parse(args(
            "serve --http 127.0.0.1:0 --verbosity 3 --fallback-verbosity 1 --scopes notes.delete,x \
             --page-size 2",
        )) else {
            panic!("serve");
        };
        assert_eq!(parsed.verbosity, Some(3));
        assert_eq!(parsed.fallback_verbosity, Some(1));
        assert_eq!(parsed.scopes, vec!["notes.delete", "x"]);
        assert_eq!(parsed.page_size, Some(2));
        // Two tools a page: the first page of the five-tool catalog has a cursor.
        let paged = serve::server(&serve::ServeArgs {
            page_size: Some(2),
            scopes: vec!["notes.delete".to_owned()],
            ..serve::ServeArgs::default()
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let page = runtime
            .block_on(paged.list_tools_for(mcp_tailor::server::RequestInfo::default(), None))
            .unwrap();
        assert_eq!(page.tools.len(), 2);
        assert!(page.next_cursor.is_some());
    }
}
