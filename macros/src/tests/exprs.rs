//! The quick expression reader against `syn`: the same trees, spans included, for every
//! form the DSL uses, and `syn`'s own answer for everything else.

use super::fuzz;
use crate::exprs::{expr, meta_list};
use darling::ast::NestedMeta;
use proc_macro2::{TokenStream, TokenTree};

/// Whether the quick path reads `tokens` without `syn`.
fn is_quick(tokens: &TokenStream) -> bool {
    crate::exprs::quick_meta_list(tokens).is_some()
}

/// Spans are part of a tree: `syn`'s `PartialEq` ignores them, so compare the tokens'
/// positions too (in-process, a span's `Debug` shows its byte range).
fn spans(tokens: TokenStream) -> Vec<String> {
    tokens
        .into_iter()
        .flat_map(|tree| match tree {
            TokenTree::Group(g) => {
                let mut inner = vec![format!("{:?}", g.span())];
                inner.extend(spans(g.stream()));
                inner
            }
            other => vec![format!("{other} {:?}", other.span())],
        })
        .collect()
}

/// Asserts `meta_list` and darling's `NestedMeta::parse_meta_list` agree on `tokens`.
fn assert_agrees(tokens: &TokenStream) {
    let ours = meta_list(tokens.clone());
    let theirs = NestedMeta::parse_meta_list(crate::exprs::unwrap_invisible(tokens.clone()));
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            assert_eq!(ours.len(), theirs.len(), "`{tokens}`");
            for (a, b) in ours.iter().zip(&theirs) {
                match (a, b) {
                    (NestedMeta::Meta(a), NestedMeta::Meta(b)) => {
                        assert!(a == b, "`{tokens}`: {a:?} against {b:?}");
                        let (a, b) = (quote::quote!(#a), quote::quote!(#b));
                        assert_eq!(spans(a), spans(b), "`{tokens}`");
                    }
                    // A literal, or a `key =` without a value: only ever read by `syn`.
                    (a, b) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "`{tokens}`"),
                }
            }
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "`{tokens}`"),
        (a, b) => panic!("`{tokens}`: {:?} against {:?}", a.is_ok(), b.is_ok()),
    }
}

#[test]
fn every_dsl_form_reads_as_syn_reads_it() {
    let forms = [
        r#"description = "Search.""#,
        r#"description = [(verbosity(0), "T."), (verbosity(3..=5), "Three."), (verbosity(7..9), "x")]"#,
        r#"description = [(verbosity([1, 3]), "a"), default = "d", default_verbosity = 4,]"#,
        r#"descriptions = [short = "s", "hippo-5" = "h"], verbosity_map = [(0..=3, short), (7.., long)]"#,
        r#"runners = [((codex, _), [default = codex_v]), ((grok, [spark, "5.4-mini"]), [(verbosity(0..=9), g)])]"#,
        r#"runners = [(("claude-code", "opus"), [default = c])], allow(dead_variants)"#,
        r#"name = "tool", title = concat!("A", "b"), crate = my_crate::reexport"#,
        r#"description = include_str!("x.md"), title = TITLE, scopes = [["a", "b"], "c"]"#,
        r#"annotations(title = "T", read_only_hint = true, destructive_hint = false)"#,
        r#"description = [(verbosity(-1), "neg"), (verbosity(..=3), "open")], x = (), y = (a,), z = (a)"#,
        r#"description = m::n::TEXT, x = a = b, y = 2"#,
    ];
    for form in forms {
        let tokens: TokenStream = form.parse().unwrap();
        assert!(is_quick(&tokens), "`{form}` should not need syn");
        assert_agrees(&tokens);
    }
}

#[test]
fn everything_else_is_syn_s() {
    let others = [
        r#"description = a.b"#,
        r#"description = { "x" }"#,
        r#"description = &X"#,
        r#"description = X as &str, y = 1"#,
        r#"description = ::abs::PATH"#,
        r#"description = Vec::<u8>::new()"#,
        r#"description = [x; 3]"#,
        r#"description = "a" "b""#,
        r#"description = , x = 1"#,
        r#"description =, "#,
        r#""lit", x = 1"#,
        r#"x == 1"#,
        r#"x = 1 + 2"#,
        r#"x = self"#,
        r#"x(1), y[2], z{3}"#,
        r#"x = -1"#,
        r#"x = ..="#,
        r#"x = 1...2"#,
        r#",,"#,
    ];
    for form in others {
        let tokens: TokenStream = form.parse().unwrap();
        assert!(!is_quick(&tokens), "`{form}` should go to syn");
        assert_agrees(&tokens);
    }
}

#[test]
fn single_expressions_match_syn() {
    for form in [
        "0..=9", "(a, _)", "[]", "()", "-3", "f(1, 2,)", "a::b!(x)", "m![y]", "..5",
    ] {
        let trees: Vec<TokenTree> = form.parse::<TokenStream>().unwrap().into_iter().collect();
        let ours = expr(&trees).unwrap_or_else(|| panic!("`{form}` is a DSL form"));
        let theirs: syn::Expr = syn::parse_str(form).unwrap();
        assert!(ours == theirs, "`{form}`: {ours:?} against {theirs:?}");
    }
}

#[test]
fn spans_are_compared() {
    let tokens: TokenStream = "a = 1, b = 2".parse().unwrap();
    let spans = spans(tokens);
    assert_ne!(
        spans[0],
        spans[3].replace('b', "a"),
        "spans carry positions"
    );
}

#[test]
fn invisible_groups_read_as_their_contents() {
    use proc_macro2::{Delimiter, Group};
    let invisible = |s: &str| TokenTree::Group(Group::new(Delimiter::None, s.parse().unwrap()));
    // What `macro_rules!` passes for `description = [(verbosity($l), $t)]`, `$l:literal`,
    // `$t:expr`, and for a macro call or a nested list holding one.
    let list: TokenStream = "(verbosity(L), T)".parse().unwrap();
    let list: TokenStream = list
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(g) => {
                let inner = g.stream().into_iter().map(|t| match t {
                    TokenTree::Ident(i) if i == "T" => invisible("\"text\""),
                    TokenTree::Group(call) => TokenTree::Group(Group::new(
                        call.delimiter(),
                        std::iter::once(invisible("3")).collect(),
                    )),
                    other => other,
                });
                TokenTree::Group(Group::new(g.delimiter(), inner.collect()))
            }
            other => other,
        })
        .collect();
    let attr = quote::quote!(description = [#list]);
    assert!(is_quick(&attr), "`{attr}`");
    assert_agrees(&attr);
    let inside_a_macro = {
        let arg = invisible("\"x\"");
        quote::quote!(description = concat!(#arg))
    };
    assert!(
        !is_quick(&inside_a_macro),
        "kept whole for syn: `{inside_a_macro}`"
    );
    assert_agrees(&inside_a_macro);
}

/// The quick reader of `exprs` gives exactly what darling and `syn` give, on the fuzzer's
/// every input: the same items (tree for tree, span for span) or the same error.
#[test]
fn fuzz_the_quick_reader_agrees_with_syn() {
    let runs = fuzz::runs();
    let mut rng = fuzz::Rng(oorandom::Rand64::new(0x5EED_CAFE_F00D_0002));
    let mut quick = 0usize;
    for _ in 0..runs {
        let (attr, item, desc) = fuzz::input(&mut rng);
        let fields = syn::parse2::<syn::ItemStruct>(item)
            .map(|item| {
                item.fields
                    .into_iter()
                    .flat_map(|f| f.attrs)
                    .filter_map(|a| a.meta.require_list().ok().map(|l| l.tokens.clone()))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        for tokens in [attr, desc].into_iter().chain(fields) {
            quick += usize::from(is_quick(&tokens));
            assert_agrees(&tokens);
        }
    }
    println!("quick reader: {quick} lists read without syn, all agreeing");
    assert!(quick > runs / 4, "the quick path is taken for most inputs");
}
