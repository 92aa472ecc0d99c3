"""Cold-build benchmark: a crate with one `#[mcp_tool]`, built from nothing, side by side.

(a) `plain`:    the same struct with only the serde and schemars derives;
(b) `tailor`:   `mcp-tailor` with its default features, this checkout;
(c) `baseline`: the same against another checkout (`BASELINE=/path`), when given.

Each round builds every flavour in a target directory of its own, emptied first, with the
workspace's `Cargo.lock` (so both sides build the same versions). Rounds interleave, so
drift on a shared machine hits every flavour alike. Prints the medians and the number of
crates each build compiled.

usage: python3 tests/bench-compile/cold.py [RUNS]
"""

import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import time

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]

TOOL = """/// Search the notes.
#[mcp_tailor::mcp_tool(description = [(verbosity(0), "Search notes."), (verbosity(9), "Search every note.")])]
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchNotes {
    /// Words to look for.
    pub query: String,
}
"""

PLAIN = """/// Search the notes.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchNotes {
    /// Words to look for.
    pub query: String,
}
"""


def write(root: pathlib.Path, runtime: pathlib.Path | None) -> None:
    """A one-crate workspace under `root`: the plain struct, or the tool against `runtime`."""
    shutil.rmtree(root, ignore_errors=True)
    (root / "src").mkdir(parents=True)
    dep = f'mcp-tailor = {{ path = "{runtime}" }}\n' if runtime else ""
    (root / "Cargo.toml").write_text(
        '[package]\nname = "cold"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        '[dependencies]\nserde = { version = "1", features = ["derive"] }\n'
        f'schemars = "1"\n{dep}\n[workspace]\n'
    )
    (root / "src" / "lib.rs").write_text(TOOL if runtime else PLAIN)
    shutil.copy(WORKSPACE / "Cargo.lock", root / "Cargo.lock")


def build(root: pathlib.Path) -> tuple[float, int]:
    """Wall time of a debug build from an empty target directory, and the crates it built."""
    target = root / "target"
    shutil.rmtree(target, ignore_errors=True)
    env = {**os.environ, "CARGO_INCREMENTAL": "0", "CARGO_TARGET_DIR": str(target)}
    start = time.perf_counter()
    out = subprocess.run(
        ["cargo", "build", "--offline", "--message-format", "json"],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    took = time.perf_counter() - start
    messages = (json.loads(line) for line in out.splitlines() if line.startswith("{"))
    crates = {m["package_id"] for m in messages if m.get("reason") == "compiler-artifact"}
    return took, len(crates)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    base = WORKSPACE / "target" / "bench-cold"
    flavours = {"plain": None, "tailor": WORKSPACE / "runtime"}
    if os.environ.get("BASELINE"):
        flavours["baseline"] = pathlib.Path(os.environ["BASELINE"]).resolve() / "runtime"
    for name, runtime in flavours.items():
        write(base / name, runtime)
        subprocess.run(["cargo", "fetch", "-q"], cwd=base / name, check=True)
    samples = {name: [] for name in flavours}
    crates = {}
    for _ in range(runs):
        for name in flavours:
            took, count = build(base / name)
            samples[name].append(took)
            crates[name] = count
    medians = {name: statistics.median(s) for name, s in samples.items()}
    for name, s in samples.items():
        print(f"{name:<8} median {medians[name]:6.1f} s  (min {min(s):.1f}, max {max(s):.1f}, {runs} runs)  {crates[name]} crates")
    print(f"tailor / plain = {medians['tailor'] / medians['plain']:.2f}")
    if "baseline" in medians:
        print(f"baseline / plain = {medians['baseline'] / medians['plain']:.2f}")
        print(f"tailor / baseline = {medians['tailor'] / medians['baseline']:.2f}")
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
