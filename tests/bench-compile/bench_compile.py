"""Compile-time benchmark: `cargo check` of N tools in three flavours, side by side.

(a) `plain`:  N argument structs with only the serde and schemars derives;
(b) `tailor`: the same structs with `#[mcp_tool]` carrying 4 level entries, 2 runners and
              2 annotated fields each;
(c) `rmcp`:   the same N tools as rmcp `#[tool]` functions over the same structs.

With `BASELINE=/path/to/another/checkout`, a fourth flavour `baseline` is flavour (b)
against that checkout's runtime, in a workspace of its own, timed in the same rounds: the
way to compare two versions of the macros side by side.
"""

import os
import pathlib
import statistics
import subprocess
import sys
import time

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]


def struct(i: int, tailored: bool) -> str:
    head = ""
    if tailored:
        head = (
            f'#[mcp_tailor::mcp_tool(name = "tool_{i}", description = [(verbosity(0), "T{i}."), '
            f'(verbosity(3), "Tool {i}, briefly."), (verbosity(6), "Tool {i} does its thing."), '
            f'(verbosity(9), "Tool {i} does its thing, in every detail.")], '
            f'descriptions = [codex_v = "tool_{i}(a, b)", grok_v = "Tool {i}: plain words only."], '
            f'runners = [((codex, _), [default = codex_v]), ((grok, _), [(verbosity(0..=9), grok_v)])])]\n'
        )
    field_a = '    #[mcp(description = [(verbosity(0), "a"), (verbosity(9), "The first argument, in full.")])]\n' if tailored else ""
    field_b = '    #[mcp(description = [(verbosity(0), "b"), (verbosity(9), "The second argument, in full.")])]\n' if tailored else ""
    return (
        f"/// Tool {i}.\n{head}#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]\npub struct Tool{i} {{\n"
        f"    /// The first argument.\n{field_a}    pub a: String,\n"
        f"    /// The second argument.\n{field_b}    pub b: Option<u32>,\n}}\n\n"
    )


def write(root: pathlib.Path, name: str, deps: str, body: str) -> None:
    crate = root / name
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "bench-{name}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n'
        f'serde = {{ version = "1", features = ["derive"] }}\nschemars = "1"\n{deps}'
    )
    (crate / "src" / "lib.rs").write_text("#![allow(dead_code)]\n\n" + body)


def generate_baseline(root: pathlib.Path, n: int, baseline: pathlib.Path) -> None:
    """Writes flavour (b) against another checkout's runtime, in a workspace of its own."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "Cargo.toml").write_text('[workspace]\nresolver = "3"\nmembers = ["baseline"]\n')
    write(
        root,
        "baseline",
        f'mcp-tailor = {{ path = "{baseline / "runtime"}", default-features = false }}\n',
        "".join(struct(i, True) for i in range(n)),
    )


def generate(root: pathlib.Path, n: int) -> None:
    """Writes the three crates and their workspace under `root`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "Cargo.toml").write_text('[workspace]\nresolver = "3"\nmembers = ["plain", "tailor", "rmcp"]\n')
    write(root, "plain", "", "".join(struct(i, False) for i in range(n)))
    write(
        root,
        "tailor",
        f'mcp-tailor = {{ path = "{WORKSPACE / "runtime"}", default-features = false }}\n',
        "".join(struct(i, True) for i in range(n)),
    )
    methods = "".join(
        f'    #[tool(name = "tool_{i}", description = "Tool {i} does its thing.")]\n'
        f"    async fn tool_{i}(&self, Parameters(_args): Parameters<Tool{i}>) -> String {{ String::new() }}\n"
        for i in range(n)
    )
    write(
        root,
        "rmcp",
        'rmcp = { version = "3.11", default-features = false, features = ["server", "macros"] }\n',
        "use rmcp::handler::server::wrapper::Parameters;\nuse rmcp::{ServerHandler, tool, tool_handler, tool_router};\n\n"
        + "".join(struct(i, False) for i in range(n))
        + f"#[derive(Clone)]\npub struct Server;\n\n#[tool_router]\nimpl Server {{\n{methods}}}\n\n#[tool_handler]\nimpl ServerHandler for Server {{}}\n",
    )


def check_in(root: pathlib.Path, crate: str, env: dict) -> float:
    """Wall time of one non-incremental `cargo check` of the crate alone."""
    (root / crate / "src" / "lib.rs").touch()
    start = time.perf_counter()
    subprocess.run(["cargo", "check", "-q", "-p", f"bench-{crate}"], cwd=root, env=env, check=True)
    return time.perf_counter() - start


def expanded_lines(root: pathlib.Path, crate: str, env: dict) -> int:
    """Lines of the macro-expanded crate (rustc -Zunpretty=expanded; RUSTC_BOOTSTRAP only
    unlocks the flag for counting)."""
    out = subprocess.run(
        ["cargo", "rustc", "-q", "-p", f"bench-{crate}", "--profile", "check", "--", "-Zunpretty=expanded"],
        cwd=root,
        env={**env, "RUSTC_BOOTSTRAP": "1"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return len(out.splitlines())


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    root = WORKSPACE / "target" / "bench-compile"
    generate(root, n)
    roots = {crate: root for crate in ("plain", "tailor", "rmcp")}
    baseline = os.environ.get("BASELINE")
    if baseline:
        roots["baseline"] = WORKSPACE / "target" / "bench-compile-baseline"
        generate_baseline(roots["baseline"], n, pathlib.Path(baseline).resolve())
    base_env = {**os.environ, "CARGO_INCREMENTAL": "0"}
    env_of = {crate: {**base_env, "CARGO_TARGET_DIR": str(r / "target")} for crate, r in roots.items()}
    for r in set(roots.values()):  # dependencies, once
        env = {**base_env, "CARGO_TARGET_DIR": str(r / "target")}
        subprocess.run(["cargo", "check", "-q", "--workspace"], cwd=r, env=env, check=True)
    crates = tuple(roots)
    for crate in crates:  # settle per-package feature resolution before timing
        check_in(roots[crate], crate, env_of[crate])
    # Interleaved rounds, so drift on a shared machine hits every flavour alike.
    samples = {crate: [] for crate in crates}
    for _ in range(runs):
        for crate in crates:
            samples[crate].append(check_in(roots[crate], crate, env_of[crate]))
    medians, lines = {}, {}
    for crate in crates:
        medians[crate] = statistics.median(samples[crate])
        lines[crate] = expanded_lines(roots[crate], crate, env_of[crate])
        s = samples[crate]
        print(
            f"{crate:<7} median {medians[crate]:6.2f} s  (min {min(s):.2f}, max {max(s):.2f}, {runs} runs)"
            f"   expanded lines {lines[crate]:>7} ({lines[crate] // n} per tool)"
        )
    print(f"tailor / plain = {medians['tailor'] / medians['plain']:.3f}   (target <= 1.10)")
    print(f"tailor / rmcp  = {medians['tailor'] / medians['rmcp']:.3f}   (target <= 1.00)")
    print(f"lines #[mcp_tool] adds per tool: {(lines['tailor'] - lines['plain']) // n}")
    if "baseline" in medians:
        print(f"baseline / plain = {medians['baseline'] / medians['plain']:.3f}   (the checkout in BASELINE)")


if __name__ == "__main__":
    main()
