//! A tailoring file on the layer: it tailors the wrapped handler's tools by name (where a
//! `#[mcp_tool]` table attached with `.tailor()` declares an item, the table wins), the
//! registered tools' undeclared items, and the instructions; `set_tailoring` swaps it while
//! clients are connected and tells them to list again.

use crate::common::*;
use crate::layer::{Library, Lookup};
use mcp_tailor::Tailoring;
use mcp_tailor::server::Server;
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
async fn the_files_instructions_replace_the_wrapped_handlers() {
    let server = server(FILE);
    let (client, _) = stdio(&server, "some-client", Era::Legacy).await;
    let info = client.peer_info().unwrap();
    // `initialize` carries no reader hint: the default verbosity (5) is nearest to 9.
    assert_eq!(
        info.instructions.as_deref(),
        Some("A library: look books up by title.")
    );
    let without = Server::builder().handler(Library).build().unwrap();
    let (client, _) = stdio(&without, "some-client", Era::Legacy).await;
    assert_eq!(
        client.peer_info().unwrap().instructions.as_deref(),
        Some("The library's own instructions.")
    );
}

#[tokio::test]
async fn set_tailoring_swaps_the_file_and_clients_list_again() {
    let server = server(FILE);
    let (client, mut changed) = stdio(&server, "some-client", Era::Legacy).await;
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
