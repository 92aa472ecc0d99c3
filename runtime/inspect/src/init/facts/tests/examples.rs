//! Examples in an argument's text: code and brackets are the example's, and the quoted
//! values a user types are kept (where they close a fact) and asked (by `init`'s check).

use super::*;

#[test]
fn an_example_s_brackets_are_the_example_s() {
    // @antv/mcp-server-chart's `data` and `series`: the values after "such as" are examples.
    let array = json!({"type": "array"});
    let boxplot = "Data for boxplot chart, such as, [{ category: '分类一', value: 10 }] or \
                   [{ category: '分类二', value: 20, group: '组别一' }].";
    assert_eq!(facts(boxplot, &array, 12), None);
    assert_eq!(
        argument_sentence_of(boxplot, &array, 24),
        "Data for boxplot chart"
    );
    let series = "Series for dual axes chart, such as, [{ type: 'column', data: [91.9, 99.1, \
                  101.6], axisYTitle: '销售额' }].";
    assert_eq!(facts(series, &array, 12), None);
    // (Its brackets as the server wrote them: one left open.)
    let mind_map = "Data for mind map chart which is a hierarchical structure, such as, { name: \
                    'main topic', children: [{ name: 'topic 1', children: [{ name:'subtopic \
                    1-1' }] }, and the maximum depth is 3.";
    assert_eq!(
        argument_sentence_of(mind_map, &json!({"type": "object"}), 24),
        "Data for mind map chart which is a hierarchical structure"
    );
}

#[test]
fn quoted_examples_are_values_a_user_types() {
    for values in [
        r#"e.g. "/api/.*user""#,
        "for example 'main' or 'dev'",
        "e.g. '5s', '2m', '3h'",
        "e.g., `ArrowLeft` or `a`",
    ] {
        assert!(kind::quoted_examples(values), "{values}");
    }
    for not in [
        "e.g. the main branch",
        "e.g. '() => { return 1 }'",
        "e.g. 'a value far longer than any a user types into a field'",
        "'main' or 'dev'",
        "e.g. 'main' is the usual one",
    ] {
        assert!(!kind::quoted_examples(not), "{not}");
    }
}

#[test]
fn a_fact_keeps_the_quoted_values_that_close_its_sentence() {
    let none = json!({"type": "string"});
    let own = r#"Only return requests whose URL matches this regexp (e.g. "/api/.*user")."#;
    // Terse and middle both keep what a user's query may say ("api").
    assert_eq!(
        facts(own, &none, 30).as_deref(),
        Some(r#"Only return requests whose URL matches this regexp (e.g. "/api/.*user")"#)
    );
    assert_eq!(
        argument_sentence_of(own, &none, 30),
        r#"Only return requests whose URL matches this regexp (e.g. "/api/.*user")"#
    );
    // No fact, no values: the example alone says nothing about the argument.
    assert_eq!(
        facts("Branch to push to (e.g., 'main' or 'master')", &none, 30),
        None
    );
    // A value with brackets is still a value: kept whole, never cut inside its aside.
    let pattern = "Pattern to match (e.g. '[a-z]+').";
    assert_eq!(
        argument_sentence_of(pattern, &none, 30),
        "Pattern to match (e.g. '[a-z]+')"
    );
    // An example inside the sentence is not its close: read as before, without it.
    assert_eq!(
        facts("Timeout (e.g. '5s') in milliseconds.", &none, 30).as_deref(),
        Some("Timeout in milliseconds")
    );
}

#[test]
fn examples_quote_the_values_a_user_types() {
    let values = example_values(GIT_LOG_START);
    assert_eq!(
        values,
        [
            vec!["2024-01-15T14:30:25"],
            vec!["2 weeks ago", "yesterday"],
            vec!["2024-01-15", "Jan 15 2024"],
        ]
    );
    // Code is no value a user types; nor is an aside without quotes.
    assert!(example_values("A function (e.g. `() => { return 1; }`).").is_empty());
    assert!(example_values("A branch name (e.g. main).").is_empty());
    assert_eq!(
        with_examples("Relative dates.", &["2 weeks ago".into(), "don't".into()]),
        "Relative dates (e.g. '2 weeks ago', `don't`)."
    );
}
