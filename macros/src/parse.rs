//! darling's key structs → the model. Each description site reads its keys here and hands
//! every value to the one expression grammar (`grammar`): the tool's `#[mcp_tool(...)]`, a
//! field's `#[mcp(...)]`, `title =`, and `description!(...)`.

use crate::ast::{
    AnnotationsAttr, DescList, DescSpec, DescValue, LevelSpec, Site, Tag, Text, ToolAttr,
};
use crate::attr::{Allow, AnnotationArgs, DescArgs, Nested, SiteArgs, ToolArgs, value};
use crate::errors::CompileErrors;
use crate::grammar::{
    level, level_entry, level_key, level_spec, list, runners, single_ident, string_lit, tag, text,
};
use mcp_tailor_model::errors::did_you_mean;
use mcp_tailor_model::rules;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, Token};

/// The keys that may stand inside a description list besides level entries.
const LIST_KEYS: &[&str] = &["default", "default_verbosity"];

/// A field's `#[mcp(...)]`.
pub fn desc_spec(args: &DescArgs, errors: &mut CompileErrors) -> DescSpec {
    DescSpec {
        description: value(&args.description, errors, |e, errors| {
            desc_value(e, false, errors)
        })
        .flatten(),
        descriptions: value(&args.descriptions, errors, descriptions).unwrap_or_default(),
        verbosity_map: value(&args.verbosity_map, errors, verbosity_map).unwrap_or_default(),
        runners: value(&args.runners, errors, runners).unwrap_or_default(),
        allow_dead: Allow::dead_variants(&args.allow),
        // The DSL always gap-fills: the nearest level answers.
        overlay: false,
    }
}

/// `description!(...)`, the tool's own description keys, and `#[mcp_args(...)]`: a
/// description site that may name the crate.
pub fn site_spec(args: &SiteArgs, errors: &mut CompileErrors) -> Site {
    Site {
        krate: value(&args.krate, errors, crate_path).flatten(),
        spec: desc_spec(&args.desc, errors),
    }
}

/// `#[mcp_tool(...)]`.
pub fn tool_attr(args: ToolArgs, errors: &mut CompileErrors) -> ToolAttr {
    ToolAttr {
        name: value(&args.name, errors, |e, errors| {
            string_lit(e, "a tool name", errors)
        })
        .flatten(),
        title: value(&args.title, errors, |e, errors| desc_value(e, true, errors)).flatten(),
        desc: site_spec(&args.site, errors),
        annotations: args.annotations.and_then(|a| annotations(a, errors)),
        scopes: value(&args.scopes, errors, scopes).unwrap_or_default(),
    }
}

/// `#[mcp_args(...)]`: only `crate` and `allow`; descriptions belong on the fields.
pub fn args_attr(args: &SiteArgs, errors: &mut CompileErrors) -> Site {
    let d = &args.desc;
    for value in [
        &d.description,
        &d.descriptions,
        &d.verbosity_map,
        &d.runners,
    ]
    .into_iter()
    .flatten()
    {
        errors.at(
            &value.key,
            "`#[mcp_args]` takes only `crate = path` and `allow(dead_variants)`; put descriptions on the fields with `#[mcp(...)]`",
        );
    }
    Site {
        spec: DescSpec {
            allow_dead: Allow::dead_variants(&d.allow),
            ..DescSpec::default()
        },
        krate: value(&args.krate, errors, crate_path).flatten(),
    }
}

/// `crate = path` (or `crate = "path"`).
fn crate_path(expr: &Expr, errors: &mut CompileErrors) -> Option<syn::Path> {
    match expr {
        Expr::Path(p) if p.qself.is_none() => Some(p.path.clone()),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => match s.parse() {
            Ok(path) => Some(path),
            Err(_) => {
                errors.at(s, "expected a path such as `my_crate::mcp_tailor`");
                None
            }
        },
        other => {
            errors.at(other, "expected a path such as `my_crate::mcp_tailor`");
            None
        }
    }
}

fn annotations(
    nested: Nested<AnnotationArgs>,
    errors: &mut CompileErrors,
) -> Option<AnnotationsAttr> {
    let args = match nested {
        Nested::List(list) => list.report(errors),
        Nested::Misformed(path) => {
            errors.at(
                path,
                "write `annotations(title = …, read_only_hint = …, …)`",
            );
            return None;
        }
    };
    let title = value(&args.title, errors, |e, errors| match text(e, errors)? {
        Text::Nothing(none) => {
            errors.at(
                &none,
                "an annotation title is a text; leave `title` out of `annotations(...)` for none",
            );
            None
        }
        title => Some(title),
    });
    Some(AnnotationsAttr {
        title: title.flatten(),
        hints: args.hints,
    })
}

/// `scopes = ["a", "b" | "c"]`: every entry is required; `|` separates alternatives.
fn scopes(expr: &Expr, errors: &mut CompileErrors) -> Vec<Vec<String>> {
    let form = "`scopes = [\"scope\", \"alt\" | \"other\", …]`";
    list(expr, form, errors, |item, errors| {
        let mut group = Vec::new();
        scope_alternatives(item, &mut group, errors);
        (!group.is_empty()).then_some(group)
    })
}

fn scope_alternatives(expr: &Expr, group: &mut Vec<String>, errors: &mut CompileErrors) {
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

/// `description = T | [...]` and `title = T | [...]`.
fn desc_value(expr: &Expr, is_title: bool, errors: &mut CompileErrors) -> Option<DescValue> {
    match expr {
        Expr::Array(list) => Some(DescValue::List(desc_list(&list.elems, is_title, errors))),
        other => text(other, errors).map(DescValue::Bare),
    }
}

fn desc_list(
    items: &Punctuated<Expr, Token![,]>,
    is_title: bool,
    errors: &mut CompileErrors,
) -> DescList {
    let mut list = DescList::default();
    let mut seen = Vec::new();
    for item in items {
        match item {
            Expr::Tuple(pair) if pair.elems.len() == 2 => {
                list.entries.extend(level_entry(pair, errors, text));
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
                            errors.at(&key, rules::given_twice_in_list(&name));
                            continue;
                        }
                        seen.push(name.clone());
                        if name == "default" {
                            list.default = text(&assign.right, errors);
                        } else {
                            list.default_verbosity = level(&assign.right, errors);
                        }
                    }
                    "descriptions" | "verbosity_map" | "runners" => {
                        errors.at(&key, rules::misplaced_key(&name, is_title));
                    }
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
fn descriptions(expr: &Expr, errors: &mut CompileErrors) -> Vec<(Tag, Text)> {
    let form = "`descriptions = [tag = \"text\", …]`";
    list(expr, form, errors, |item, errors| {
        let Expr::Assign(assign) = item else {
            errors.at(item, "malformed variant; write `tag = \"text\"`");
            return None;
        };
        let tag = tag(&assign.left, errors);
        let text = text(&assign.right, errors);
        tag.zip(text)
    })
}

/// `verbosity_map = [(S, tag), …]` (`verbosity(S)` accepted too).
fn verbosity_map(expr: &Expr, errors: &mut CompileErrors) -> Vec<(LevelSpec, Tag)> {
    list(
        expr,
        "`verbosity_map = [(S, tag), …]`",
        errors,
        |item, errors| {
            let pair = match item {
                Expr::Tuple(pair) if pair.elems.len() == 2 => pair,
                other => {
                    errors.at(other, "malformed map entry; write `(S, tag)`");
                    return None;
                }
            };
            let spec = match &pair.elems[0] {
                call @ Expr::Call(_) => level_key(call, errors),
                bare => level_spec(bare, errors),
            };
            let tag = tag(&pair.elems[1], errors);
            spec.zip(tag)
        },
    )
}
