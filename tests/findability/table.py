"""The findability table of BENCHMARKS.md: for each of five pinned catalogs, what `init`'s
level 0 saves in tokens and what it keeps of hit@3, per search, against tasks written as
users ask. Usage: python3 table.py MCP_TAILOR WORDLLAMA_DIR [--save FRACTION]

With --save, each draft is made with `init --fit 0..=2=N`, N the server's own tokens less
FRACTION of them (or its structure floor, where that is more).

"model reads" counts only what harnesses put in a model's context: each tool's name,
description and input schema (Claude Code and opencode drop `outputSchema`, `annotations`,
`title` and `execution`: claude-code #54197, #90150, opencode #27577)."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
INIT = HERE.parent.parent / "cli" / "tests" / "init"
SERVERS = [
    ("filesystem", INIT / "server-filesystem.json", INIT / "filesystem-tasks.toml"),
    ("github", INIT / "server-github.json", INIT / "github-tasks.toml"),
    ("memory", HERE / "server-memory.json", HERE / "memory-tasks.toml"),
    ("git", HERE / "mcp-server-git.json", HERE / "git-tasks.toml"),
    ("playwright", HERE / "playwright-mcp.json", HERE / "playwright-tasks.toml"),
]
SEARCHES = ["codex", "fastmcp", "embedding"]
MODEL_READS = ("name", "description", "inputSchema")


def model_reads(binary: str, draft: Path, catalog: Path, tmp: str) -> tuple[int, int]:
    """The tokens of the fields a model reads (MODEL_READS) of `catalog`'s listing under
    `draft`: the server's own words (level 9), then level 0."""
    tools = json.loads(catalog.read_text())
    tools = tools["tools"] if isinstance(tools, dict) else tools
    read = Path(tmp) / "model-reads.json"
    read.write_text(json.dumps({"tools": [{k: t[k] for k in MODEL_READS if k in t} for t in tools]}))
    out = subprocess.run(
        [binary, "inspect", "--tailoring", str(draft), "--catalog", str(read), "tokens", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    level = {row["level"]: row["tokens"] for row in json.loads(out)["-"]}
    return level[9], level[0]


def main() -> None:
    binary, model = sys.argv[1], sys.argv[2]
    save = float(sys.argv[4]) if sys.argv[3:4] == ["--save"] else None
    rows, own_total, zero_total, reads_total = [], 0, 0, [0, 0]
    means = {s: [0.0, 0.0] for s in SEARCHES}
    for name, catalog, tasks in SERVERS:
        with tempfile.TemporaryDirectory() as tmp:
            draft = Path(tmp) / "draft.toml"
            env = {**os.environ, "MCP_TAILOR_EMBEDDING": model}
            init_args = []
            if save is not None:
                plain = subprocess.run(
                    [binary, "init", "--catalog", str(catalog)],
                    check=True, capture_output=True, text=True, env=env,
                ).stderr
                own = int(plain.split("\n    0 ")[1].split()[0])
                floor = int(plain.split("no words): ")[1].split()[0])
                init_args = ["--fit", f"0..=2={max(floor, round(own * (1 - save)))}"]
            subprocess.run(
                [binary, "init", "--catalog", str(catalog), "--out", str(draft), *init_args],
                check=True, capture_output=True, env=env,
            )
            out = subprocess.run(
                [binary, "inspect", "--tailoring", str(draft), "--catalog", str(catalog),
                 "eval", "--tasks", str(tasks), "--search", "all", "--embedding-model", model,
                 "--top", "3", "--json"],
                capture_output=True, text=True,  # exits 1 where a level loses a task
            ).stdout
            reads = model_reads(binary, draft, catalog, tmp)
        reads_total = [reads_total[0] + reads[0], reads_total[1] + reads[1]]
        report = {s["search"]: s["readers"]["-"] for s in json.loads(out)["searches"]}
        level = {s: {row["level"]: row for row in report[s]} for s in SEARCHES}
        own, zero = level["codex"][9]["tokens"], level["codex"][0]["tokens"]
        own_total, zero_total = own_total + own, zero_total + zero
        cells = []
        for s in SEARCHES:
            hits = [sum(1 for t in level[s][lv]["tasks"] if t["rank"] and t["rank"] <= 3) for lv in (9, 0)]
            count = len(level[s][9]["tasks"])
            means[s][0] += hits[0] / count / len(SERVERS)
            means[s][1] += hits[1] / count / len(SERVERS)
            cells.append(f"{hits[0] / count:.2f} → {hits[1] / count:.2f} ({hits[1] - hits[0]:+d})")
        rows.append(f"| {name} | {count} | {own:,} | {zero:,} | {1 - zero / own:.1%} | "
                    f"{reads[0]:,} → {reads[1]:,} | {1 - reads[1] / reads[0]:.1%} | " + " | ".join(cells) + " |")
    print("| server | tasks | own tokens | level 0 | saved | model reads | saved | codex hit@3 | fastmcp hit@3 | embedding hit@3 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    mean = " | ".join(f"{means[s][0]:.2f} → {means[s][1]:.2f} ({means[s][1] - means[s][0]:+.2f})" for s in SEARCHES)
    print(f"| **pooled / mean** | | {own_total:,} | {zero_total:,} | {1 - zero_total / own_total:.1%} | "
          f"{reads_total[0]:,} → {reads_total[1]:,} | {1 - reads_total[1] / reads_total[0]:.1%} | {mean} |")


if __name__ == "__main__":
    main()
