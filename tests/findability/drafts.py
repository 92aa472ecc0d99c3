"""What `init` drafts of every captured catalog (BENCHMARKS.md §8): level 0's saving, the
rules of the server's words and how many level 0 keeps, the level-0 descriptions over the
bound, and what `check --catalog` (init's audit) finds broken. With --before BIN, the same
of another build's drafts (an older `mcp-tailor`), audited by this one.

Usage: python3 drafts.py MCP_TAILOR [--before OLD_MCP_TAILOR]"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
INIT = HERE.parent.parent / "cli" / "tests" / "init"
CATALOGS = sorted(INIT.glob("*.json")) + sorted(HERE.glob("*.json"))


def drafted(binary: str, catalog: Path, out: Path) -> str:
    """`init --catalog` of `catalog` to `out`: its stderr."""
    run = subprocess.run(
        [binary, "init", "--catalog", str(catalog), "--out", str(out)],
        capture_output=True, text=True, check=True,
    )
    return run.stderr


def saving(report: str) -> tuple[int, int]:
    """Level 0's tokens before and after, from `init`'s cost table."""
    row = re.search(r"^\s*0\s+(\d+)\s+(\d+)\s", report, re.M)
    return int(row.group(1)), int(row.group(2))


def audit(binary: str, draft: Path, catalog: Path) -> dict[str, int]:
    """What `check --catalog` finds of `draft`: broken promises per kind, over the bound."""
    run = subprocess.run(
        [binary, "check", str(draft), "--catalog", str(catalog)],
        capture_output=True, text=True,
    )
    lines = [l for l in run.stderr.splitlines() if l.startswith("drafted words:")]
    kinds = {
        "not own": "says what is not the server's own sentences",
        "rule dropped": "drops a rule",
        "orphan": "without what it refers to",
        "grows": "is longer than the level above it",
        "over": "tokens, over",
    }
    return {k: sum(needle in l for l in lines) for k, needle in kinds.items()}


def main() -> None:
    binary = sys.argv[1]
    before = sys.argv[sys.argv.index("--before") + 1] if "--before" in sys.argv else None
    print("| catalog | tools | own tokens | level 0 | saved | rules kept at 0 | over 48 (rules) "
          "| broken: not own / rule dropped / orphan / grows |")
    print("|---|---|---|---|---|---|---|---|")
    own_total, zero_totals, broken_totals = 0, None, None
    with tempfile.TemporaryDirectory() as tmp:
        for catalog in CATALOGS:
            name = catalog.stem
            row = []
            for build in ([before] if before else []) + [binary]:
                out = Path(tmp) / f"{name}.toml"
                report = drafted(build, catalog, out)
                own, zero = saving(report)
                found = audit(binary, out, catalog)
                rules = re.search(r"rules: (\d+) of (\d+) kept", report)
                row.append((own, zero, found, rules))
            own, zero, found, rules = row[-1]
            own_total += own
            zero_totals = [z + r[1] for z, r in zip(zero_totals or [0] * len(row), row)]
            broken_totals = [
                b + sum(r[2][k] for k in ("not own", "rule dropped", "orphan", "grows"))
                for b, r in zip(broken_totals or [0] * len(row), row)
            ]
            tools = report.split(" of ", 1)[1].split(" tool")[0] if " of " in report else "?"

            def cell(pick):
                cells = [pick(r) for r in row]
                return " → ".join(cells)

            saved = cell(lambda r: f"{100 * (1 - r[1] / r[0]):.1f}%")
            broken = cell(lambda r: "{} / {} / {} / {}".format(
                r[2]["not own"], r[2]["rule dropped"], r[2]["orphan"], r[2]["grows"]))
            kept = f"{rules.group(1)} of {rules.group(2)}" if rules else "—"
            over = cell(lambda r: str(r[2]["over"]))
            print(f"| {name} | {tools} | {own:,} | {cell(lambda r: f'{r[1]:,}')} | {saved} "
                  f"| {kept} | {over} | {broken} |")
    zeros = " → ".join(f"{z:,}" for z in zero_totals)
    saved = " → ".join(f"{100 * (1 - z / own_total):.1f}%" for z in zero_totals)
    broken = " → ".join(str(b) for b in broken_totals)
    print(f"| **all** | | {own_total:,} | {zeros} | {saved} | | | {broken} in all |")


if __name__ == "__main__":
    main()
