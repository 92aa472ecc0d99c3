//! The expression grammar shared by every description site: levels and level specs,
//! texts, variant tags, and runners. Structural mistakes are reported here, each spanned on
//! the offending expression; semantic rules (level domain, coverage, tags) live in `valid`.

use crate::ast::{Level, LevelSpec, Model, Runner, RunnerMatch, Tag, Text};
use crate::errors::CompileErrors;
use mcp_tailor_model::errors::did_you_mean;
use mcp_tailor_model::rules;
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, RangeLimits, Token, UnOp};

const TEXT_FORMS: &str =
    "a string literal, `concat!(…)`, `include_str!(…)` or a path to a `&'static str` const";
use rules::SPEC_FORMS;

/// The identifier of a one-segment path expression (`foo`), if that is what `expr` is.
pub fn single_ident(expr: &Expr) -> Option<syn::Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident().cloned(),
        _ => None,
    }
}

/// A string literal's value and span, or an error naming `what` was expected.
pub fn string_lit(
    expr: &Expr,
    what: &str,
    errors: &mut CompileErrors,
) -> Option<(String, proc_macro2::Span)> {
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

/// Each element of a list `[…]` read by `each` (`None`: an error was reported), or an
/// error showing `form` when `expr` is not a list.
pub fn list<T>(
    expr: &Expr,
    form: &str,
    errors: &mut CompileErrors,
    mut each: impl FnMut(&Expr, &mut CompileErrors) -> Option<T>,
) -> Vec<T> {
    match expr {
        Expr::Array(a) => a.elems.iter().filter_map(|e| each(e, errors)).collect(),
        other => {
            errors.at(other, format!("expected a list: {form}"));
            Vec::new()
        }
    }
}

/// A level `N` (possibly negative, so that `-1` gets the domain error, not a syntax one).
pub fn level(expr: &Expr, errors: &mut CompileErrors) -> Option<Level> {
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
            loc: expr.to_token_stream(),
        });
    }
    errors.at(expr, rules::expected_level(&describe(expr)));
    None
}

/// A bare level spec `S`.
pub fn level_spec(expr: &Expr, errors: &mut CompileErrors) -> Option<LevelSpec> {
    match expr {
        Expr::Range(range) => {
            let (Some(start), Some(end)) = (&range.start, &range.end) else {
                errors.at(range, rules::OPEN_RANGE);
                return None;
            };
            let lo = level(start, errors);
            let hi = level(end, errors);
            let (lo, hi) = (lo?, hi?);
            match range.limits {
                RangeLimits::Closed(_) => Some(LevelSpec::Range {
                    lo,
                    hi,
                    loc: range.to_token_stream(),
                }),
                RangeLimits::HalfOpen(_) => {
                    errors.at(range, rules::exclusive_range(lo.value, hi.value));
                    None
                }
            }
        }
        Expr::Array(set) => {
            let members: Vec<_> = set.elems.iter().filter_map(|m| level(m, errors)).collect();
            (members.len() == set.elems.len()).then(|| LevelSpec::Set {
                members,
                loc: set.to_token_stream(),
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
pub fn level_key(expr: &Expr, errors: &mut CompileErrors) -> Option<LevelSpec> {
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

/// A level entry `(verbosity(S), X)`, `X` read by `value`; `pair` has two elements.
pub fn level_entry<T>(
    pair: &syn::ExprTuple,
    errors: &mut CompileErrors,
    value: impl FnOnce(&Expr, &mut CompileErrors) -> Option<T>,
) -> Option<(LevelSpec, T)> {
    let spec = level_key(&pair.elems[0], errors);
    let value = value(&pair.elems[1], errors);
    spec.zip(value)
}

/// Text `T`. A literal is checked now; anything else must be a `&'static str` expression.
pub fn text(expr: &Expr, errors: &mut CompileErrors) -> Option<Text> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(lit), ..
        }) => {
            let value = lit.value();
            if let Some(problem) = rules::text_problem(&value) {
                errors.at(lit, problem);
                return None;
            }
            Some(Text::Lit {
                value,
                lit: lit.clone(),
            })
        }
        Expr::Path(_) if single_ident(expr).is_some_and(|i| i == "None") => {
            single_ident(expr).map(Text::Nothing)
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
pub fn tag(expr: &Expr, errors: &mut CompileErrors) -> Option<Tag> {
    if let Some(ident) = single_ident(expr) {
        return Some(Tag {
            name: ident.to_string(),
            loc: ident.to_token_stream(),
        });
    }
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(s), ..
    }) = expr
    {
        return Some(Tag {
            name: s.value(),
            loc: s.to_token_stream(),
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

/// `runners = [((runner, model), [rules]), …]`.
pub fn runners(expr: &Expr, errors: &mut CompileErrors) -> Vec<Runner> {
    let form = "`runners = [((runner, model), [rules]), …]`";
    list(expr, form, errors, runner)
}

const RUNNER_FORM: &str = "write `((runner, model), [(verbosity(S), tag), …, default = tag])`";

fn runner(expr: &Expr, errors: &mut CompileErrors) -> Option<Runner> {
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
            let runner = runner_match(&m.elems[0], errors);
            let model = model(&m.elems[1], errors);
            runner.zip(model)
        }
        other => {
            errors.at(
                other,
                format!(
                    "expected `(runner, model)`, found {}; {RUNNER_FORM}",
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
    let ((runner, model), (rules, default)) = (matchers?, rules?);
    Some(Runner {
        runner,
        model,
        rules,
        default,
        matchers: outer.elems[0].to_token_stream(),
    })
}

fn runner_rules(
    items: &Punctuated<Expr, Token![,]>,
    errors: &mut CompileErrors,
) -> (Vec<(LevelSpec, Tag)>, Option<Tag>) {
    let mut rules = Vec::new();
    let mut default: Option<Tag> = None;
    let mut default_seen = false;
    for item in items {
        match item {
            Expr::Tuple(pair) if pair.elems.len() == 2 => {
                rules.extend(level_entry(pair, errors, tag));
            }
            Expr::Assign(assign) if single_ident(&assign.left).is_some_and(|k| k == "default") => {
                if default_seen {
                    errors.at(&assign.left, rules::RULE_DEFAULT_TWICE);
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

fn runner_match(expr: &Expr, errors: &mut CompileErrors) -> Option<RunnerMatch> {
    match matcher_name(expr, "runner", errors)? {
        None => Some(RunnerMatch::Any),
        Some(name) => Some(RunnerMatch::Exact(name)),
    }
}

fn model(expr: &Expr, errors: &mut CompileErrors) -> Option<Model> {
    if let Expr::Array(list) = expr {
        let names: Vec<_> = list
            .elems
            .iter()
            .filter_map(|m| match matcher_name(m, "model", errors) {
                Some(Some(name)) => Some(name),
                Some(None) => {
                    errors.at(m, rules::ANY_IN_LIST);
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
fn matcher_name(expr: &Expr, what: &str, errors: &mut CompileErrors) -> Option<Option<String>> {
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
            errors.at(lit, rules::numeric_matcher(what, &written));
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
pub fn describe(expr: &Expr) -> String {
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
