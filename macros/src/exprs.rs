//! A quick reader of the expressions the DSL is written in, for the attribute layer.
//!
//! `syn`'s expression parser accepts all of Rust, and in a debug build (the way `cargo
//! check` builds proc macros) reading a tool's attribute with it was most of the macro's
//! time. This reader builds the very same `syn::Expr` trees for the forms the DSL uses —
//! literals, paths, `_`, calls, macro calls, arrays, tuples, parentheses, ranges, `-`
//! and `key = value` — from the token trees directly; anything else (a method call, a
//! block, a cast…) goes to `syn` whole, so every tree the grammar sees, and every error it
//! reports, is the one `syn` would give. `tests` compares the two on every form.

use darling::ast::NestedMeta;
use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use syn::punctuated::Punctuated;
use syn::{Expr, Meta, Token};

/// The items of an attribute's list (`a = …, b(…), c`), as darling's own
/// `NestedMeta::parse_meta_list` reads them once every invisible group (what
/// `macro_rules!` wraps a `$x:literal` or an `$x:expr` in) is replaced by its contents: a DSL
/// written through a declarative macro reads exactly like one written by hand.
pub fn meta_list(tokens: TokenStream) -> syn::Result<Vec<NestedMeta>> {
    match quick_meta_list(&tokens) {
        Some(items) => Ok(items),
        None => NestedMeta::parse_meta_list(unwrap_invisible(tokens)),
    }
}

/// The items, when every one is of the DSL's forms; `None` sends the list to `syn`.
pub fn quick_meta_list(tokens: &TokenStream) -> Option<Vec<NestedMeta>> {
    let trees = trees(tokens.clone());
    let mut items = split(&trees, ',');
    // One trailing comma (or nothing at all) leaves an empty last item; any other empty
    // item is a mistake `syn` words.
    if items.last().is_some_and(|last| last.is_empty()) {
        items.pop();
    }
    items
        .into_iter()
        .map(|item| meta(item).map(NestedMeta::Meta))
        .collect()
}

/// `trees` split at each top-level `sep`; a trailing separator leaves an empty last part.
fn split(trees: &[TokenTree], sep: char) -> Vec<&[TokenTree]> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, tree) in trees.iter().enumerate() {
        if matches!(tree, TokenTree::Punct(p) if p.as_char() == sep && p.spacing() == Spacing::Alone)
        {
            parts.push(&trees[start..i]);
            start = i + 1;
        }
    }
    parts.push(&trees[start..]);
    parts
}

/// One list item: `path = expr`, `path(…)` or `path` (a key may be a keyword: `crate`).
fn meta(item: &[TokenTree]) -> Option<Meta> {
    let (path, rest) = path(item, true)?;
    match rest {
        [] => Some(Meta::Path(path)),
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => {
            let tokens = g.stream();
            if has_invisible(&tokens) {
                return None;
            }
            Some(Meta::List(syn::MetaList {
                path,
                delimiter: syn::MacroDelimiter::Paren(syn::token::Paren(g.delim_span())),
                tokens,
            }))
        }
        // `key = -1` as the last item is one negative literal to `syn`: left to it.
        [TokenTree::Punct(eq), value @ ..]
            if is_assign(eq, None)
                && !value.is_empty()
                && !matches!(value.first(), Some(TokenTree::Punct(m)) if m.as_char() == '-') =>
        {
            Some(Meta::NameValue(syn::MetaNameValue {
                path,
                eq_token: Token![=](eq.span()),
                value: expr(value)?,
            }))
        }
        _ => None,
    }
}

/// An expression of the DSL's forms, or `None` for anything else.
pub fn expr(trees: &[TokenTree]) -> Option<Expr> {
    // `=` binds loosest, then ranges; neither appears twice at one level in the DSL.
    if let Some(i) = (0..trees.len()).find(|&i| match &trees[i] {
        TokenTree::Punct(p) => is_assign(p, i.checked_sub(1).map(|j| &trees[j])),
        _ => false,
    }) {
        let TokenTree::Punct(eq) = &trees[i] else {
            return None;
        };
        return Some(Expr::Assign(syn::ExprAssign {
            attrs: Vec::new(),
            left: Box::new(unary(&trees[..i])?),
            eq_token: Token![=](eq.span()),
            right: Box::new(range(&trees[i + 1..])?),
        }));
    }
    range(trees)
}

/// Whether `p` is a lone `=` (not part of `==`, `..=`, `<=`, …), given the tree before it.
fn is_assign(p: &proc_macro2::Punct, before: Option<&TokenTree>) -> bool {
    let joined = matches!(before, Some(TokenTree::Punct(b)) if b.spacing() == Spacing::Joint);
    p.as_char() == '=' && p.spacing() == Spacing::Alone && !joined
}

/// `a..b`, `a..=b`, `..b`, `a..` or an operand.
fn range(trees: &[TokenTree]) -> Option<Expr> {
    let dots = (0..trees.len().saturating_sub(1)).find(|&i| {
        matches!((&trees[i], &trees[i + 1]),
            (TokenTree::Punct(a), TokenTree::Punct(b))
                if a.as_char() == '.' && a.spacing() == Spacing::Joint && b.as_char() == '.')
    });
    let Some(i) = dots else {
        return unary(trees);
    };
    let (TokenTree::Punct(first), TokenTree::Punct(second)) = (&trees[i], &trees[i + 1]) else {
        return None;
    };
    // `..=` is three joint puncts; after `..` any other punct (`...`, `..<`) is `syn`'s.
    let (limits, end_at) = match trees.get(i + 2) {
        Some(TokenTree::Punct(eq)) if second.spacing() == Spacing::Joint && eq.as_char() == '=' => {
            (
                syn::RangeLimits::Closed(Token![..=]([first.span(), second.span(), eq.span()])),
                i + 3,
            )
        }
        Some(TokenTree::Punct(_)) if second.spacing() == Spacing::Joint => return None,
        _ => (
            syn::RangeLimits::HalfOpen(Token![..]([first.span(), second.span()])),
            i + 2,
        ),
    };
    let operand = |part: &[TokenTree]| match part {
        [] => Some(None),
        part => unary(part).map(|e| Some(Box::new(e))),
    };
    let end = operand(&trees[end_at..])?;
    if end.is_none() && matches!(limits, syn::RangeLimits::Closed(_)) {
        return None;
    }
    Some(Expr::Range(syn::ExprRange {
        attrs: Vec::new(),
        start: operand(&trees[..i])?,
        limits,
        end,
    }))
}

/// `-operand` or an operand.
fn unary(trees: &[TokenTree]) -> Option<Expr> {
    match trees {
        [TokenTree::Punct(minus), rest @ ..] if minus.as_char() == '-' && !rest.is_empty() => {
            Some(Expr::Unary(syn::ExprUnary {
                attrs: Vec::new(),
                op: syn::UnOp::Neg(Token![-](minus.span())),
                expr: Box::new(operand(rest)?),
            }))
        }
        _ => operand(trees),
    }
}

/// A literal, a path, `_`, a call, a macro call, an array, a tuple or a parenthesized
/// expression.
fn operand(trees: &[TokenTree]) -> Option<Expr> {
    // An identifier's text crosses from the compiler on each `to_string`: once here.
    let word = match trees {
        [TokenTree::Ident(i)] => Some(i.to_string()),
        _ => None,
    };
    match trees {
        [TokenTree::Literal(lit)] => Some(lit_expr(syn::Lit::new(lit.clone()))),
        [TokenTree::Ident(i)] if matches!(word.as_deref(), Some("true" | "false")) => {
            Some(lit_expr(syn::Lit::Bool(syn::LitBool::new(
                word.as_deref() == Some("true"),
                i.span(),
            ))))
        }
        [TokenTree::Ident(i)] if word.as_deref() == Some("_") => {
            Some(Expr::Infer(syn::ExprInfer {
                attrs: Vec::new(),
                underscore_token: Token![_](i.span()),
            }))
        }
        [TokenTree::Group(g)] => group(g),
        _ => {
            let (path, rest) = path(trees, false)?;
            match rest {
                [] => Some(Expr::Path(syn::ExprPath {
                    attrs: Vec::new(),
                    qself: None,
                    path,
                })),
                [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => {
                    Some(Expr::Call(syn::ExprCall {
                        attrs: Vec::new(),
                        func: Box::new(Expr::Path(syn::ExprPath {
                            attrs: Vec::new(),
                            qself: None,
                            path,
                        })),
                        paren_token: syn::token::Paren(g.delim_span()),
                        args: elements(g)?.0,
                    }))
                }
                [TokenTree::Punct(bang), TokenTree::Group(g)] if bang.as_char() == '!' => {
                    let delimiter = match g.delimiter() {
                        Delimiter::Parenthesis => {
                            syn::MacroDelimiter::Paren(syn::token::Paren(g.delim_span()))
                        }
                        Delimiter::Bracket => {
                            syn::MacroDelimiter::Bracket(syn::token::Bracket(g.delim_span()))
                        }
                        Delimiter::Brace => {
                            syn::MacroDelimiter::Brace(syn::token::Brace(g.delim_span()))
                        }
                        Delimiter::None => return None,
                    };
                    let tokens = g.stream();
                    if has_invisible(&tokens) {
                        return None;
                    }
                    Some(Expr::Macro(syn::ExprMacro {
                        attrs: Vec::new(),
                        mac: syn::Macro {
                            path,
                            bang_token: Token![!](bang.span()),
                            delimiter,
                            tokens,
                        },
                    }))
                }
                _ => None,
            }
        }
    }
}

fn lit_expr(lit: syn::Lit) -> Expr {
    Expr::Lit(syn::ExprLit {
        attrs: Vec::new(),
        lit,
    })
}

/// `[…]`, `(…)`: an array, a tuple, or a parenthesized expression.
fn group(g: &Group) -> Option<Expr> {
    match g.delimiter() {
        Delimiter::Bracket => Some(Expr::Array(syn::ExprArray {
            attrs: Vec::new(),
            bracket_token: syn::token::Bracket(g.delim_span()),
            elems: elements(g)?.0,
        })),
        Delimiter::Parenthesis => {
            let (elems, trailing) = elements(g)?;
            if elems.len() == 1 && !trailing {
                let expr = elems.into_iter().next()?;
                return Some(Expr::Paren(syn::ExprParen {
                    attrs: Vec::new(),
                    paren_token: syn::token::Paren(g.delim_span()),
                    expr: Box::new(expr),
                }));
            }
            Some(Expr::Tuple(syn::ExprTuple {
                attrs: Vec::new(),
                paren_token: syn::token::Paren(g.delim_span()),
                elems,
            }))
        }
        _ => None,
    }
}

/// The comma-separated expressions of a group, and whether a comma ends them.
fn elements(g: &Group) -> Option<(Punctuated<Expr, Token![,]>, bool)> {
    let trees = trees(g.stream());
    let mut elems = Punctuated::new();
    let mut start = 0;
    for (i, tree) in trees.iter().enumerate() {
        if let TokenTree::Punct(comma) = tree
            && comma.as_char() == ','
        {
            elems.push_value(expr(&trees[start..i])?);
            elems.push_punct(Token![,](comma.span()));
            start = i + 1;
        }
    }
    let last = &trees[start..];
    if !last.is_empty() {
        elems.push_value(expr(last)?);
    }
    let trailing = !trees.is_empty() && last.is_empty();
    Some((elems, trailing))
}

/// A path of identifiers (`a`, `a::b`) at the front of `trees`, and the rest. No leading
/// `::`, no generic arguments, and keywords only where `keywords` says (an attribute key):
/// the rest goes to `syn`.
fn path(trees: &[TokenTree], keywords: bool) -> Option<(syn::Path, &[TokenTree])> {
    let mut segments = Punctuated::new();
    let mut at = 0;
    loop {
        let TokenTree::Ident(ident) = trees.get(at)? else {
            return None;
        };
        if !keywords && is_keyword(&ident.to_string()) {
            return None;
        }
        segments.push_value(syn::PathSegment::from(ident.clone()));
        at += 1;
        match (trees.get(at), trees.get(at + 1)) {
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':' =>
            {
                segments.push_punct(Token![::]([a.span(), b.span()]));
                at += 2;
            }
            _ => break,
        }
    }
    let path = syn::Path {
        leading_colon: None,
        segments,
    };
    Some((path, &trees[at..]))
}

/// Identifiers that `syn` reads as something other than a path segment (`self`, `crate`
/// and `super` are segments, but rare enough here to leave to `syn`).
fn is_keyword(word: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "_", "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else",
        "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
        "trait", "true", "try", "type", "unsafe", "use", "where", "while", "yield", "gen",
    ];
    KEYWORDS.contains(&word)
}

/// The trees of `tokens`, each invisible group's contents in its place (read only: nothing
/// is rebuilt, which is what makes this cheaper than rewriting the stream).
fn trees(tokens: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for tree in tokens {
        match tree {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.extend(trees(g.stream()))
            }
            other => out.push(other),
        }
    }
    out
}

/// Whether `tokens` holds an invisible group at any depth.
fn has_invisible(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|tree| match tree {
        TokenTree::Group(g) => g.delimiter() == Delimiter::None || has_invisible(&g.stream()),
        _ => false,
    })
}

/// `tokens` with every invisible group replaced by its contents, rebuilt for `syn`.
pub fn unwrap_invisible(tokens: TokenStream) -> TokenStream {
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
