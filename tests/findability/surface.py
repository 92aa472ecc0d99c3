"""The index surface beside mcp-compressor (BENCHMARKS.md §10): on every catalog, what the
client lists, what one task costs in context, and whether the task's tool is found.

Each captured catalog is served by `catalog_server.py` (its `tools/list` byte for byte)
and read three ways over stdio, by a raw JSON-RPC client (nothing re-encodes a result):
  * directly: the server's own `tools/list`;
  * through `mcp-tailor proxy --surface index` (with --embedding-model): its listing, and
    per task one `search_tools` answer with `limit` 3 (what a model reads before a typed
    call), and whether the task's tool is in it;
  * through `mcp-compressor -c low|medium|max` (pinned in tests/python/requirements.txt):
    its listing, and per task one `get_tool_schema` answer for the task's tool.
Lines (ours and mcp-compressor's) are ranked as tools of their own words by `mcp-tailor
inspect eval` with each of the three searches; the servers' own listing too.
Tokens are o200k_base, from the vocabulary file tiktoken-rs ships (as `inspect` counts).

usage: python surface.py MCP_TAILOR MCP_COMPRESSOR WORDLLAMA_DIR O200K_FILE [--check]
With --check, exits non-zero when a bar `bars` marks as held now is missed (a regression);
the bar still missed is printed, not enforced.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import tiktoken
import tiktoken.load
import tiktoken_ext.openai_public as openai_public

from table import HERE, SERVERS

# (name, catalog, tasks or None): the five with tasks (table.py's), and two pinned servers
# without.
CATALOGS = [
    *SERVERS,
    ("everything", HERE / "server-everything.json", None),
    ("time", HERE / "mcp-server-time.json", None),
]
SEARCHES = ["codex", "fastmcp", "embedding"]
# `--index-budget N%`: a share of the catalog's own `tools/list` for the lines' words,
# against what they find (beside the default, 7%).
BUDGETS = [0.04, 0.08, 0.15]
LEVELS = ["low", "medium", "max"]

TAILOR, COMPRESSOR, MODEL, O200K = sys.argv[1:5]
openai_public.load_tiktoken_bpe = lambda *_, **__: tiktoken.load.load_tiktoken_bpe(O200K)
ENCODING = tiktoken.Encoding(**openai_public.o200k_base())


def tokens(text: str) -> int:
    return len(ENCODING.encode_ordinary(text))


class Client:
    """A raw JSON-RPC client of a stdio MCP server: each result as the text it was sent."""

    def __init__(self, command: list[str], env: dict | None = None):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=env)
        self.next = 0
        self.ask("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                "clientInfo": {"name": "surface-bench", "version": "1.0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def ask(self, method: str, params: dict) -> tuple[str, dict]:
        """The result's text as sent, and the result."""
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        for line in self.process.stdout:
            message = json.loads(line)
            if message.get("id") == self.next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                text = line.strip()
                start = text.index('"result":') + len('"result":')
                return text[start:text.rindex("}")], message["result"]
        raise RuntimeError(f"{method}: the server closed")

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def tasks_of(path: Path) -> list[tuple[str, str]]:
    text = path.read_text()
    queries = re.findall(r'^query\s*=\s*"((?:[^"\\]|\\.)*)"', text, re.M)
    expects = re.findall(r'^expect\s*=\s*"([^"]*)"', text, re.M)
    assert len(queries) == len(expects) > 0, path
    return [(json.loads(f'"{q}"'), e) for q, e in zip(queries, expects)]


def hits(catalog: list[dict], tasks: Path, tmp: str) -> dict[str, float]:
    """hit@3 per search over `catalog` (tools as `inspect eval` reads them, own words)."""
    path = Path(tmp) / "ranked.json"
    path.write_text(json.dumps({"tools": catalog}))
    out = subprocess.run(
        [TAILOR, "inspect", "--catalog", str(path), "eval", "--tasks", str(tasks), "--search", "all",
         "--embedding-model", MODEL, "--top", "3", "--json"],
        capture_output=True, text=True).stdout
    report = {s["search"]: s["readers"]["-"] for s in json.loads(out)["searches"]}
    return {s: next(row for row in report[s] if row["level"] == 9)["hit_at_k"] for s in SEARCHES}


def line_tools(lines: list[tuple[str, str, str]]) -> list[dict]:
    """Index lines as tools: a line's name, its argument names as properties, its words."""
    return [{"name": name, "description": words,
             "inputSchema": {"type": "object", "properties": {a.strip(): {} for a in args.split(",") if a.strip()}}}
            for name, args, words in lines]


LINE = re.compile(r"^([^:\s]+)()(?::\s*(.*))?$")


def ours(catalog: Path, tasks: list[tuple[str, str]], budget: str | None = None, model: bool = True) -> dict:
    server = [sys.executable, str(HERE / "catalog_server.py"), str(catalog)]
    budgeted = ["--index-budget", str(budget)] if budget is not None else []
    embedding = ["--embedding-model", MODEL] if model else []
    # Without a model, none may come from the environment either.
    env = {k: v for k, v in os.environ.items() if k != "MCP_TAILOR_EMBEDDING"}
    client = Client([TAILOR, "proxy", "--surface", "index", *budgeted, *embedding, "--", *server], env)
    try:
        text, listed = client.ask("tools/list", {})
        index = next(t for t in listed["tools"] if t["name"] == "search_tools")["description"]
        lines = [LINE.match(line).groups(default="") for line in index.splitlines()[1:]]
        answers, found = [], 0
        for query, expect in tasks if budget is None else []:
            _, result = client.ask("tools/call", {"name": "search_tools", "arguments": {"query": query, "limit": 3}})
            answer = result["content"][0]["text"]
            answers.append(tokens(answer))
            found += expect in [t["name"] for t in json.loads(answer)["tools"]]
    finally:
        client.close()
    return {"listing": tokens(text), "lines": lines, "answers": answers,
            "hit": found / len(tasks) if tasks else None}


def theirs(catalog: Path, level: str, tasks: list[tuple[str, str]]) -> dict:
    server = [sys.executable, str(HERE / "catalog_server.py"), str(catalog)]
    client = Client([COMPRESSOR, "-c", level, "--", *server])
    try:
        text, listed = client.ask("tools/list", {})
        schema_tool = next(t["name"] for t in listed["tools"] if t["name"].endswith("get_tool_schema"))
        described = next(t["description"] for t in listed["tools"] if t["name"] == schema_tool)
        lines = re.findall(r"<tool>([^(<]+)\(([^)]*)\)(?::\s*)?(.*?)</tool>", described, re.S)
        answers = []
        for _, expect in tasks:
            answer, _ = client.ask("tools/call", {"name": schema_tool, "arguments": {"tool_name": expect}})
            answers.append(tokens(answer))
    finally:
        client.close()
    return {"listing": tokens(text), "lines": lines, "answers": answers}


def main() -> None:
    check = "--check" in sys.argv
    total = {"own": 0, "ours": 0, **{level: 0 for level in LEVELS}}
    context = {"ours": 0, "medium": 0}
    spent, lined = {share: 0 for share in BUDGETS}, {share: [] for share in BUDGETS}
    rows, found = [], {k: [] for k in ["own_best", "own_fastmcp", "search_tools", "search_tools_bm25",
                                       "our_lines", "low_lines", "medium_lines"]}
    for name, catalog, tasks_file in CATALOGS:
        tasks = tasks_of(tasks_file) if tasks_file else []
        tools = json.loads(catalog.read_text())["tools"]
        direct = Client([sys.executable, str(HERE / "catalog_server.py"), str(catalog)])
        own = tokens(direct.ask("tools/list", {})[0])
        direct.close()
        index = ours(catalog, tasks)
        compressed = {level: theirs(catalog, level, tasks) for level in LEVELS}
        for share in BUDGETS:
            budgeted = ours(catalog, [], f"{share * 100:g}%")
            spent[share] += budgeted["listing"]
            if tasks:
                with tempfile.TemporaryDirectory() as tmp:
                    lined[share].append(max(hits(line_tools(budgeted["lines"]), tasks_file, tmp).values()))
        total["own"] += own
        total["ours"] += index["listing"]
        for level in LEVELS:
            total[level] += compressed[level]["listing"]
        row = f"| {name} | {len(tools)} | {own:,} | {index['listing']:,} | " + " | ".join(
            f"{compressed[level]['listing']:,}" for level in LEVELS)
        if tasks:
            mean = lambda xs: sum(xs) / len(xs)
            context["ours"] += index["listing"] + mean(index["answers"])
            context["medium"] += compressed["medium"]["listing"] + mean(compressed["medium"]["answers"])
            with tempfile.TemporaryDirectory() as tmp:
                own_hits = hits(tools, tasks_file, tmp)
                our_lines = hits(line_tools(index["lines"]), tasks_file, tmp)
                low_lines = hits(line_tools(compressed["low"]["lines"]), tasks_file, tmp)
                medium_lines = hits(line_tools(compressed["medium"]["lines"]), tasks_file, tmp)
            found["own_best"].append(max(own_hits.values()))
            found["own_fastmcp"].append(own_hits["fastmcp"])
            found["search_tools"].append(round(index["hit"], 3))
            found["search_tools_bm25"].append(round(ours(catalog, tasks, model=False)["hit"], 3))
            found["our_lines"].append(max(our_lines.values()))
            found["low_lines"].append(max(low_lines.values()))
            found["medium_lines"].append(max(medium_lines.values()))
            row += (f" | {index['listing'] + mean(index['answers']):,.0f} | "
                    f"{compressed['medium']['listing'] + mean(compressed['medium']['answers']):,.0f} | "
                    f"{index['hit']:.2f} | {max(own_hits.values()):.2f} | {max(our_lines.values()):.2f} | "
                    f"{max(low_lines.values()):.2f} | {max(medium_lines.values()):.2f} |")
        else:
            row += " | | | | | | | |"
        rows.append(row)
    print("| catalog | tools | own tools/list | index | compressor low | medium | max "
          "| one task: index | one task: medium | hit@3 search_tools | best of 3 over own | our lines | low's lines | medium's lines |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    saved = lambda k: 1 - total[k] / total["own"]
    mean = lambda k: sum(found[k]) / len(found[k])
    print(f"| pooled | | {total['own']:,} | {total['ours']:,} ({saved('ours'):.1%} less) | "
          + " | ".join(f"{total[l]:,} ({saved(l):.1%})" for l in LEVELS)
          + f" | {context['ours']:,.0f} | {context['medium']:,.0f} | {mean('search_tools'):.2f} | "
          f"{mean('own_best'):.2f} | {mean('our_lines'):.2f} | {mean('low_lines'):.2f} | "
          f"{mean('medium_lines'):.2f} |")
    print(f"\nsearch_tools without a model (FastMCP's BM25): hit@3 {mean('search_tools_bm25'):.2f}; "
          f"fastmcp over the own listing {mean('own_fastmcp'):.2f}")
    print()
    print("| `--index-budget` (share of own) | index listed | saved | hit@3: lines |")
    print("|---|---|---|---|")
    print(f"| 7% (the default) | {total['ours']:,} | {saved('ours'):.1%} | {mean('our_lines'):.2f} |")
    for share in BUDGETS:
        print(f"| {share:.0%} | {spent[share]:,} | {1 - spent[share] / total['own']:.1%} | "
              f"{sum(lined[share]) / len(lined[share]):.2f} |")
    bars = {
        "index listing at least 88% less than the own": saved("ours") >= 0.88,
        "one task's context below mcp-compressor medium's": context["ours"] < context["medium"],
        "search_tools hit@3 at least the best of three over the own listing":
            mean("search_tools") >= mean("own_best") - 1e-9,
        "search_tools with BM25 alone at least BM25 (fastmcp) over the own listing":
            mean("search_tools_bm25") >= mean("own_fastmcp") - 1e-9,
        "no catalog more than two tasks down": all(
            (o - s) * n <= 2 + 1e-9 for o, s, n in zip(found["own_best"], found["search_tools"],
                                                       [len(tasks_of(t)) for _, _, t in CATALOGS if t])),
        "index lines find at least as well as mcp-compressor low's": mean("our_lines") >= mean("low_lines") - 1e-9,
    }
    # Missed as of 2026-12-07 (0.80 against 0.85): reported, not enforced.
    reported = {"index lines find at least as well as mcp-compressor low's"}
    for bar, held in bars.items():
        print(("held   " if held else "MISSED ") + bar)
    if check and not all(held for bar, held in bars.items() if bar not in reported):
        sys.exit(1)


main()
