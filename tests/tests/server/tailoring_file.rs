//! A tailoring file on the layer: it tailors the wrapped handler's tools by name (where a
//! `#[mcp_tool]` table attached with `.tailor()` declares an item, the table wins), the
//! registered tools' undeclared items, and the instructions; `set_tailoring` swaps it while
//! clients are connected and tells them to list again.

use crate::common::*;
use crate::layer::{Library, Lookup};
use mcp_tailor::Tailoring;
use mcp_tailor::inspect::{self, Inspection};
use mcp_tailor::server::{Principal, Reader, Server};
use serde_json::{Value, json};
use std::time::Duration;

const FILE: &str = r#"
[instructions]
levels = [{ verbosity = 0, text = "Books." }, { verbosity = 9, text = "A library: look books up by title." }]

[tools.whoami.description]
levels = [{ verbosity = 0, text = "Who?" }, { verbosity = 9, text = "Which reader the server sees." }]
descriptions = { grok = "whoami() -> reader (grok wording)" }
runners = [{ runner = "grok", model = "_", default = "grok" }]

[tools.lookup]
title = "Book lookup"
description = "ignored: Lookup's table declares a description"

[tools.lookup.arguments.title]
description = "ignored too"

[tools.purge]
description = { levels = [{ verbosity = 0, text = "Purge." }, { verbosity = 9, text = "Remove every book (admin)." }] }

[tools.not_served]
description = "An upstream may add it later."
"#;

/// Codex at `level`, as `inspect` names a reader.
fn codex(level: u8) -> Reader {
    Reader {
        runner: Some("codex".to_owned()),
        model: None,
        verbosity: Some(level),
    }
}

fn reader(runner: &str, verbosity: u8) -> Value {
    json!({"mcp-tailor.dev/runner": runner, "mcp-tailor.dev/verbosity": verbosity})
}

fn server(file: &str) -> Server<Library> {
    Server::builder()
        .handler(Library)
        .tailor::<Lookup>()
        .tailoring(Tailoring::from_toml_str(file).unwrap())
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_file_tailors_the_wrapped_handlers_tools_per_reader() {
    let server = server(FILE);
    for (transport, era) in COMBOS {
        let client = connect(&server, transport, "some-client", era).await;
        let terse = by_name(&list(&client, None, reader("codex", 0)).await.unwrap());
        let rich = by_name(&list(&client, None, reader("codex", 9)).await.unwrap());
        let grok = by_name(&list(&client, None, reader("grok", 9)).await.unwrap());
        let combo = format!("{transport} {era:?}");
        assert_eq!(terse["whoami"]["description"], "Who?", "{combo}");
        assert_eq!(
            rich["whoami"]["description"], "Which reader the server sees.",
            "{combo}"
        );
        assert_eq!(
            grok["whoami"]["description"], "whoami() -> reader (grok wording)",
            "{combo}"
        );
        assert_eq!(terse["purge"]["description"], "Purge.", "{combo}");
        // `Lookup`'s table wins where it declares; the file fills the title it lacks.
        assert_eq!(rich["lookup"]["title"], "Book lookup", "{combo}");
        assert_eq!(
            terse["lookup"]["description"], "lookup(title) -> {title, author}",
            "{combo}"
        );
        assert_eq!(
            terse["lookup"]["inputSchema"]["properties"]["title"]["description"], "title",
            "{combo}"
        );
        let called = call(&client, "whoami", json!({})).await.unwrap();
        assert!(called["content"][0]["text"].is_string(), "{combo}");
    }
}

#[tokio::test]
async fn the_files_instructions_overlay_the_wrapped_handlers() {
    let instructions = |server: Server<Library>| async move {
        let (client, _) = stdio(&server, "some-client", Opening::SessionBound).await;
        client.peer_info().unwrap().instructions.clone()
    };
    let own = Some("The library's own instructions.".to_owned());
    let file_9 = Some("A library: look books up by title.".to_owned());
    // `initialize` carries no reader hint: no level is named, so the file rewords nothing,
    // even where its table opts into the DSL's gap-fill...
    assert_eq!(instructions(server(FILE)).await, own);
    let filled = FILE.replace("[instructions]\n", "[instructions]\nfill = \"nearest\"\n");
    assert_eq!(instructions(server(&filled)).await, own);
    // ...until a fallback level is set, by the file or the host: level 5 is not the file's
    // (0 and 9) and reads the handler's own; filled, 9 is nearest to 5.
    let pinned = format!("fallback_verbosity = 5\n{FILE}");
    assert_eq!(instructions(server(&pinned)).await, own);
    let pinned_filled = format!("fallback_verbosity = 5\n{filled}");
    assert_eq!(instructions(server(&pinned_filled)).await, file_9);
    let host = Server::builder()
        .handler(Library)
        .tailoring(Tailoring::from_toml_str(FILE).unwrap())
        .fallback_verbosity(9)
        .build()
        .unwrap();
    assert_eq!(instructions(host).await, file_9);
    let without = Server::builder().handler(Library).build().unwrap();
    assert_eq!(instructions(without).await, own);
}

#[tokio::test]
async fn set_tailoring_swaps_the_file_and_clients_list_again() {
    let server = server(FILE);
    let (client, mut changed) = stdio(&server, "some-client", Opening::SessionBound).await;
    let before = by_name(&list(&client, None, reader("codex", 0)).await.unwrap());
    assert_eq!(before["whoami"]["description"], "Who?");
    let edited = FILE.replace("\"Who?\"", "\"Who reads?\"");
    server
        .set_tailoring(Tailoring::from_toml_str(&edited).unwrap())
        .await;
    tokio::time::timeout(Duration::from_secs(5), changed.recv())
        .await
        .expect("tools/list_changed")
        .unwrap();
    let after = by_name(&list(&client, None, reader("codex", 0)).await.unwrap());
    assert_eq!(after["whoami"]["description"], "Who reads?");
    assert_eq!(
        server.tailoring().tool("whoami").unwrap().location().line,
        5
    );
}

/// A wrapped handler serving a fixed catalog, as an upstream would: nested arguments
/// inside an array's items, behind a `$ref`, in a map's values and in `anyOf` branches.
#[derive(Clone)]
struct Fixed(Vec<rmcp::model::Tool>);

impl rmcp::ServerHandler for Fixed {
    fn get_info(&self) -> rmcp::model::ServerConfig {
        rmcp::model::ServerConfig::new(
            rmcp::model::ServerCapabilities::builder()
                .enable_tools()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _: Option<rmcp::model::PaginatedRequestParams>,
        _: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListToolsResult, rmcp::ErrorData> {
        Ok(rmcp::model::ListToolsResult::with_all_items(self.0.clone()))
    }
}

/// A server of `file` alone, through which `inspect` lists another server's tools.
fn inspecting(file: &Tailoring) -> Server {
    Server::builder().tailoring(file.clone()).build().unwrap()
}

/// `tools` under inspection through `listing` (of `file`), as `mcp-tailor inspect` makes it:
/// an anonymous caller on 2025-11-25.
fn inspection<'a>(
    listing: &'a Server,
    tools: &[rmcp::model::Tool],
    file: &Tailoring,
) -> Inspection<'a, mcp_tailor::server::NoHandler> {
    let defs = inspect::definitions(tools, file);
    let caller = Principal::anonymous();
    Inspection::of_wrapped(listing, tools.to_vec(), defs, caller, "2025-11-25")
}

/// A reader at `level`, naming no runner.
fn at(level: u8) -> Reader {
    Reader {
        verbosity: Some(level),
        ..Reader::default()
    }
}

/// A server wrapping `tools` as an upstream lists them, tailored by `file`.
fn serving(tools: &[rmcp::model::Tool], file: &Tailoring) -> Server<Fixed> {
    Server::builder()
        .handler(Fixed(tools.to_vec()))
        .tailoring(file.clone())
        .build()
        .unwrap()
}

const NESTED_CATALOG: &str = r##"{"tools": [{
  "name": "push_files",
  "description": "Push several files in one commit.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "branch": {"type": "string", "description": "Branch to push to."},
      "files": {"type": "array", "items": {"type": "object", "properties": {
        "path": {"type": "string", "description": "Path where to create the file."},
        "content": {"type": "string", "description": "Content of the file."}}}},
      "author": {"$ref": "#/$defs/Person"},
      "labels": {"type": "object", "additionalProperties": {"type": "object",
        "properties": {"color": {"type": "string", "description": "A hex colour."}}}},
      "target": {"anyOf": [{"type": "object", "properties": {"sha": {"type": "string"}}},
                           {"type": "object", "properties": {"tag": {"type": "string"}}}]}
    },
    "$defs": {"Person": {"type": "object", "properties": {"email": {"type": "string"}}}}
  }
}]}"##;

const NESTED_FILE: &str = r#"
[tools.push_files.description]
levels = [{ verbosity = "0..=2", text = "Push files." }]

[tools.push_files.arguments.branch]
description = { levels = [{ verbosity = 0, text = "branch" }, { verbosity = 9, text = "The branch the commit goes on." }] }

[tools.push_files.arguments."files[].path"]
description = { levels = [{ verbosity = 0, text = "path" }, { verbosity = 9, text = "Where the file goes, from the repository's root." }], fill = "nearest" }

[tools.push_files.arguments."author.email"]
description = "The author's e-mail."

[tools.push_files.arguments."labels{}.color"]
description = { levels = [{ verbosity = 0, text = "hex" }, { verbosity = 9, text = "The label's colour, six hex digits." }] }

[tools.push_files.arguments."target.tag"]
description = "A tag to push to instead."
"#;

/// `inspect` reads a tool through the same view `proxy` serves it by: every nested
/// argument the file words reads, at each level, exactly as the server lists it.
#[tokio::test]
async fn inspect_shows_nested_arguments_exactly_as_they_are_served() {
    let tools = mcp_tailor::inspect::read_catalog(NESTED_CATALOG).unwrap();
    let file = Tailoring::from_toml_str(NESTED_FILE).unwrap();
    assert_eq!(file.unmatched(&tools), []);
    let listing = inspecting(&file);
    let inspection = inspection(&listing, &tools, &file);
    let server = serving(&tools, &file);
    let (client, _) = stdio(&server, "some-client", Opening::SessionBound).await;
    for level in [0u8, 9] {
        let served = by_name(&list(&client, None, reader("codex", level)).await.unwrap());
        let inspected = inspection.list(codex(level)).await.unwrap();
        let inspected = by_name(&serde_json::from_str(&inspected).unwrap());
        let (served, inspected) = (&served["push_files"], &inspected["push_files"]);
        assert_eq!(
            served["inputSchema"], inspected["inputSchema"],
            "level {level}"
        );
        assert_eq!(
            served["description"], inspected["description"],
            "level {level}"
        );
        let schema = &served["inputSchema"];
        let path = &schema["properties"]["files"]["items"]["properties"]["path"]["description"];
        let color = &schema["properties"]["labels"]["additionalProperties"]["properties"]["color"];
        let (path_text, color_text) = if level == 0 {
            ("path", "hex")
        } else {
            (
                "Where the file goes, from the repository's root.",
                "The label's colour, six hex digits.",
            )
        };
        assert_eq!(path, path_text);
        assert_eq!(color["description"], color_text);
        assert_eq!(
            schema["$defs"]["Person"]["properties"]["email"]["description"],
            "The author's e-mail."
        );
        assert_eq!(
            schema["properties"]["target"]["anyOf"][1]["properties"]["tag"]["description"],
            "A tag to push to instead."
        );
        // What the file leaves alone is the upstream's own.
        assert_eq!(
            schema["properties"]["files"]["items"]["properties"]["content"]["description"],
            "Content of the file."
        );
    }
    // `matrix` names each nested argument by the file's path.
    let matrix = inspection.matrix().await.unwrap().to_string();
    for path in [
        "files[].path",
        "author.email",
        "labels{}.color",
        "target.tag",
    ] {
        assert!(
            matrix.contains(&format!("argument `{path}`")),
            "{path}: {matrix}"
        );
    }
    // The file's description covers 0..=2 only: 3..=9 read the server's own words, and
    // `matrix` says whose words each run of levels reads.
    let own = "Push several files in one commit.";
    for (level, want) in [(0, "Push files."), (2, "Push files."), (3, own), (9, own)] {
        let served = by_name(&list(&client, None, reader("codex", level)).await.unwrap());
        assert_eq!(served["push_files"]["description"], want, "level {level}");
    }
    for line in [
        "0..=2  \"Push files.\" (3 tokens) · file",
        "3..=9  \"Push several files in one commit.\" (7 tokens) · server's own",
    ] {
        assert!(matrix.contains(line), "{line}\n{matrix}");
    }
}

/// `false` is a wording in a file: where it answers, the key is left out of the served
/// tool (its description, an argument's), and elsewhere the upstream's own words stay;
/// `lint` says where a tool description says nothing.
#[tokio::test]
async fn a_file_can_say_nothing() {
    let tools = mcp_tailor::inspect::read_catalog(NESTED_CATALOG).unwrap();
    let file = Tailoring::from_toml_str(
        r#"
[tools.push_files.description]
levels = [{ verbosity = "0..=1", text = false }, { verbosity = "2..=4", text = "Push files." }]

[tools.push_files.arguments.branch]
description = { levels = [{ verbosity = "0..=2", text = false }] }

[tools.push_files.arguments."files[].content"]
description = false
"#,
    )
    .unwrap();
    let server = serving(&tools, &file);
    let (client, _) = stdio(&server, "some-client", Opening::SessionBound).await;
    let at = |level: u8| {
        let client = &client;
        async move {
            by_name(&list(client, None, reader("codex", level)).await.unwrap())["push_files"]
                .clone()
        }
    };
    let terse = at(0).await;
    assert!(terse.get("description").is_none(), "{terse}");
    let properties = &terse["inputSchema"]["properties"];
    assert!(properties["branch"].get("description").is_none(), "{terse}");
    assert_eq!(properties["branch"]["type"], "string");
    let content = &properties["files"]["items"]["properties"]["content"];
    assert!(content.get("description").is_none(), "{terse}");
    assert_eq!(at(3).await["description"], "Push files.");
    let rich = at(9).await;
    assert_eq!(rich["description"], "Push several files in one commit.");
    assert_eq!(
        rich["inputSchema"]["properties"]["branch"]["description"],
        "Branch to push to."
    );
    // `inspect` reads the same, and `lint` names who reads no description.
    let listing = inspecting(&file);
    let inspection = inspection(&listing, &tools, &file);
    let listed = inspection.list(codex(0)).await.unwrap();
    let listed = by_name(&serde_json::from_str(&listed).unwrap());
    assert_eq!(listed["push_files"], terse);
    let lint: Vec<String> = inspection
        .lint(&Default::default())
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(
        lint.iter()
            .any(|f| f.starts_with("push_files description [-@0..=1]: says nothing")),
        "{lint:#?}"
    );
}

/// Another server's tool as it wrote it: its fields in its own order, `execution`, a
/// vendor's field rmcp's types do not know, an `outputSchema`.
const WRITTEN_CATALOG: &str = r#"{"tools":[{"inputSchema":{"properties":{"q":{"description":"The query.","type":"string"}},"type":"object"},"name":"search","x-vendor":{"rank":1},"execution":{"taskSupport":"forbidden"},"outputSchema":{"properties":{"hits":{"type":"integer"}},"type":"object"},"description":"Search the index."}]}"#;

/// `inspect` lists another server's tools byte for byte as the layer serves them (as
/// `proxy` does): every field as the server wrote it, in its order, where the file words
/// nothing, and the file's words where it does.
#[tokio::test]
async fn inspect_lists_another_server_s_tools_as_written() {
    let tools = inspect::read_catalog(WRITTEN_CATALOG).unwrap();
    let file = Tailoring::from_toml_str(
        r#"
[tools.search.description]
levels = [{ verbosity = "0..=2", text = "Search." }]

[tools.search.arguments.q]
description = { levels = [{ verbosity = "0..=2", text = false }] }
"#,
    )
    .unwrap();
    let listing = inspecting(&file);
    let inspection = inspection(&listing, &tools, &file);
    assert_eq!(inspection.list(at(9)).await.unwrap(), WRITTEN_CATALOG);
    assert_eq!(
        inspection.list(at(0)).await.unwrap(),
        r#"{"tools":[{"inputSchema":{"properties":{"q":{"type":"string"}},"type":"object"},"name":"search","x-vendor":{"rank":1},"execution":{"taskSupport":"forbidden"},"outputSchema":{"properties":{"hits":{"type":"integer"}},"type":"object"},"description":"Search."}]}"#
    );
    // What a client of the layer reads, on the wire.
    let mut raw = Raw::connect(&serving(&tools, &file));
    raw.initialize(1, "some-client").await;
    for (id, level) in [(2, 0u8), (3, 9)] {
        let meta = json!({"_meta": {"mcp-tailor.dev/verbosity": level}});
        let sent = raw.request(id, "tools/list", meta).await;
        // serde_json keeps key order here, so this is the response's own compact text.
        let on_wire = serde_json::to_string(&sent["result"]).unwrap();
        assert_eq!(
            inspection.list(at(level)).await.unwrap(),
            on_wire,
            "{level}"
        );
    }
}

/// The file's `[arguments]` table words every described argument of every tool in one
/// entry (here: nothing at 0..=2), nested ones too; an argument's own entry wins, and a
/// tool the file does not name is reached as well.
#[tokio::test]
async fn one_entry_says_nothing_for_every_argument_at_some_levels() {
    let mut tools = mcp_tailor::inspect::read_catalog(NESTED_CATALOG).unwrap();
    let mut other = tools[0].clone();
    other.name = "not_named".into();
    tools.push(other);
    let file = Tailoring::from_toml_str(
        "[arguments]\ndescription = { levels = [{ verbosity = \"0..=2\", text = false }] }\n\n\
         [tools.push_files.arguments.branch]\ndescription = \"Where.\"\n",
    )
    .unwrap();
    assert!(file.every_argument().is_some());
    let server = serving(&tools, &file);
    let (client, _) = stdio(&server, "some-client", Opening::SessionBound).await;
    let described = |tool: &Value| -> Vec<String> {
        let mut out = Vec::new();
        fn walk(value: &Value, at: &str, out: &mut Vec<String>) {
            if let Value::Object(map) = value {
                for (key, inner) in map {
                    let here = format!("{at}/{key}");
                    if key == "description" && at.contains("/properties/") {
                        out.push(format!("{at}={}", inner.as_str().unwrap_or_default()));
                    }
                    walk(inner, &here, out);
                }
            }
        }
        walk(&tool["inputSchema"], "", &mut out);
        out
    };
    let terse = by_name(&list(&client, None, reader("codex", 1)).await.unwrap());
    let rich = by_name(&list(&client, None, reader("codex", 3)).await.unwrap());
    for (name, branch) in [
        ("push_files", "Where."),
        ("not_named", "Branch to push to."),
    ] {
        let own_entry: Vec<String> = match name {
            "push_files" => vec!["/properties/branch=Where.".to_owned()],
            _ => Vec::new(),
        };
        assert_eq!(described(&terse[name]), own_entry, "{name} at level 1");
        let rich = described(&rich[name]);
        assert_eq!(rich.len(), 4, "{name} at level 3: {rich:?}");
        assert!(rich.contains(&format!("/properties/branch={branch}")));
        assert!(rich.contains(
            &"/properties/labels/additionalProperties/properties/color=A hex colour.".to_owned()
        ));
    }
}

/// Two tools as zod and pydantic write them: `$schema`, a type's title, titles that repeat
/// property names, one that says more; and one whose dialect matters (`items` as a list).
const BOILERPLATE_CATALOG: &str = r##"{"tools": [
 {"name": "read", "description": "Read.", "inputSchema": {"type": "object",
   "properties": {"path": {"type": "string"}}, "required": ["path"],
   "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"},
  "outputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
   "$schema": "http://json-schema.org/draft-07/schema#"}},
 {"name": "git_log", "description": "Log.", "inputSchema": {"title": "logArguments",
   "type": "object", "properties": {"repo_path": {"title": "Repo Path", "type": "string"},
   "n": {"title": "How many commits", "type": "integer"}}}},
 {"name": "pair", "description": "Pair.", "inputSchema": {"type": "object",
   "properties": {"p": {"type": "array", "items": [{"type": "string"}]}},
   "$schema": "http://json-schema.org/draft-07/schema#"}}
]}"##;

/// `[schemas]` leaves out what no reader needs at the levels it names, of every tool (named
/// by the file or not), input and output schemas alike; elsewhere each schema is as written.
#[tokio::test]
async fn schemas_lose_their_boilerplate_at_the_levels_named() {
    let tools = inspect::read_catalog(BOILERPLATE_CATALOG).unwrap();
    let file = Tailoring::from_toml_str(
        "[schemas]\ndialect = \"0..=2\"\ntitles = [0, 1, 2]\n\n[tools.read]\ndescription = \"Read a file.\"\n",
    )
    .unwrap();
    let listing = inspecting(&file);
    let inspection = inspection(&listing, &tools, &file);
    let lean: Value = serde_json::from_str(&inspection.list(at(0)).await.unwrap()).unwrap();
    assert_eq!(lean["tools"][0]["inputSchema"].get("$schema"), None);
    assert_eq!(lean["tools"][0]["outputSchema"].get("$schema"), None);
    assert_eq!(lean["tools"][0]["description"], "Read a file.");
    assert_eq!(
        lean["tools"][1]["inputSchema"],
        json!({"type": "object", "properties": {"repo_path": {"type": "string"},
            "n": {"title": "How many commits", "type": "integer"}}})
    );
    // `items` as a list means another thing in 2020-12: its dialect stays.
    let pair = &lean["tools"][2]["inputSchema"]["$schema"];
    assert_eq!(pair, "http://json-schema.org/draft-07/schema#");
    // Level 3 is the file's to leave: every schema as written.
    let written: Value = serde_json::from_str(&inspection.list(at(3)).await.unwrap()).unwrap();
    let own: Value = serde_json::from_str(BOILERPLATE_CATALOG).unwrap();
    for i in 0..3 {
        assert_eq!(
            written["tools"][i]["inputSchema"],
            own["tools"][i]["inputSchema"]
        );
    }
    assert_eq!(
        written["tools"][0]["outputSchema"],
        own["tools"][0]["outputSchema"]
    );
    // What a client of the layer reads on the wire is what `inspect` lists.
    let mut raw = Raw::connect(&serving(&tools, &file));
    raw.initialize(1, "some-client").await;
    for (id, level) in [(2, 0u8), (3, 3)] {
        let meta = json!({"_meta": {"mcp-tailor.dev/verbosity": level}});
        let sent = raw.request(id, "tools/list", meta).await;
        let listed: Value =
            serde_json::from_str(&inspection.list(at(level)).await.unwrap()).unwrap();
        assert_eq!(sent["result"], listed, "{level}");
    }
}
