//! The nginx excerpt of `deploy/README.md` is the shipped configuration's: every line of its
//! `nginx` block is a line of `deploy/nginx/mcp-tailor.conf`, the file `robustness replicas`
//! runs real nginx with, so the guide cannot drift from what was tested.

const README: &str = include_str!("../../deploy/README.md");
const SHIPPED: &str = include_str!("../../deploy/nginx/mcp-tailor.conf");

#[test]
fn every_line_of_the_readme_nginx_excerpt_is_in_the_shipped_configuration() {
    let (_, rest) = README
        .split_once("```nginx\n")
        .expect("deploy/README.md shows the nginx configuration");
    let (excerpt, _) = rest.split_once("```").expect("the block ends");
    let shipped: Vec<&str> = SHIPPED.lines().map(str::trim).collect();
    let lines: Vec<&str> = excerpt
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(lines.len() > 10, "{excerpt}");
    for line in lines {
        assert!(
            shipped.contains(&line),
            "deploy/README.md line not in the shipped file: {line}"
        );
    }
}
