use mcp_tailor::mcp_args;

#[mcp_args]
#[derive(serde::Deserialize, schemars::JsonSchema)]
enum Filter {
    Tag(String),
}

fn main() {}
