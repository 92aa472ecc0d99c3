//! Each report's command line: what it reads, and each usage error in the user's terms.

use super::*;

fn parsed(line: &str) -> Result<Request, clap::Error> {
    parse("demo", line.split_whitespace().map(str::to_owned))
}

/// The usage error `line` makes: clap's message, exit code 2.
fn usage(line: &str) -> String {
    let error = parsed(line).expect_err(line);
    assert_eq!(error.exit_code(), 2, "{line}: {error}");
    error.to_string()
}

#[test]
fn each_report_reads_its_options_and_the_callers() {
    let request = parsed(
        "list --runner codex --model 5.4 --verbosity 2 --pretty --principal ada --tenant t \
         --scopes a,b --protocol 2026-07-28",
    )
    .unwrap();
    assert_eq!(
        request.report,
        Report::List {
            reader: Reader {
                runner: Some("codex".into()),
                model: Some("5.4".into()),
                verbosity: Some(2),
            },
            pretty: true,
        }
    );
    assert_eq!(request.caller.id, "ada");
    assert_eq!(request.caller.tenant.as_deref(), Some("t"));
    assert_eq!(request.caller.scopes.iter().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(request.protocol, "2026-07-28");

    let defaults = parsed("tokens").unwrap();
    assert_eq!(defaults.report, Report::Tokens { json: false });
    assert_eq!(defaults.caller, Principal::anonymous());
    assert_eq!(defaults.protocol, "2025-11-25");
    assert_eq!(
        parsed("diff codex _/spark").unwrap().report,
        Report::Diff {
            a: ReaderClass::new(Some("codex"), None),
            b: ReaderClass::new(None, Some("spark")),
        }
    );
    let Report::Lint { config } = parsed("lint --budget 0..=3=40 --budget 9=100")
        .unwrap()
        .report
    else {
        panic!("lint");
    };
    assert_eq!(
        config.budgets,
        [
            Some(40),
            Some(40),
            Some(40),
            Some(40),
            None,
            None,
            None,
            None,
            None,
            Some(100)
        ]
    );
    assert_eq!(
        parsed("eval --tasks t.toml --floor 0.5 --svg e.svg --json")
            .unwrap()
            .report,
        Report::Eval {
            tasks: "t.toml".into(),
            searches: vec!["codex".to_owned()],
            embedding_model: None,
            top: None,
            floor: Some(0.5),
            svg: Some("e.svg".into()),
            json: true,
        }
    );
    assert_eq!(
        parsed("eval --tasks t.toml --search all --embedding-model wl --top 3")
            .unwrap()
            .report,
        Report::Eval {
            tasks: "t.toml".into(),
            searches: ["codex", "fastmcp", "embedding"]
                .map(str::to_owned)
                .to_vec(),
            embedding_model: Some("wl".into()),
            top: Some(3),
            floor: None,
            svg: None,
            json: false,
        }
    );
}

#[test]
fn usage_errors_say_what_is_wrong() {
    for (line, says) in [
        (
            "list --verbosity",
            "a value is required for '--verbosity <N>'",
        ),
        (
            "list --verbosity x",
            "invalid value 'x' for '--verbosity <N>'",
        ),
        ("list --verbosity 10", "10 is not in 0..=9"),
        ("list --colour red", "unexpected argument '--colour'"),
        ("list extra", "unexpected argument 'extra'"),
        ("frobnicate", "unrecognized subcommand 'frobnicate'"),
        ("diff codex", "<READER_B>"),
        (
            "lint --budget 12=3",
            "expected LEVELS=TOKENS, e.g. 0..=3=40",
        ),
        ("lint --budget 3..=1=3", "expected LEVELS=TOKENS"),
        ("eval", "--tasks <FILE>"),
        ("eval --tasks x --top 0", "0 is not in 1.."),
        ("eval --tasks x --floor 2", "expected a share from 0 to 1"),
    ] {
        let message = usage(line);
        assert!(message.contains(says), "{line}: {message}");
    }
    // No report at all: the reports, and how to ask for each one's help.
    let none = parsed("").expect_err("no report");
    assert_eq!(none.exit_code(), 2);
    assert!(none.to_string().contains("eval"), "{none}");
}

#[test]
fn each_report_has_its_help() {
    for report in ["list", "matrix", "tokens", "diff", "lint", "eval"] {
        let help = parsed(&format!("{report} --help")).expect_err(report);
        assert_eq!(help.exit_code(), 0, "{report}");
        assert!(help.to_string().contains("--protocol"), "{report}: {help}");
    }
    let summary = summary();
    for report in ["list", "matrix", "tokens", "diff", "lint", "eval"] {
        assert!(summary.contains(&format!("  {report}")), "{summary}");
    }
}
