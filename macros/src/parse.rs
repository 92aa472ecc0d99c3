//! Tokens → model. One expression grammar serves all four call sites: the tool's
//! `#[mcp_tool(...)]`, a field's `#[mcp(...)]`, `title =`, and `description!(...)`.
//! Structural mistakes are reported here; semantic rules live in `valid`.

use crate::ast::{
    Annotations, DescList, DescSpec, DescValue, Level, LevelSpec, Model, Provider, Runner, Tag,
    Text, ToolAttr,
};
use crate::errors::{Errors, backticked, did_you_mean};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, RangeLimits, Token, UnOp};

/// The four keys of a description site.
const DESC_KEYS: &[&str] = &["description", "descriptions", "verbosity_map", "runners"];
/// The keys of `#[mcp_tool(...)]`.
const TOOL_KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "descriptions",
    "verbosity_map",
    "runners",
    "annotations",
    "scopes",
];
/// The keys of `annotations(...)`.
const ANNOTATION_KEYS: &[&str] = &[
    "title",
    "read_only_hint",
    "destructive_hint",
    "idempotent_hint",
    "open_world_hint",
];
/// The keys that may stand inside a description list besides level entries.
const LIST_KEYS: &[&str] = &["default", "default_verbosity"];

const TEXT_FORMS: &str =
    "a string literal, `concat!(…)`, `include_str!(…)` or a path to a `&'static str` const";
const SPEC_FORMS: &str = "an integer 0..=9, `LO..=HI` or `[A, B, …]`";

/// One `key = value` or `key(args)` of an attribute.
struct Arg {
    key: syn::Ident,
    value: ArgValue,
}

enum ArgValue {
    Assign(Expr),
    Call(Punctuated<Expr, Token![,]>),
}

/// `tokens` with every invisible group (what `macro_rules!` wraps a `$x:literal` or an
/// `$x:expr` in) replaced by its contents, so a DSL written through a declarative macro
/// reads exactly like one written by hand.
fn unwrap_invisible(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Delimiter, Group, TokenTree};
    let mut out = TokenStream::new();
    for tree in tokens {
        match tree {
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                out.extend(unwrap_invisible(group.stream()));
            }
            TokenTree::Group(group) => {
                let mut unwrapped = Group::new(group.delimiter(), unwrap_invisible(group.stream()));
                unwrapped.set_span(group.span());
                out.extend([TokenTree::Group(unwrapped)]);
            }
            other => out.extend([other]),
        }
    }
    out
}

/// Splits `a = x, b(y), …` into keyed arguments, reporting anything else.
fn args(tokens: TokenStream, errors: &mut Errors) -> Vec<Arg> {
    let parser = Punctuated::<Expr, Token![,]>::parse_terminated;
    let exprs = match syn::parse::Parser::parse2(parser, unwrap_invisible(tokens)) {
        Ok(exprs) => exprs,
        Err(err) => {
            errors.push(err);
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for expr in exprs {
        match expr {
            Expr::Assign(assign) => match single_ident(&assign.left) {
                Some(key) => out.push(Arg {
                    key,
                    value: ArgValue::Assign(*assign.right),
                }),
                None => errors.at(&assign.left, "expected a key name before `=`"),
            },
            Expr::Call(call) => match single_ident(&call.func) {
                Some(key) => out.push(Arg {
                    key,
                    value: ArgValue::Call(call.args),
                }),
                None => errors.at(&call.func, "expected a key name"),
            },
            other => errors.at(&other, "expected `key = value`"),
        }
    }
    out
}

/// The identifier of a one-segment path expression (`foo`), if that is what `expr` is.
fn single_ident(expr: &Expr) -> Option<syn::Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident().cloned(),
        _ => None,
    }
}

/// Reports a key given twice; returns whether it is the first time.
fn first_time(seen: &mut Vec<String>, key: &syn::Ident, errors: &mut Errors) -> bool {
    let name = key.to_string();
    if seen.contains(&name) {
        errors.at(key, format!("`{name}` given twice; keep one"));
        false
    } else {
        seen.push(name);
        true
    }
}

fn unknown_key(key: &syn::Ident, allowed: &[&str], errors: &mut Errors) {
    let name = key.to_string();
    let hint = match did_you_mean(&name, allowed) {
        Some(close) => format!("did you mean `{close}`?"),
        None => format!("keys here: {}", backticked(allowed)),
    };
    errors.at(key, format!("unknown key `{name}`; {hint}"));
}

fn expect_assign(arg: Arg, errors: &mut Errors) -> Option<(syn::Ident, Expr)> {
    match arg.value {
        ArgValue::Assign(value) => Some((arg.key, value)),
        ArgValue::Call(_) => {
            let name = arg.key.to_string();
            errors.at(&arg.key, format!("expected `{name} = …`"));
            None
        }
    }
}

/// Parses one of the four description keys into `spec`.
fn desc_key(key: &syn::Ident, value: &Expr, spec: &mut DescSpec, errors: &mut Errors) {
    match key.to_string().as_str() {
        "description" => spec.description = desc_value(value, false, errors),
        "descriptions" => spec.descriptions = descriptions(value, errors),
        "verbosity_map" => spec.verbosity_map = verbosity_map(value, errors),
        "runners" => spec.runners = runners(value, errors),
        _ => unreachable_key(key, errors),
    }
}

/// A key the caller's table claimed but no branch handles: reported, never a panic.
fn unreachable_key(key: &syn::Ident, errors: &mut Errors) {
    errors.at(key, "internal error: unhandled key; please report this");
}

/// `description!(...)` and a field's `#[mcp(...)]`: the four description keys.
pub fn desc_spec(tokens: TokenStream, errors: &mut Errors) -> DescSpec {
    let mut spec = DescSpec::default();
    let mut seen = Vec::new();
    for arg in args(tokens, errors) {
        if !DESC_KEYS.contains(&arg.key.to_string().as_str()) {
            unknown_key(&arg.key, DESC_KEYS, errors);
            continue;
        }
        if let Some((key, value)) = expect_assign(arg, errors)
            && first_time(&mut seen, &key, errors)
        {
            desc_key(&key, &value, &mut spec, errors);
        }
    }
    spec
}

/// `#[mcp_tool(...)]`.
pub fn tool_attr(tokens: TokenStream, errors: &mut Errors) -> ToolAttr {
    let mut tool = ToolAttr::default();
    let mut seen = Vec::new();
    for arg in args(tokens, errors) {
        let name = arg.key.to_string();
        if !TOOL_KEYS.contains(&name.as_str()) {
            unknown_key(&arg.key, TOOL_KEYS, errors);
            continue;
        }
        if !first_time(&mut seen, &arg.key, errors) {
            continue;
        }
        if name == "annotations" {
            match arg.value {
                ArgValue::Call(items) => tool.annotations = Some(annotations(items, errors)),
                ArgValue::Assign(value) => errors.at(
                    &value,
                    "write `annotations(title = …, read_only_hint = …, …)`",
                ),
            }
            continue;
        }
        let Some((key, value)) = expect_assign(arg, errors) else {
            continue;
        };
        match name.as_str() {
            "name" => tool.name = string_lit(&value, "a tool name", errors),
            "title" => tool.title = desc_value(&value, true, errors),
            "scopes" => tool.scopes = scopes(&value, errors),
            _ => desc_key(&key, &value, &mut tool.desc, errors),
        }
    }
    tool
}

fn string_lit(expr: &Expr, what: &str, errors: &mut Errors) -> Option<(String, Span)> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some((s.value(), s.span())),
        other => {
            errors.at(other, format!("expected {what} as a string literal"));
            None
        }
    }
}

fn annotations(items: Punctuated<Expr, Token![,]>, errors: &mut Errors) -> Annotations {
    let mut out = Annotations::default();
    let mut seen = Vec::new();
    for item in items {
        let Expr::Assign(assign) = &item else {
            errors.at(&item, "expected `key = value`");
            continue;
        };
        let Some(key) = single_ident(&assign.left) else {
            errors.at(&assign.left, "expected an annotation name");
            continue;
        };
        let name = key.to_string();
        if !ANNOTATION_KEYS.contains(&name.as_str()) {
            unknown_key(&key, ANNOTATION_KEYS, errors);
            continue;
        }
        if !first_time(&mut seen, &key, errors) {
            continue;
        }
        if name == "title" {
            out.title = text(&assign.right, errors);
            continue;
        }
        let flag = match &*assign.right {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Bool(b), ..
            }) => Some(b.value),
            other => {
                errors.at(other, format!("expected `true` or `false` for `{name}`"));
                None
            }
        };
        let slot = match name.as_str() {
            "read_only_hint" => &mut out.read_only_hint,
            "destructive_hint" => &mut out.destructive_hint,
            "idempotent_hint" => &mut out.idempotent_hint,
            _ => &mut out.open_world_hint,
        };
        *slot = flag;
    }
    out
}

/// `scopes = ["a", "b" | "c"]`: every entry is required; `|` separates alternatives.
fn scopes(expr: &Expr, errors: &mut Errors) -> Vec<Vec<String>> {
    let Some(items) = array(
        expr,
        "`scopes = [\"scope\", \"alt\" | \"other\", …]`",
        errors,
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let mut group = Vec::new();
        scope_alternatives(item, &mut group, errors);
        if !group.is_empty() {
            out.push(group);
        }
    }
    out
}

fn scope_alternatives(expr: &Expr, group: &mut Vec<String>, errors: &mut Errors) {
    match expr {
        Expr::Binary(bin) if matches!(bin.op, syn::BinOp::BitOr(_)) => {
            scope_alternatives(&bin.left, group, errors);
            scope_alternatives(&bin.right, group, errors);
        }
        other => {
            if let Some((scope, span)) = string_lit(other, "a scope", errors) {
                if scope.is_empty() || scope.chars().any(char::is_whitespace) {
                    errors.at_span(span, "a scope is a non-empty string without whitespace");
                } else {
                    group.push(scope);
                }
            }
        }
    }
}

fn array<'a>(
    expr: &'a Expr,
    form: &str,
    errors: &mut Errors,
) -> Option<&'a Punctuated<Expr, Token![,]>> {
    match expr {
        Expr::Array(a) => Some(&a.elems),
        other => {
            errors.at(other, format!("expected a list: {form}"));
            None
        }
    }
}

/// A level `N` (possibly negative, so that `-1` gets the domain error, not a syntax one).
fn level(expr: &Expr, errors: &mut Errors) -> Option<Level> {
    let (negative, inner) = match expr {
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => (true, &*u.expr),
        other => (false, other),
    };
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Int(int), ..
    }) = inner
        && let Ok(value) = int.base10_parse::<i128>()
    {
        let value = if negative { -value } else { value };
        return Some(Level {
            value,
            tokens: expr.to_token_stream(),
        });
    }
    errors.at(
        expr,
        format!(
            "expected a verbosity level: {SPEC_FORMS}; found {}",
            describe(expr)
        ),
    );
    None
}

/// A bare level spec `S`.
fn level_spec(expr: &Expr, errors: &mut Errors) -> Option<LevelSpec> {
    match expr {
        Expr::Range(range) => {
            let (Some(start), Some(end)) = (&range.start, &range.end) else {
                errors.at(range, "open range; write both bounds as `LO..=HI`");
                return None;
            };
            let lo = level(start, errors);
            let hi = level(end, errors);
            let (lo, hi) = (lo?, hi?);
            match range.limits {
                RangeLimits::Closed(_) => Some(LevelSpec::Range {
                    lo,
                    hi,
                    tokens: range.to_token_stream(),
                }),
                RangeLimits::HalfOpen(_) => {
                    let hint = if hi.value > lo.value {
                        format!("write `{}..={}`", lo.value, hi.value - 1)
                    } else {
                        "write `LO..=HI`".to_owned()
                    };
                    errors.at(
                        range,
                        format!("exclusive range `{}..{}`; {hint}", lo.value, hi.value),
                    );
                    None
                }
            }
        }
        Expr::Array(set) => {
            let members: Vec<_> = set.elems.iter().filter_map(|m| level(m, errors)).collect();
            (members.len() == set.elems.len()).then(|| LevelSpec::Set {
                members,
                tokens: set.to_token_stream(),
            })
        }
        Expr::Call(call) if single_ident(&call.func).is_some_and(|i| i == "verbosity") => {
            errors.at(
                call,
                "a bare level spec is expected here; remove the inner `verbosity(…)`",
            );
            None
        }
        other => level(other, errors).map(LevelSpec::One),
    }
}

/// `verbosity(S)`.
fn level_key(expr: &Expr, errors: &mut Errors) -> Option<LevelSpec> {
    if let Expr::Call(call) = expr
        && let Some(func) = single_ident(&call.func)
    {
        if func != "verbosity" {
            let name = func.to_string();
            let hint = match did_you_mean(&name, &["verbosity"]) {
                Some(close) => format!("did you mean `{close}`?"),
                None => "write `verbosity(S)`".to_owned(),
            };
            errors.at(&func, format!("unknown level key `{name}`; {hint}"));
            return None;
        }
        if call.args.len() != 1 {
            errors.at(call, "`verbosity(…)` takes exactly one level spec");
            return None;
        }
        return level_spec(&call.args[0], errors);
    }
    errors.at(
        expr,
        format!("expected `verbosity(S)` where S is {SPEC_FORMS}"),
    );
    None
}

/// Text `T`. A literal is checked now; anything else must be a `&'static str` expression.
pub fn text(expr: &Expr, errors: &mut Errors) -> Option<Text> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(lit), ..
        }) => {
            let value = lit.value();
            if value.is_empty() {
                errors.at(lit, "empty text; write the description or remove the entry");
                None
            } else if value.trim().is_empty() {
                errors.at(
                    lit,
                    "blank text (only whitespace); write the description or remove the entry",
                );
                None
            } else {
                Some(Text::Lit {
                    value,
                    lit: lit.clone(),
                })
            }
        }
        Expr::Macro(_) | Expr::Path(_) => Some(Text::Expr(expr.clone())),
        Expr::Paren(p) => text(&p.expr, errors),
        other => {
            errors.at(
                other,
                format!("expected text: {TEXT_FORMS}; found {}", describe(other)),
            );
            None
        }
    }
}

/// A tag: `foo_bar` or `"hippo-5"`.
fn tag(expr: &Expr, errors: &mut Errors) -> Option<Tag> {
    if let Some(ident) = single_ident(expr) {
        return Some(Tag {
            name: ident.to_string(),
            span: ident.span(),
        });
    }
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(s), ..
    }) = expr
    {
        return Some(Tag {
            name: s.value(),
            span: s.span(),
        });
    }
    errors.at(
        expr,
        format!(
            "expected a variant tag (an identifier or a string literal); found {}",
            describe(expr)
        ),
    );
    None
}

/// `description = T | [...]` and `title = T | [...]`.
fn desc_value(expr: &Expr, is_title: bool, errors: &mut Errors) -> Option<DescValue> {
    match expr {
        Expr::Array(list) => Some(DescValue::List(desc_list(&list.elems, is_title, errors))),
        other => text(other, errors).map(DescValue::Bare),
    }
}

fn desc_list(items: &Punctuated<Expr, Token![,]>, is_title: bool, errors: &mut Errors) -> DescList {
    let mut list = DescList::default();
    let mut seen = Vec::new();
    for item in items {
        match item {
            Expr::Tuple(pair) if pair.elems.len() == 2 => {
                let spec = level_key(&pair.elems[0], errors);
                let text = text(&pair.elems[1], errors);
                if let (Some(spec), Some(text)) = (spec, text) {
                    list.entries.push((spec, text));
                }
            }
            Expr::Assign(assign) => {
                let Some(key) = single_ident(&assign.left) else {
                    errors.at(&assign.left, "expected `default` or `default_verbosity`");
                    continue;
                };
                let name = key.to_string();
                match name.as_str() {
                    "default" | "default_verbosity" => {
                        if seen.contains(&name) {
                            errors.at(&key, format!("`{name}` given twice in one list; keep one"));
                            continue;
                        }
                        seen.push(name.clone());
                        if name == "default" {
                            list.default = text(&assign.right, errors);
                        } else {
                            list.default_verbosity = level(&assign.right, errors);
                        }
                    }
                    "descriptions" | "verbosity_map" | "runners" if is_title => errors.at(
                        &key,
                        format!("misplaced key `{name}`: a title takes no named variants, only level entries, `default` and `default_verbosity`"),
                    ),
                    "descriptions" | "verbosity_map" | "runners" => errors.at(
                        &key,
                        format!("misplaced key `{name}`: write it beside `description = [...]`, not inside the list"),
                    ),
                    _ => {
                        let hint = match did_you_mean(&name, LIST_KEYS) {
                            Some(close) => format!("did you mean `{close}`?"),
                            None => "a description list takes `(verbosity(S), text)`, `default = text` and `default_verbosity = N`".to_owned(),
                        };
                        errors.at(&key, format!("unknown list key `{name}`; {hint}"));
                    }
                }
            }
            other => errors.at(
                other,
                "malformed entry; write `(verbosity(S), text)`, `default = text` or `default_verbosity = N`",
            ),
        }
    }
    list
}

/// `descriptions = [tag = T, …]`.
fn descriptions(expr: &Expr, errors: &mut Errors) -> Vec<(Tag, Text)> {
    let Some(items) = array(expr, "`descriptions = [tag = \"text\", …]`", errors) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let Expr::Assign(assign) = item else {
            errors.at(item, "malformed variant; write `tag = \"text\"`");
            continue;
        };
        let tag = tag(&assign.left, errors);
        let text = text(&assign.right, errors);
        if let (Some(tag), Some(text)) = (tag, text) {
            out.push((tag, text));
        }
    }
    out
}

/// `verbosity_map = [(S, tag), …]` (`verbosity(S)` accepted too).
fn verbosity_map(expr: &Expr, errors: &mut Errors) -> Vec<(LevelSpec, Tag)> {
    let Some(items) = array(expr, "`verbosity_map = [(S, tag), …]`", errors) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let Expr::Tuple(pair) = item else {
            errors.at(item, "malformed map entry; write `(S, tag)`");
            continue;
        };
        if pair.elems.len() != 2 {
            errors.at(item, "malformed map entry; write `(S, tag)`");
            continue;
        }
        let spec = match &pair.elems[0] {
            call @ Expr::Call(_) => level_key(call, errors),
            bare => level_spec(bare, errors),
        };
        let tag = tag(&pair.elems[1], errors);
        if let (Some(spec), Some(tag)) = (spec, tag) {
            out.push((spec, tag));
        }
    }
    out
}

/// `runners = [((provider, model), [rules]), …]`.
fn runners(expr: &Expr, errors: &mut Errors) -> Vec<Runner> {
    let Some(items) = array(
        expr,
        "`runners = [((provider, model), [rules]), …]`",
        errors,
    ) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| runner(item, errors))
        .collect()
}

const RUNNER_FORM: &str = "write `((provider, model), [(verbosity(S), tag), …, default = tag])`";

fn runner(expr: &Expr, errors: &mut Errors) -> Option<Runner> {
    let Expr::Tuple(outer) = expr else {
        errors.at(expr, format!("malformed runner; {RUNNER_FORM}"));
        return None;
    };
    if outer.elems.len() != 2 {
        errors.at(expr, format!("malformed runner; {RUNNER_FORM}"));
        return None;
    }
    let matchers = match &outer.elems[0] {
        Expr::Tuple(m) if m.elems.len() == 2 => {
            let provider = provider(&m.elems[0], errors);
            let model = model(&m.elems[1], errors);
            provider.zip(model)
        }
        other => {
            errors.at(
                other,
                format!(
                    "expected `(provider, model)`, found {}; {RUNNER_FORM}",
                    describe(other)
                ),
            );
            None
        }
    };
    let rules = match &outer.elems[1] {
        Expr::Array(list) => Some(runner_rules(&list.elems, errors)),
        other => {
            errors.at(
                other,
                format!(
                    "expected the rule list `[…]`, found {}; {RUNNER_FORM}",
                    describe(other)
                ),
            );
            None
        }
    };
    let ((provider, model), (rules, default)) = (matchers?, rules?);
    Some(Runner {
        provider,
        model,
        rules,
        default,
    })
}

fn runner_rules(
    items: &Punctuated<Expr, Token![,]>,
    errors: &mut Errors,
) -> (Vec<(LevelSpec, Tag)>, Option<Tag>) {
    let mut rules = Vec::new();
    let mut default: Option<Tag> = None;
    let mut default_seen = false;
    for item in items {
        match item {
            Expr::Tuple(pair) if pair.elems.len() == 2 => {
                let spec = level_key(&pair.elems[0], errors);
                let tag = tag(&pair.elems[1], errors);
                if let (Some(spec), Some(tag)) = (spec, tag) {
                    rules.push((spec, tag));
                }
            }
            Expr::Assign(assign) if single_ident(&assign.left).is_some_and(|k| k == "default") => {
                if default_seen {
                    errors.at(
                        &assign.left,
                        "`default` given twice in one rule list; keep one",
                    );
                    continue;
                }
                default_seen = true;
                default = tag(&assign.right, errors);
            }
            other => errors.at(
                other,
                "malformed rule entry; write `(verbosity(S), tag)` or `default = tag`",
            ),
        }
    }
    (rules, default)
}

fn provider(expr: &Expr, errors: &mut Errors) -> Option<Provider> {
    match matcher_name(expr, "provider", errors)? {
        None => Some(Provider::Any),
        Some(name) => Some(Provider::Exact(name)),
    }
}

fn model(expr: &Expr, errors: &mut Errors) -> Option<Model> {
    if let Expr::Array(list) = expr {
        let names: Vec<_> = list
            .elems
            .iter()
            .filter_map(|m| match matcher_name(m, "model", errors) {
                Some(Some(name)) => Some(name),
                Some(None) => {
                    errors.at(m, "`_` cannot stand inside a model list; write `_` alone");
                    None
                }
                None => None,
            })
            .collect();
        return (names.len() == list.elems.len()).then_some(Model::List(names));
    }
    match matcher_name(expr, "model", errors)? {
        None => Some(Model::Any),
        Some(name) => Some(Model::Exact(name)),
    }
}

/// `_` → `Some(None)`; an identifier or string → `Some(Some(name))`; else an error.
fn matcher_name(expr: &Expr, what: &str, errors: &mut Errors) -> Option<Option<String>> {
    match expr {
        Expr::Infer(_) => Some(None),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(Some(s.value())),
        Expr::Lit(syn::ExprLit {
            lit: lit @ (Lit::Float(_) | Lit::Int(_)),
            ..
        }) => {
            let written = lit.to_token_stream().to_string();
            errors.at(
                lit,
                format!("numeric {what} `{written}`; write `\"{written}\"`"),
            );
            None
        }
        other => match single_ident(other) {
            Some(ident) => Some(Some(ident.to_string())),
            None => {
                errors.at(
                    other,
                    format!("expected a {what} matcher: `_`, an identifier or a string literal; found {}", describe(other)),
                );
                None
            }
        },
    }
}

/// A short phrase naming what kind of expression the user wrote.
fn describe(expr: &Expr) -> String {
    match expr {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(_) => "a string".into(),
            Lit::Int(_) => "an integer".into(),
            Lit::Float(_) => "a float".into(),
            Lit::Bool(_) => "a boolean".into(),
            _ => "a literal".into(),
        },
        Expr::Path(_) => format!("`{}`", expr.to_token_stream()),
        Expr::Tuple(_) => "a tuple".into(),
        Expr::Array(_) => "a list".into(),
        Expr::Call(_) => "a call".into(),
        Expr::Range(_) => "a range".into(),
        _ => format!("`{}`", expr.to_token_stream()),
    }
}
