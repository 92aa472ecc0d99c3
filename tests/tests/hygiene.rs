//! The expansions name everything by absolute path: they compile with `Option`, `Some`,
//! `Result`, `Ok` and `str` shadowed, under `#![deny(warnings, unused_qualifications)]`,
//! through `crate = path` as well as directly. (serde's and schemars' derives do not
//! survive a shadowed `str`, so the schema impls are written by hand in a module of their
//! own.)
#![deny(warnings, unused_qualifications)]

#[allow(non_camel_case_types, dead_code)]
mod shadows {
    pub struct Option;
    pub struct Some;
    pub struct Result;
    pub struct Ok;
    pub struct None;
    pub struct str;
    pub struct Description;
}

#[allow(unused_imports)]
use shadows::{Description, None, Ok, Option, Result, Some, str};

const TEXT: &::core::primitive::str = "from a const";

/// Shadowed everything.
#[mcp_tailor::mcp_tool(
    allow(dead_variants),
    name = "hygienic",
    title = [(verbosity(0), "H"), default = "Hygienic"],
    description = [(verbosity(0..=4), TEXT), (verbosity(9), concat!("rich", " text")), default_verbosity = 2],
    descriptions = [v = "variant"],
    verbosity_map = [(0, v)],
    runners = [((codex, ["5.4", spark]), [default = v])],
    annotations(title = "Hygienic", read_only_hint = true),
    scopes = ["a", "b" | "c"],
)]
pub struct Hygienic {
    /// A field.
    #[mcp(description = [(verbosity(0), "f"), default = "field"])]
    #[allow(dead_code)]
    pub field: ::std::string::String,
}

mod schema {
    use std::borrow::Cow;

    impl schemars::JsonSchema for super::Hygienic {
        fn schema_name() -> Cow<'static, str> {
            "Hygienic".into()
        }
        fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            schemars::json_schema!({
                "type": "object",
                "properties": { "field": { "type": "string", "description": "A field." } },
                "required": ["field"],
            })
        }
    }
}

static GUIDE: mcp_tailor::Description = mcp_tailor::description!(
    description = [(verbosity(0), "g0"), (verbosity(9), TEXT)],
    runners = [((_, _), [])],
);

#[test]
fn expansions_compile_and_work_with_shadowed_names() {
    use mcp_tailor::{McpTool, RenderCtx};
    let ctx = RenderCtx::new().verbosity(9);
    assert_eq!(Hygienic::NAME, "hygienic");
    assert_eq!(
        <Hygienic as McpTool>::description(&ctx),
        ::core::option::Option::Some("variant")
    );
    assert_eq!(
        GUIDE.resolve(&ctx),
        ::core::option::Option::Some("from a const")
    );
    let tool = Hygienic::render(&RenderCtx::new().verbosity(0));
    assert_eq!(
        tool["inputSchema"]["properties"]["field"]["description"],
        "f"
    );
}

/// `#[mcp_args]` and `crate = path` under the same shadows (but `str`, which serde's and
/// schemars' derives, needed by `#[mcp_args]`, do not survive).
mod args {
    #[allow(unused_imports)]
    use super::shadows::{Description, None, Ok, Option, Result, Some};

    mod reexport {
        pub use mcp_tailor as tailoring;
    }

    #[mcp_tailor::mcp_args(crate = self::reexport::tailoring)]
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Filter {
        #[mcp(description = [(verbosity(0), "t"), (verbosity(9), "The tag.")])]
        #[allow(dead_code)]
        pub tag: ::std::string::String,
    }

    /// Uses the filter.
    #[mcp_tailor::mcp_tool(crate = self::reexport::tailoring)]
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct UsesFilter {
        #[allow(dead_code)]
        pub filter: ::core::option::Option<Filter>,
    }

    #[test]
    fn argument_types_and_crate_paths_compile_with_shadowed_names() {
        use mcp_tailor::{McpTool, RenderCtx};
        let tool = UsesFilter::render(&RenderCtx::new().verbosity(0));
        assert_eq!(
            tool["inputSchema"]["$defs"]["Filter"]["properties"]["tag"]["description"],
            "t"
        );
    }
}
