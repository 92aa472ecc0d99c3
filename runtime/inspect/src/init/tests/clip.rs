//! Shortening (`clip.rs`) on plain prose, as the drafts use it.

use crate::count_tokens;
use crate::init::clip::{self, fit, sentences, without_asides};
use crate::init::plain::plain;

/// The first paragraph of a [`plain`] text.
fn first_paragraph(plain: &str) -> &str {
    plain.split('\n').next().unwrap_or(plain).trim()
}

/// The terse wording of a whole description: of its first paragraph.
fn terse(description: &str, budget: usize) -> String {
    clip::terse(first_paragraph(&plain(description)), budget)
}

/// The middle wording of a whole description: of its first paragraph.
fn middle(description: &str, budget: usize) -> String {
    clip::middle(first_paragraph(&plain(description)), budget)
}
use crate::init::facts::facts;
use serde_json::json;

#[test]
fn markup_and_asides_go() {
    assert_eq!(
        plain("# Title\n\nRead **a** file (`path`).\n\n```js\nx()\n```\n- see [docs](http://x)"),
        "Read a file (path).\nsee docs"
    );
    // HTML tags go; a placeholder in angle brackets is words the text needs.
    assert_eq!(
        plain("Show <b>a</b> file given as <revision>:<path><br/>"),
        "Show a file given as <revision>:<path>"
    );
    assert_eq!(
        without_asides("Search files (recursively) by pattern, e.g. '*.rs' in src."),
        "Search files by pattern"
    );
}

#[test]
fn sentences_respect_abbreviations_and_numbers() {
    assert_eq!(
        sentences("Use e.g. globs. Version 1.5 works! Done"),
        ["Use e.g. globs.", "Version 1.5 works!", "Done"]
    );
}

#[test]
fn a_code_span_of_a_word_prose_is_made_of_keeps_its_marks() {
    // excel-mcp-server's `import_csv`; the others lose theirs.
    assert_eq!(
        plain("Import a CSV file into a sheet from `at`, overwriting `cells`."),
        "Import a CSV file into a sheet from `at`, overwriting cells."
    );
    assert_eq!(plain("Use `a` or `ArrowLeft`"), "Use `a` or ArrowLeft");
}

#[test]
fn a_star_in_double_quotes_is_a_value_s_not_emphasis() {
    // @playwright/mcp's `browser_network_requests.filter`.
    assert_eq!(
        plain(r#"Matches this *regexp* (e.g. "/api/.*user")."#),
        r#"Matches this regexp (e.g. "/api/.*user")."#
    );
}

#[test]
fn a_terse_text_ends_as_its_sentence_did_when_its_examples_go() {
    // @playwright/mcp's `browser_emulate_media`.
    assert_eq!(
        terse(
            "Emulate CSS media features for the page, for example switch between the light \
             and dark color scheme. Omitted parameters are left unchanged.",
            16
        ),
        "Emulate CSS media features for the page."
    );
    assert_eq!(terse("List the tags, e.g. v1, v2", 16), "List the tags");
}

#[test]
fn terse_and_middle_fit_their_budgets() {
    let text = "Read the complete contents of a file from the file system as text. Handles \
                various text encodings and provides detailed error messages if the file \
                cannot be read. Use this tool when you need to examine a file.";
    let terse = terse(text, 12);
    assert!(count_tokens(&terse) <= 12, "{terse}");
    assert!(terse.starts_with("Read the complete contents"), "{terse}");
    let middle = middle(text, 40);
    assert!(count_tokens(&middle) <= 40, "{middle}");
    assert!(middle.len() > terse.len());
    assert_eq!(fit("Short.", 12), "Short.");
}

#[test]
fn a_cut_drops_a_list_of_examples_whole() {
    let number = json!({"type": "number"});
    assert_eq!(
        fit("Current thought number, e.g., 1, 2, 3, 4, 5, 6, 7, 8", 8),
        "Current thought number."
    );
    // Its examples out, "numeric value" is what the type says.
    assert_eq!(
        facts(
            "Current thought number (numeric value, e.g., 1, 2, 3)",
            &number,
            6
        ),
        None
    );
    // Not a list of examples: cut at its last clause break, as elsewhere.
    assert_eq!(
        fit(
            "Use a name, e.g. alpha, and a size, counted in whole bytes of the file on disk",
            16
        ),
        "Use a name, e.g. alpha, and a size."
    );
    // Cut at a clause break, its full stop counted, before word by word.
    assert_eq!(
        fit("Alpha beta, gamma delta, epsilon zeta eta theta", 5),
        "Alpha beta."
    );
    // server-filesystem's `directory_tree`-like sentence: no "…, including."
    assert_eq!(
        fit(
            "Get a detailed listing of all files and directories in a specified path, \
             including their sizes",
            16
        ),
        "Get a detailed listing of all files and directories in a specified path."
    );
}

#[test]
fn a_cut_does_not_break_off_mid_phrase() {
    // Context7's `libraryId`, its facts cut word by word.
    assert_eq!(
        fit(
            "Exact Context7-compatible library ID retrieved from 'resolve-library-id' or \
             directly from user query",
            12
        ),
        "Exact Context7-compatible library ID retrieved."
    );
    assert_eq!(
        fit("Alpha beta of the gamma delta epsilon", 5),
        "Alpha beta."
    );
    // Nor on the dash its examples began after (Context7's `libraryName`).
    assert_eq!(
        fit(
            "Use the official library name with proper punctuation — e.g., 'Next.js' \
             instead of 'nextjs', 'Three.js' instead of 'threejs'",
            12
        ),
        "Use the official library name with proper punctuation."
    );
    // Two words are left at least.
    assert_eq!(fit("Read from the file on the disk", 3), "Read from.");
}

#[test]
fn a_list_s_heading_ends_the_first_paragraph() {
    // Notion's tools: the first line is the description, then a list of error responses.
    let text = "Notion | Retrieve a user\nError Responses:\n400: Bad request";
    assert_eq!(plain(text), "Notion | Retrieve a user\n400: Bad request");
    assert_eq!(terse(text, 16), "Notion | Retrieve a user");
    // @hubspot/mcp-server: a heading names no content, and a numbered list's numbers are
    // no sentences.
    let text = "\n    🎯 Purpose:\n      1. Retrieves a paginated list of objects.\n      2. \
                Helps list objects.\n\n    📦 Returns:\n      1. Collection of objects.\n  ";
    assert_eq!(
        plain(text),
        "Retrieves a paginated list of objects. Helps list objects.\nCollection of objects."
    );
    assert_eq!(terse(text, 16), "Retrieves a paginated list of objects.");
    assert_eq!(
        plain("🎯 Purpose\n1. Authenticates the token."),
        "Authenticates the token."
    );
    assert_eq!(plain("## Overview\nLists files."), "Lists files.");
    // A line wrapped mid-sentence is still one sentence.
    assert_eq!(plain("Read a file\nas text."), "Read a file as text.");
}

#[test]
fn a_bulleted_list_reads_as_one() {
    // Desktop Commander's `get_file_info`.
    let text = "Retrieve detailed metadata about a file or directory including:\n\
                - size\n- creation time\n- permissions\n\
                - lineCount (for text files)\n- lastLine (zero-indexed number of last line, \
                for text files)\n\nOnly works within allowed directories.";
    assert_eq!(
        first_paragraph(&plain(text)),
        "Retrieve detailed metadata about a file or directory including: size, creation \
         time, permissions, lineCount (for text files), lastLine (zero-indexed number of last \
         line, for text files)"
    );
    // Cut whole, not after its first items.
    assert_eq!(
        terse(text, 16),
        "Retrieve detailed metadata about a file or directory."
    );
    // A cut inside an aside drops the aside, not its closing mark.
    let middle = fit(first_paragraph(&plain(text)), 34);
    assert!(middle.ends_with("lineCount (for text files)."), "{middle}");
    assert_eq!(
        fit(
            "The length of time to wait before giving up (for drain operation, or not)",
            12
        ),
        "The length of time to wait before giving up."
    );
    // Emphasis is no bullet.
    assert_eq!(plain("**Note**: a\n**Also** b"), "Note: a Also b");
    // A tag the text closes is markup (@neondatabase/mcp-server-neon's sections); a
    // placeholder is words.
    assert_eq!(
        plain(
            "\n  <use_case>\n    Migrate a schema.\n  </use_case>\n  <workflow>Then check.</workflow>"
        ),
        "Migrate a schema.\nThen check."
    );
    assert_eq!(plain("Use node-id=<nodeId>."), "Use node-id=<nodeId>.");
}

#[test]
fn a_conjunction_inside_a_phrase_or_a_list_is_no_clause_break() {
    // chrome-devtools-mcp's `filePath` and `navigate_page.type`.
    assert_eq!(
        fit(
            "The absolute or relative path to a JavaScript file on the MCP server's local \
             filesystem",
            12
        ),
        "The absolute or relative path to a JavaScript file."
    );
    assert_eq!(
        fit(
            "Navigate the page by URL, back or forward in history, or reload",
            10
        ),
        "Navigate the page by URL."
    );
    // @antv/mcp-server-chart's `generate_mind_map`: two verbs share their object.
    assert_eq!(
        fit(
            "Generate a mind map chart to organize and present information in a hierarchical \
             structure with branches radiating from a central topic",
            16
        ),
        "Generate a mind map chart to organize and present information in a hierarchical \
         structure."
    );
    // @antv/mcp-server-chart's `nodeAlign`: examples that do not fit go whole.
    assert_eq!(
        fit(
            "Alignment of nodes in the sankey chart, such as, 'left', 'right', 'justify', or \
             'center'",
            16
        ),
        "Alignment of nodes in the sankey chart."
    );
    // firecrawl-mcp's `firecrawl_monitor_create`: no half list.
    assert_eq!(
        fit(
            "Create a Firecrawl monitor — a recurring scrape, crawl, or search that diffs \
             each result against the last retained snapshot",
            16
        ),
        "Create a Firecrawl monitor."
    );
    // @neondatabase/mcp-server-neon's `prepare_database_migration`: two gerunds share it.
    assert_eq!(
        fit(
            "This tool performs database schema migrations by automatically generating and \
             executing DDL statements",
            12
        ),
        "This tool performs database schema migrations."
    );
    // @azure/mcp's `documentation`: two adjectives share it.
    assert_eq!(
        fit(
            "Search official Microsoft/Azure documentation to find the most relevant and \
             trustworthy content for a user's query",
            16
        ),
        "Search official Microsoft/Azure documentation to find the most relevant and \
         trustworthy content."
    );
    // @azure/mcp's `servicefabric`, `search` and `extension_cli_install`: two verbs after a
    // dash share their object; a dash ends a clause as an em dash does; a list's items may
    // be names of three words.
    assert_eq!(
        fit(
            "Azure Service Fabric operations - Manage and query Azure Service Fabric managed \
             cluster resources across subscriptions",
            15
        ),
        "Azure Service Fabric operations."
    );
    assert_eq!(
        fit(
            "Search operations – Commands to manage and query Azure AI Search services, \
             indexes, and knowledge sources",
            16
        ),
        "Search operations."
    );
    assert_eq!(
        fit(
            "Provide installation instructions for Azure CLI, Azure Developer CLI, and Azure \
             Functions Core Tools CLI",
            16
        ),
        "Provide installation instructions."
    );
    // @shopify/dev-mcp's `validate`: a list after a colon goes whole; `search_docs_chunks`:
    // a cut keeps what a modal's verb takes ("This tool will take." was drafted).
    assert_eq!(
        fit(
            "MANDATORY after generating or editing Shopify code: GraphQL operations, UI \
             components",
            12
        ),
        "MANDATORY after generating or editing Shopify code."
    );
    assert_eq!(
        fit(
            "This tool will take in the user prompt, search shopify.dev, and return relevant \
             documentation and code examples that will help answer the user's question",
            16
        ),
        "This tool will take in the user prompt, search shopify.dev."
    );
    // markitdown-mcp's `convert_to_markdown`: a list without the serial comma is one.
    assert_eq!(
        fit(
            "Convert a resource described by an http:, https:, file: or data: URI to markdown",
            16
        ),
        "Convert a resource described."
    );
    assert_eq!(
        fit(
            "Convert a resource described by an http:, https:, file: or data: URI to markdown",
            17
        ),
        "Convert a resource described by an http:, https:, file: or data: URI."
    );
    // Nor does a cut end on the word before a number it dropped.
    assert_eq!(
        fit(
            "Set to true to return the preserved messages over the last 3 navigations",
            11
        ),
        "Set to true to return the preserved messages."
    );
    // A mark inside a word is the word's: `a .heapsnapshot file`, `'WxH[,mobile]'`.
    assert_eq!(
        without_asides("A path to a .heapsnapshot file (optional)."),
        "A path to a .heapsnapshot file."
    );
    assert_eq!(
        without_asides("Emulate viewports '<w>x<h>[,mobile]' (or none)"),
        "Emulate viewports '<w>x<h>[,mobile]'"
    );
}

#[test]
fn a_cut_leaves_no_subject_without_its_verb_nor_a_participle_without_its_object() {
    // brave-search-mcp-server's `goggles` and `brave_news_search`.
    assert_eq!(
        fit(
            "The parameter supports both a url where the Goggle is hosted or the definition \
             of the Goggle",
            12
        ),
        "The parameter supports both a url."
    );
    assert_eq!(
        fit(
            "This tool searches for news articles using Brave's News Search API based on the \
             user's query",
            16
        ),
        "This tool searches for news articles using Brave's News Search API."
    );
}

#[test]
fn a_cut_ends_before_a_phrase_not_inside_one() {
    // arxiv-mcp-server's `citation_graph` and `export_citations`.
    assert_eq!(
        fit(
            "Return papers citing an arXiv paper and papers that it references using \
             Semantic Scholar's citation graph",
            16
        ),
        "Return papers citing an arXiv paper."
    );
    assert_eq!(
        fit(
            "Export BibTeX citations for one or more arXiv papers using authoritative arXiv \
             metadata, never model-generated fields",
            16
        ),
        "Export BibTeX citations for one or more arXiv papers."
    );
    // chrome-devtools-mcp's `performance_analyze_insight`.
    assert_eq!(
        fit(
            "Provides more detailed information on a specific Performance Insight of an \
             insight set that was highlighted in the results of a trace recording",
            16
        ),
        "Provides more detailed information on a specific Performance Insight of an insight set."
    );
}

#[test]
fn a_colon_ends_a_clause_and_a_participle_keeps_its_agent() {
    // firecrawl-mcp 3.22.2's `firecrawl_interact`: not "Interact with a page."
    assert_eq!(
        terse(
            "Interact with a page in a live browser session: click buttons, fill forms, \
             extract dynamic content, or navigate deeper.",
            16
        ),
        "Interact with a page in a live browser session."
    );
    // A label's colon is no clause's end.
    assert_eq!(
        fit(
            "Note: the server keeps every page it reads for one hour at most",
            8
        ),
        "Note: the server keeps every page."
    );
    // @cyanheads/git-mcp-server 2.x's `git_branch`, `git_stash`, `git_tag`: a list a colon
    // opens after two words goes whole, never half of it ("Manage branches: list all
    // branches, show current branch." said the tool only lists).
    assert_eq!(
        terse(
            "Manage branches: list all branches, show current branch, create a new branch, \
             delete a branch, or rename a branch.",
            16
        ),
        "Manage branches."
    );
    assert_eq!(
        terse(
            "Manage stashes: list stashes, save current changes (push), restore changes \
             (pop/apply), or remove stashes (drop/clear).",
            16
        ),
        "Manage stashes."
    );
    assert_eq!(
        terse(
            "Manage tags: list all tags, create a new tag, delete a tag, or verify a signed \
             tag. Tags are used to mark specific points in history.",
            16
        ),
        "Manage tags."
    );
    // Past the list, a comma parts clauses again.
    assert_eq!(
        fit(
            "Search issues: by title, label or author; then sort the results by the date \
             they were last updated, newest first",
            22
        ),
        "Search issues: by title, label or author; then sort the results by the date they \
         were last updated."
    );
    // mcp-server-kubernetes 4.1.7's `force`: not "…even if there are pods not managed."
    let force = "Force the operation even if there are pods not managed by a \
                 ReplicationController, ReplicaSet, Job, DaemonSet or StatefulSet";
    assert_eq!(fit(force, 20), "Force the operation.");
    assert_eq!(fit(force, 24), "Force the operation.");
}
