//! Tailoring files: the same tables as the macro's, built at run time. Every description
//! below is written twice, with `description!` and as a file's table, and both forms are
//! resolved for every resolution vector (runner × model × verbosity × fallback).

use mcp_tailor::{Description, RenderCtx, Tailoring, description};

static LEVELS: Description = description!(
    description = [
        (verbosity(0), "lo"),
        (verbosity(3..=5), "mid"),
        (verbosity([8, 9]), "hi")
    ],
);
const LEVELS_TOML: &str = r#"
levels = [
  { verbosity = 0, text = "lo" },
  { verbosity = "3..=5", text = "mid" },
  { verbosity = [8, 9], text = "hi" },
]
"#;

static FULL: Description = description!(
    allow(dead_variants),
    description = [
        (verbosity(0), "lo"),
        (verbosity(9), "hi"),
        default = "def",
        default_verbosity = 7
    ],
    descriptions = [a = "A", b = "B", c = "C", "hippo-5" = "H"],
    verbosity_map = [(0..=3, a), (8..=9, "hippo-5")],
    runners = [
        (
            (codex, ["5.4", spark]),
            [(verbosity(0..=4), b), (verbosity(9), c)]
        ),
        ((grok, _), [default = a]),
        ((_, "5.4"), [default = c]),
        ((codex, _), [(verbosity(2), "hippo-5")]),
        (("claude-code", _), []),
    ],
);
const FULL_TOML: &str = r#"
allow = ["dead_variants"]
levels = [{ verbosity = 0, text = "lo" }, { verbosity = 9, text = "hi" }]
default = "def"
default_verbosity = 7
descriptions = { a = "A", b = "B", c = "C", "hippo-5" = "H" }
verbosity_map = [{ verbosity = "0..=3", tag = "a" }, { verbosity = "8..=9", tag = "hippo-5" }]
runners = [
  { runner = "codex", model = ["5.4", "spark"], levels = [{ verbosity = "0..=4", tag = "b" }, { verbosity = 9, tag = "c" }] },
  { runner = "grok", model = "_", default = "a" },
  { runner = "_", model = "5.4", default = "c" },
  { runner = "codex", model = "_", levels = [{ verbosity = 2, tag = "hippo-5" }] },
  { runner = "claude-code", model = "_" },
]
"#;

static RUNNERS_ONLY: Description = description!(
    descriptions = [a = "A", b = "B", c = "C", d = "D"],
    runners = [
        ((_, _), [default = a]),
        ((codex, _), [default = b]),
        ((_, "5.4"), [default = c]),
        ((codex, "5.4"), [default = d]),
    ],
);
const RUNNERS_ONLY_TOML: &str = r#"
descriptions = { a = "A", b = "B", c = "C", d = "D" }
runners = [
  { runner = "_", model = "_", default = "a" },
  { runner = "codex", model = "_", default = "b" },
  { runner = "_", model = "5.4", default = "c" },
  { runner = "codex", model = "5.4", default = "d" },
]
"#;

static BARE: Description = description!(description = "Search notes.");

/// A file declaring one tool's description as `table` (a TOML table body, or a `= "text"`),
/// with the DSL's gap-fill.
fn from_file(table: &str) -> Description {
    let source = if table.trim_start().starts_with('=') {
        format!("[tools.t]\ndescription {table}\n")
    } else {
        // The DSL's gap-fill, opted into: the file then resolves exactly as the macro.
        format!("[tools.t.description]\nfill = \"nearest\"\n{table}")
    };
    let tailoring = Tailoring::from_toml_str(&source).unwrap();
    tailoring.tool("t").unwrap().description().unwrap().clone()
}

/// Every resolution vector: runner × model × verbosity × fallback verbosity.
fn vectors() -> Vec<RenderCtx<'static>> {
    let runners = [
        None,
        Some("codex"),
        Some("grok"),
        Some("claude-code"),
        Some("other"),
    ];
    let models = [None, Some("5.4"), Some("spark"), Some("other")];
    let mut out = Vec::new();
    for runner in runners {
        for model in models {
            for verbosity in [
                None,
                Some(0),
                Some(1),
                Some(2),
                Some(4),
                Some(5),
                Some(7),
                Some(9),
                Some(12),
            ] {
                for fallback in [None, Some(0), Some(9)] {
                    let mut ctx = RenderCtx::new();
                    if let Some(r) = runner {
                        ctx = ctx.runner(r);
                    }
                    if let Some(m) = model {
                        ctx = ctx.model(m);
                    }
                    if let Some(v) = verbosity {
                        ctx = ctx.verbosity(v);
                    }
                    if let Some(f) = fallback {
                        ctx = ctx.fallback_verbosity(f);
                    }
                    out.push(ctx);
                }
            }
        }
    }
    out
}

#[test]
fn both_forms_resolve_alike_for_every_vector() {
    let cases: [(&str, &Description, &str); 4] = [
        ("levels", &LEVELS, LEVELS_TOML),
        ("full", &FULL, FULL_TOML),
        ("runners", &RUNNERS_ONLY, RUNNERS_ONLY_TOML),
        ("bare", &BARE, "= \"Search notes.\""),
    ];
    let vectors = vectors();
    for (name, compiled, toml) in cases {
        let loaded = from_file(toml);
        assert_eq!(loaded.is_tailored(), compiled.is_tailored(), "{name}");
        assert_eq!(loaded.definitive(), compiled.definitive(), "{name}");
        let mut distinct = std::collections::BTreeSet::new();
        for ctx in &vectors {
            let want = compiled.resolve(ctx);
            assert_eq!(loaded.resolve(ctx), want, "{name} {ctx:?}");
            distinct.insert(want);
        }
        // Every answer is one of the texts, and a table answers with more than one.
        assert!(
            distinct
                .iter()
                .flatten()
                .all(|t| compiled.texts().any(|x| x == *t))
        );
        assert_eq!(
            distinct.len() > 1,
            compiled.is_tailored(),
            "{name}: {distinct:?}"
        );
    }
}

#[test]
fn a_title_an_argument_and_the_instructions() {
    let t = Tailoring::from_toml_str(
        r#"
        [instructions]
        levels = [{ verbosity = 0, text = "Notes." }, { verbosity = 9, text = "A notes server." }]

        [tools.search_notes]
        title = { levels = [{ verbosity = 0, text = "Search" }, { verbosity = 9, text = "Search notes" }] }
        description = "Search notes."

        [tools.search_notes.arguments.query]
        description = "Words to look for."

        [tools.search_notes.arguments."filter.tag"]
        description = { levels = [{ verbosity = 0, text = "tag" }, { verbosity = 9, text = "A tag to filter by." }] }
        "#,
    )
    .unwrap();
    let terse = RenderCtx::new().verbosity(0);
    let rich = RenderCtx::new().verbosity(9);
    assert_eq!(t.instructions().unwrap().resolve(&terse), Some("Notes."));
    let tool = t.tool("search_notes").unwrap();
    assert_eq!(tool.title().unwrap().resolve(&rich), Some("Search notes"));
    assert_eq!(
        tool.description().unwrap().resolve(&terse),
        Some("Search notes.")
    );
    assert_eq!(
        tool.argument("query").unwrap().resolve(&terse),
        Some("Words to look for.")
    );
    assert_eq!(
        tool.argument("filter.tag").unwrap().resolve(&terse),
        Some("tag")
    );
    assert!(tool.argument("missing").is_none());
    assert_eq!(tool.location().line, 5);
    assert!(t.warnings().is_empty());
}

#[test]
fn every_error_at_once_in_file_order() {
    let err = Tailoring::parse(
        "t.toml",
        r#"[tools.a]
descriptoin = "x"
[tools.b.description]
levels = [{ verbosity = 12, text = "x" }, { verbosity = "2..=1", text = "y" }]
descriptions = { a = "" }
"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "t.toml:2:1: Unknown field: `descriptoin`. Did you mean `description`?\n\
         t.toml:4:25: verbosity level 12 is outside 0..=9\n\
         t.toml:4:57: inverted range `2..=1`; write `1..=2`\n\
         t.toml:5:22: empty text; write the description or remove the entry"
    );
}

#[test]
fn toml_syntax_errors_are_located_too() {
    let err = Tailoring::parse("t.toml", "[tools.a]\ntitle = \n").unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("t.toml:2:"), "{text}");
}

#[test]
fn dead_variants_are_warnings_worded_as_the_macros() {
    let t = Tailoring::parse(
        "t.toml",
        r#"[tools.a.description]
levels = [{ verbosity = 0, text = "x" }]
descriptions = { unused = "u" }
"#,
    )
    .unwrap();
    let warnings: Vec<String> = t.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("t.toml:3:18: warning: variant never served"),
        "{warnings:?}"
    );
}

#[test]
fn loading_a_missing_file_names_it() {
    let err = Tailoring::load("/nonexistent/tailoring.toml").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("/nonexistent/tailoring.toml: cannot read")
    );
}

#[test]
fn tailor_tool_reaches_nested_arguments_through_refs() {
    use mcp_tailor::server::rmcp::model::Tool;
    let t = Tailoring::from_toml_str(
        r#"
        [tools.find]
        title = { levels = [{ verbosity = 0, text = "Find" }, { verbosity = 9, text = "Find notes" }] }
        [tools.find.arguments.query]
        description = "Words."
        [tools.find.arguments."filter.tag"]
        description = { levels = [{ verbosity = 0, text = "tag" }, { verbosity = 9, text = "A tag to filter by." }] }
        [tools.find.arguments."filter.missing"]
        description = "Not in the schema: left alone."
        "#,
    )
    .unwrap();
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "q"},
            "filter": {"$ref": "#/$defs/Filter"}
        },
        "$defs": {"Filter": {"type": "object", "properties": {"tag": {"type": "string"}}}}
    });
    let mut tool = Tool::new(
        "find",
        "Find notes.",
        std::sync::Arc::new(schema.as_object().unwrap().clone()),
    );
    t.tool("find")
        .unwrap()
        .tailor_tool(&mut tool, &RenderCtx::new().verbosity(9));
    let json = serde_json::to_value(&tool).unwrap();
    assert_eq!(json["title"], "Find notes");
    assert_eq!(json["description"], "Find notes.");
    assert_eq!(
        json["inputSchema"]["properties"]["query"]["description"],
        "Words."
    );
    assert_eq!(
        json["inputSchema"]["$defs"]["Filter"]["properties"]["tag"]["description"],
        "A tag to filter by."
    );
}

#[test]
fn unmatched_names_tools_and_arguments_the_catalog_lacks() {
    use mcp_tailor::server::rmcp::model::Tool;
    let t = Tailoring::parse(
        "t.toml",
        "[tools.find.arguments.\"filter.tag\"]\ndescription = \"x\"\n\
         [tools.find.arguments.nope]\ndescription = \"x\"\n\
         [tools.gone]\ndescription = \"x\"\n",
    )
    .unwrap();
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"filter": {"type": "object", "properties": {"tag": {"type": "string"}}}}
    });
    let tools = [Tool::new(
        "find",
        "Find.",
        std::sync::Arc::new(schema.as_object().unwrap().clone()),
    )];
    let found: Vec<String> = t
        .unmatched(&tools)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        found,
        [
            "t.toml:1:8: tool `find` has no argument `nope`",
            "t.toml:5:8: the catalog has no tool `gone`"
        ]
    );
}

/// A file's table overlays: each level reads its own entry (the map's, else the levels',
/// else the `default`), a matching runner rule answers only the levels it covers, and what
/// nothing covers resolves to nothing here — the tool's own words where it is applied.
/// `fill = "nearest"` opts into the DSL's gap-fill.
#[test]
fn a_files_table_overlays_unless_it_opts_into_gap_fill() {
    let table = r#"
levels = [{ verbosity = "0..=2", text = "terse" }, { verbosity = 9, text = "rich" }]
descriptions = { g = "grok terse" }
runners = [{ runner = "grok", model = "_", levels = [{ verbosity = 0, tag = "g" }] }]
"#;
    let file = |extra: &str| {
        let source = format!("[tools.t.description]\n{extra}\n{table}");
        let tailoring = Tailoring::from_toml_str(&source).unwrap();
        tailoring.tool("t").unwrap().description().unwrap().clone()
    };
    let read = |d: &Description, runner: Option<&str>| -> Vec<Option<String>> {
        (0..=9u8)
            .map(|level| {
                let ctx = RenderCtx::new().verbosity(level);
                let ctx = match runner {
                    Some(r) => ctx.runner(r),
                    None => ctx,
                };
                d.resolve(&ctx).map(str::to_owned)
            })
            .collect()
    };
    let s = |t: &str| Some(t.to_owned());
    let overlay = file("");
    let mut want = vec![None; 10];
    want[..3].fill(s("terse"));
    want[9] = s("rich");
    assert_eq!(read(&overlay, None), want);
    want[0] = s("grok terse");
    assert_eq!(read(&overlay, Some("grok")), want);
    // A `default` answers what the levels leave.
    let with_default = file("default = \"mid\"");
    let mut want = vec![s("mid"); 10];
    want[..3].fill(s("terse"));
    want[9] = s("rich");
    assert_eq!(read(&with_default, None), want);
    // Gap-fill, as the macro does: 3..=5 nearest 2, 6..=8 nearest 9; the rule fills too.
    let filled = file("fill = \"nearest\"");
    let mut want = vec![s("terse"); 6];
    want.extend(vec![s("rich"); 4]);
    assert_eq!(read(&filled, None), want);
    assert_eq!(read(&filled, Some("grok")), vec![s("grok terse"); 10]);
}

#[test]
fn fallback_verbosity_is_the_files_level_for_readers_naming_none() {
    let file = |text: &str| Tailoring::from_toml_str(text);
    assert_eq!(file("").unwrap().fallback_verbosity(), None);
    assert_eq!(
        file("fallback_verbosity = 2").unwrap().fallback_verbosity(),
        Some(2)
    );
    let error = file("fallback_verbosity = 10").unwrap_err().to_string();
    assert_eq!(error, "<string>:1:22: verbosity level 10 is outside 0..=9");
}

/// `title = false` reaches a title held in `annotations.title` (what clients show where
/// `title` is absent); the rest of the annotations stay as written.
#[test]
fn title_false_says_nothing_in_the_annotations_too() {
    let file = Tailoring::from_toml_str(
        "[tools.find.title]\nlevels = [{ verbosity = \"0..=2\", text = false }]\n",
    )
    .unwrap();
    let tool: rmcp::model::Tool = serde_json::from_value(serde_json::json!({
        "name": "find",
        "inputSchema": {"type": "object"},
        "annotations": {"title": "Find things", "readOnlyHint": true},
    }))
    .unwrap();
    let served = |level: u8| {
        let mut tool = tool.clone();
        file.tool("find")
            .unwrap()
            .tailor_tool(&mut tool, &RenderCtx::new().verbosity(level));
        serde_json::to_value(&tool).unwrap()
    };
    assert_eq!(
        served(0)["annotations"],
        serde_json::json!({"readOnlyHint": true})
    );
    assert_eq!(served(0).get("title"), None);
    assert_eq!(served(5)["annotations"]["title"], "Find things");
}

/// `[schemas]` names levels as every table does; each mistake is located, all at once.
#[test]
fn schemas_name_their_levels_and_every_mistake_is_located() {
    let file =
        Tailoring::from_toml_str("[schemas]\ndialect = \"0..=2\"\ntitles = [0, 5]\n").unwrap();
    let lean = file.lean();
    assert!(lean.dialect_at(2) && !lean.dialect_at(3));
    assert!(lean.titles_at(5) && !lean.titles_at(1));
    assert!(Tailoring::from_toml_str("").unwrap().lean().is_empty());
    // An entry carries its file's `[schemas]` (into a fleet's file, too).
    let named =
        Tailoring::from_toml_str("[schemas]\ntitles = 0\n[tools.x]\ndescription = \"X.\"\n");
    assert!(named.unwrap().tool("x").unwrap().lean().titles_at(0));
    let error =
        Tailoring::from_toml_str("[schemas]\ndialect = \"5..=2\"\ntitles = 12\nformats = 0\n")
            .unwrap_err()
            .to_string();
    assert_eq!(
        error,
        "<string>:2:11: inverted range `5..=2`; write `2..=5`\n\
         <string>:3:10: verbosity level 12 is outside 0..=9\n\
         <string>:4:1: Unknown field: `formats`. Available values: `dialect`, `titles`"
    );
}
