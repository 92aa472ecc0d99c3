//! Where the macro's own time goes, stage by stage, on the compile-time benchmark's tools
//! (`tests/bench-compile`): `cargo test -p mcp-tailor-macros stage_times -- --ignored
//! --nocapture` (a debug build, as `cargo check` builds proc macros). It prints; it asserts
//! nothing about time.

use crate::attr::{self, ToolArgs};
use crate::errors::CompileErrors;
use crate::{expand, input, parse, valid};
use proc_macro2::TokenStream;
use quote::quote;
use std::time::{Duration, Instant};

/// The benchmark's tool `i`: its attribute and its struct.
fn bench_tool(i: usize) -> (TokenStream, TokenStream) {
    let name = format!("tool_{i}");
    let (t0, t3, t6, t9) = (
        format!("T{i}."),
        format!("Tool {i}, briefly."),
        format!("Tool {i} does its thing."),
        format!("Tool {i} does its thing, in every detail."),
    );
    let (codex, grok) = (
        format!("tool_{i}(a, b)"),
        format!("Tool {i}: plain words only."),
    );
    let attr = quote! {
        name = #name,
        description = [(verbosity(0), #t0), (verbosity(3), #t3), (verbosity(6), #t6), (verbosity(9), #t9)],
        descriptions = [codex_v = #codex, grok_v = #grok],
        runners = [((codex, _), [default = codex_v]), ((grok, _), [(verbosity(0..=9), grok_v)])]
    };
    let ident = quote::format_ident!("Tool{}", i);
    let item = quote! {
        /// A tool.
        #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
        pub struct #ident {
            /// The first argument.
            #[mcp(description = [(verbosity(0), "a"), (verbosity(9), "The first argument, in full.")])]
            pub a: String,
            /// The second argument.
            #[mcp(description = [(verbosity(0), "b"), (verbosity(9), "The second argument, in full.")])]
            pub b: Option<u32>,
        }
    };
    (attr, item)
}

#[test]
#[ignore = "prints timings; run on demand"]
fn stage_times() {
    let tools: Vec<_> = (0..200).map(bench_tool).collect();
    let stages = [
        "syn item",
        "darling keys",
        "grammar",
        "struct + serde names",
        "validate",
        "tables + expand",
        "to string",
    ];
    let mut spent = [Duration::ZERO; 7];
    let mut lap = |stage: usize, start: &mut Instant| {
        spent[stage] += start.elapsed();
        *start = Instant::now();
    };
    let whole = Instant::now();
    for (attr_tokens, item_tokens) in &tools {
        let mut t = Instant::now();
        let item: syn::ItemStruct = syn::parse2(item_tokens.clone()).unwrap();
        lap(0, &mut t);
        let mut errors = CompileErrors::default();
        let args: ToolArgs = attr::read(attr_tokens.clone(), &mut errors);
        lap(1, &mut t);
        let attr = parse::tool_attr(args, &mut errors);
        lap(2, &mut t);
        let input = input::tool_input(
            item,
            item_tokens.clone(),
            "#[mcp_tool]",
            "a tool argument",
            &mut errors,
        );
        lap(3, &mut t);
        let tool = valid::tool(attr, &input, &mut errors).unwrap();
        lap(4, &mut t);
        let tokens = expand::tool(tool, &input, &quote!(::mcp_tailor));
        lap(5, &mut t);
        std::hint::black_box(tokens.to_string());
        lap(6, &mut t);
    }
    let total = whole.elapsed();
    println!("200 tools in {:.1} ms", total.as_secs_f64() * 1e3);
    for (stage, time) in stages.iter().zip(spent) {
        println!(
            "  {stage:<22} {:>7.2} ms  {:>5.1}%",
            time.as_secs_f64() * 1e3,
            100.0 * time.as_secs_f64() / total.as_secs_f64()
        );
    }
}

#[test]
#[ignore = "prints timings; run on demand"]
fn darling_read_times() {
    use darling::FromMeta;
    let tools: Vec<_> = (0..200).map(bench_tool).collect();
    let t = Instant::now();
    for (attr, _) in &tools {
        std::hint::black_box(syn::parse2::<syn::Expr>(quote!([#attr])).unwrap());
    }
    println!(
        "syn Expr parse     {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    let lists: Vec<_> = tools
        .iter()
        .map(|(attr, _)| darling::ast::NestedMeta::parse_meta_list(attr.clone()).unwrap())
        .collect();
    println!(
        "parse_meta_list    {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    for (attr, _) in &tools {
        std::hint::black_box(crate::exprs::meta_list(attr.clone()).unwrap());
    }
    println!(
        "exprs::meta_list   {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let t = Instant::now();
    for items in &lists {
        std::hint::black_box(ToolArgs::from_list(items).unwrap());
    }
    println!(
        "from_list          {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
}
