//! An argument's middle wording (levels 3..=6): its first sentence, the later sentences that
//! state facts, and the terse level's facts.

use super::*;

#[test]
fn the_middle_keeps_the_facts_its_later_sentences_state() {
    let object = json!({"type": "object"});
    // @modelcontextprotocol/server-puppeteer's `launchOptions`: its first sentence only
    // names it; what a reader must know follows (the example, code, does not).
    assert_eq!(
        argument_sentence_of(
            "PuppeteerJS LaunchOptions. Default null. If changed and not null, browser \
             restarts. Example: { headless: true, args: ['--no-sandbox'] }",
            &object,
            24
        ),
        "PuppeteerJS LaunchOptions. Default null. If changed and not null, browser restarts."
    );
    // While they fit: a sentence that does not ends them.
    assert_eq!(
        argument_sentence_of(
            "PuppeteerJS LaunchOptions. Default null. If changed and not null, browser \
             restarts.",
            &object,
            12
        ),
        "PuppeteerJS LaunchOptions. Default null."
    );
    // figma-developer-mcp's `depth`: a first sentence the schema states is none.
    assert_eq!(
        argument_sentence_of(
            "OPTIONAL. Do NOT use unless explicitly requested by the user. Controls how many \
             levels deep to traverse the node tree.",
            &json!({"type": "number"}),
            24
        ),
        "Do NOT use unless explicitly requested by the user"
    );
}

#[test]
fn the_middle_states_the_terse_facts() {
    // context7's `query-docs.query`: its first sentence and the fact do not fit together.
    let text = "What to look up in the library's documentation, scoped to a single concept. Be \
                specific. The query is sent to the Context7 API for processing. Do not include \
                any sensitive or confidential information such as API keys, passwords, or \
                proprietary code in your query.";
    let string = json!({"type": "string"});
    let facts = super::whole_facts(text, &string, 12);
    assert_eq!(
        facts.as_deref(),
        Some("Do not include any sensitive or confidential information")
    );
    assert_eq!(
        argument_sentence(text, &string, facts.as_deref(), 24),
        "What to look up in the library's documentation. Do not include any sensitive or \
         confidential information."
    );
    // A first sentence no clause of which fits with them is not cut inside (mcp-server-time's
    // `source_timezone`: "Source IANA."); the facts speak alone.
    let timezone = "Source IANA timezone name (e.g., 'America/New_York', 'Europe/London'). \
                    Use 'Etc/UTC' as local timezone if no source timezone provided by the user.";
    let utc = "Use 'Etc/UTC' as local timezone if no source timezone provided by the user";
    assert_eq!(argument_sentence(timezone, &string, Some(utc), 24), utc);
    // Nor does a part of it repeat one of the values (mcp-server-git's `branch_type`).
    let branches = "Whether to list local branches ('local'), remote branches ('remote') or all \
                    branches('all').";
    let values = "'local'; 'remote'; 'all'";
    assert_eq!(
        argument_sentence(branches, &string, Some(values), 16),
        values
    );
    // Nor is it cut to a lone condition (Notion's `start_cursor`: "If supplied.").
    let cursor = "If supplied, this endpoint will return a page of results starting after the \
                  cursor provided. If not supplied, this endpoint will return the first page \
                  of results.";
    let first_page = "If not supplied, this endpoint will return the first page of results";
    assert_eq!(
        argument_sentence(cursor, &string, Some(first_page), 24),
        first_page
    );
    // Without them the first sentence stays whole.
    assert_eq!(
        argument_sentence_of(text, &string, 24),
        "What to look up in the library's documentation, scoped to a single concept"
    );
}
