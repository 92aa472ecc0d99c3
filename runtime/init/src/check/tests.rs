use super::super::tool_drafts;
use super::*;

/// A catalog captured in `cli/tests/init`.
fn catalog(name: &str) -> Vec<Tool> {
    captured(&format!("cli/tests/init/{name}"))
}

/// A catalog captured at `path` in the workspace.
fn captured(path: &str) -> Vec<Tool> {
    let path = format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"));
    mcp_tailor_inspect::read_catalog(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn lost(checker: &Checker<'_>, drafts: &[ToolDraft], level: Band) -> Vec<Vec<usize>> {
    checker.lost(&parsed(drafts, "test", &[]).unwrap(), level)
}

#[test]
fn a_checked_level_loses_a_query_only_at_the_top_of_its_ladder() {
    for name in ["server-filesystem.json", "server-github.json"] {
        let tools = catalog(name);
        let checker = Checker::new(&tools, Search::lexical().to_vec(), None);
        let first = tool_drafts(&tools, &Budgets::DEFAULT);
        let mut drafts = first.clone();
        checker.check(&mut drafts, "test", &[], [None, None]);
        for level in [Band::Terse, Band::Middle] {
            let before: usize = lost(&checker, &first, level).iter().map(Vec::len).sum();
            let after = lost(&checker, &drafts, level);
            let left: usize = after.iter().map(Vec::len).sum();
            // The check loses no more than the first drafts, and fewer where it has work
            // (filesystem's terse drafts lose some).
            assert!(
                left <= before,
                "{name} {level:?}: {before} lost, then {left}"
            );
            if name == "server-filesystem.json" && level == Band::Terse {
                assert!(
                    left < before,
                    "{name} {level:?}: {before} lost, then {left}"
                );
            }
            for (tool, queries) in after.iter().enumerate() {
                for &query in queries {
                    let mut draft = drafts[tool].clone();
                    let path = checker.queries[query].argument.as_deref();
                    let stepped = match path {
                        Some(path) => draft
                            .arguments
                            .iter_mut()
                            .find(|a| a.path == path)
                            .is_some_and(|a| a.step_up(level)),
                        None => draft.step_up(level),
                    };
                    let text = &checker.queries[query].text;
                    assert!(!stepped, "{name} {level:?}: `{text}` lost below the top");
                }
            }
        }
    }
}

#[test]
fn the_check_asks_own_terms_and_an_arguments_facts() {
    let tools = catalog("server-filesystem.json");
    let checker = Checker::new(&tools, Search::lexical().to_vec(), None);
    // Said by most tools: it tells none apart.
    assert!(
        !checker
            .queries
            .iter()
            .any(|q| q.text == "Only works within allowed directories")
    );
    // An argument's clause is asked, and names its argument.
    let head = checker
        .queries
        .iter()
        .find(|q| q.argument.as_deref() == Some("head") && tools[q.tool].name == "read_text_file")
        .expect("a query of `head`");
    assert!(head.text.contains("first N lines"), "{}", head.text);
    // An argument's queries are its facts: not what states none (`dryRun`: "Preview
    // changes using git-style diff format"), but a rule its value must keep.
    let asked = |path: &str| {
        checker
            .queries
            .iter()
            .filter(|q| q.argument.as_deref() == Some(path))
            .map(|q| q.text.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(asked("dryRun"), Vec::<&str>::new());
    assert!(asked("edits[].oldText").contains(&"must match exactly"));
}

#[test]
fn a_fit_holds_its_band_to_the_budget_or_names_the_floor() {
    let tools = catalog("server-filesystem.json");
    let fit = |text: &str| Options::new(Vec::new(), None, vec![text.parse().unwrap()]);
    for (levels, budget, band) in [("0..=2", 2000, 1), ("3..=6", 2200, 2), ("0..=2", 1900, 1)] {
        let draft = draft_checked(&tools, "test", &fit(&format!("{levels}={budget}"))).unwrap();
        let tokens = draft.findability[band].tokens;
        assert!(tokens <= budget, "{levels}={budget}: {tokens}");
        assert!(
            draft.text.contains(&format!("--fit {levels}={budget}")),
            "{}",
            draft.text
        );
        Tailoring::from_toml_str(&draft.text).unwrap();
    }
    let floor = draft_checked(&tools, "test", &fit("0..=6=1000")).unwrap_err();
    assert_eq!(
        floor,
        FitError::Floor {
            levels: "0..=2",
            tokens: 1000,
            floor: super::super::structure_tokens(&tools),
        }
    );
    assert!(floor.to_string().contains("costs 1422 tokens"), "{floor}");
}

#[test]
fn a_value_users_type_stays_findable() {
    let tools = captured("tests/findability/mcp-server-git.json");
    let checker = Checker::new(&tools, Search::lexical().to_vec(), None);
    // git_log's timestamps quote values a user types: asked as one query.
    let asked = checker
        .queries
        .iter()
        .find(|q| q.text == "2 weeks ago, yesterday")
        .expect("the examples' query");
    assert_eq!(tools[asked.tool].name, "git_log");
    // Its terse facts say none of them; the check steps up to the facts with the values,
    // not to the server's 70 tokens.
    let draft = draft_checked(&tools, "test", &Options::default()).unwrap();
    let tailoring = Tailoring::from_toml_str(&draft.text).unwrap();
    let git_log = tools.iter().find(|t| t.name == "git_log").unwrap();
    let terse = served(git_log, &tailoring, &RenderCtx::new().verbosity(0));
    let start = terse.input_schema["properties"]["start_timestamp"]["description"]
        .as_str()
        .unwrap();
    assert!(start.contains("'yesterday'"), "{start}");
    assert!(!start.starts_with("Start timestamp"), "{start}");
}

#[test]
fn what_sets_a_tool_apart_is_asked_alone_and_kept_by_its_draft() {
    let tools = catalog("server-filesystem.json");
    let checker = Checker::new(&tools, Search::lexical().to_vec(), None);
    let media = tools
        .iter()
        .position(|t| t.name == "read_media_file")
        .unwrap();
    // A clause's own terms, as a user names them: `image`, `audio`.
    let asked: Vec<&str> = checker
        .queries
        .iter()
        .filter(|q| q.tool == media)
        .map(|q| q.text.as_str())
        .collect();
    assert!(asked.contains(&"Image audio"), "{asked:?}");
    // Asked so, the terse draft keeps them.
    let draft = draft_checked(&tools, "test", &Options::default()).unwrap();
    let tailoring = Tailoring::from_toml_str(&draft.text).unwrap();
    let terse = served(&tools[media], &tailoring, &RenderCtx::new().verbosity(0));
    let said = terse.description.as_deref().unwrap_or_default();
    assert!(said.contains("Image and audio"), "{said}");
}
