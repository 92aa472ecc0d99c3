use mcp_tailor::mcp_args;

#[mcp_args(description = "a filter")]
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Filter {
    tag: String,
}

fn main() {}
