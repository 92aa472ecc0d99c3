"""The gateway in front of a server written with the official Python SDK, read by the
official Python client.

`mcp-tailor proxy --tailoring FILE -- python notes_server.py` is started by the client
(stdio), as `codex` and as `grok` (built-in client-name aliases), at verbosity 0 and 9
(`MCP_TAILOR_VERBOSITY`): each reader gets exactly the file's wording, the schemas are the
upstream's, and tool calls reach the Python server. Then, on one connected session, a bad
edit of the file keeps the old wording and a good one sends `notifications/tools/list_changed`
and the new wording. Last, one gateway over HTTP with an upstream that hangs and crashes:
errors within the deadline, a fresh upstream after, the gateway still up.

usage: python gateway_client.py PATH_TO_MCP_TAILOR WORK_DIR
Prints one line per check and `N passed, M failed`; exits non-zero on any failure.
"""

from __future__ import annotations

import os
import pathlib
import sys
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation, ToolListChangedNotification
from started import started

GATEWAY, WORK = sys.argv[1], pathlib.Path(sys.argv[2])
SERVER = pathlib.Path(__file__).with_name("notes_server.py")
RESULTS: list[tuple[str, bool, str]] = []

FILE = """
[tools.search_notes.description]
levels = [
  { verbosity = 0, text = "Search notes." },
  { verbosity = 9, text = "Full-text search over every note; returns matching ids and text." },
]
descriptions = { grok_short = "Search notes (plain words).", grok_hint = "Search notes. Pass `query` as plain words, no operators." }
runners = [{ runner = "grok", model = "_", levels = [{ verbosity = 0, tag = "grok_short" }, { verbosity = "5..=9", tag = "grok_hint" }] }]

[tools.search_notes.arguments.query]
description = { levels = [{ verbosity = 0, text = "words" }, { verbosity = 9, text = "Words to look for in the notes." }] }

[tools.get_note]
title = "Get a note"
"""

# What the file says each reader reads: (runner, verbosity) -> (search description, query).
WANT = {
    ("codex", 0): ("Search notes.", "words"),
    ("codex", 9): ("Full-text search over every note; returns matching ids and text.", "Words to look for in the notes."),
    ("grok", 0): ("Search notes (plain words).", "words"),
    ("grok", 9): ("Search notes. Pass `query` as plain words, no operators.", "Words to look for in the notes."),
}


def check(label: str, ok: bool, detail: object = "") -> None:
    RESULTS.append((label, ok, str(detail)))
    print(("ok    " if ok else "FAIL  ") + label + ("" if ok else f": {detail}"), flush=True)


def proxy(tailoring: pathlib.Path, verbosity: int) -> StdioServerParameters:
    env = dict(os.environ, MCP_TAILOR_VERBOSITY=str(verbosity), RUST_LOG="warn")
    args = ["proxy", "--tailoring", str(tailoring), "--", sys.executable, str(SERVER)]
    return StdioServerParameters(command=GATEWAY, args=args, env=env)


async def readers(tailoring: pathlib.Path) -> None:
    schemas = set()
    for (runner, verbosity), (description, query) in WANT.items():
        where = f"{runner} at {verbosity}"
        info = Implementation(name=runner, version="1.0")
        with anyio.fail_after(60):
            async with Client(proxy(tailoring, verbosity), client_info=info, mode="legacy", cache=None) as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                search = tools["search_notes"]
                check(f"{where}: search_notes reads as the file says", search.description == description, search.description)
                got = search.input_schema["properties"]["query"].get("description")
                check(f"{where}: its query argument reads as the file says", got == query, got)
                check(f"{where}: get_note has the file's title", tools["get_note"].title == "Get a note", tools["get_note"].title)
                check(f"{where}: get_note keeps the upstream's description", tools["get_note"].description == "Get a note.", tools["get_note"].description)
                schemas.add(str(sorted(search.input_schema["properties"]["query"].items() - {("description", got)})))
                found = await client.call_tool("search_notes", {"query": "milk"})
                text = found.content[0].text if found.content else ""
                check(f"{where}: a tool call reaches the Python server", "n1: milk and eggs" in text, text)
                check(f"{where}: the upstream's instructions pass through", client.instructions == "A notes server written in Python.", client.instructions)
    check("every reader gets the same schema, wording aside", len(schemas) == 1, schemas)


async def reload(tailoring: pathlib.Path) -> None:
    changed = anyio.Event()

    async def on_message(message: object) -> None:
        if isinstance(message, ToolListChangedNotification) or type(message).__name__ == "ToolListChangedNotification":
            changed.set()

    info = Implementation(name="codex", version="1.0")
    with anyio.fail_after(60):
        async with Client(proxy(tailoring, 0), client_info=info, mode="legacy", cache=None, message_handler=on_message) as client:
            async def description() -> str:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                return tools["search_notes"].description

            check("before any edit: the file's wording", await description() == "Search notes.")
            tailoring.write_text(FILE.replace('verbosity = 0, text = "Search notes."', 'verbosity = 0, text = ""'))
            # Sleep: a window for what must not come (a list change for a bad edit).
            await anyio.sleep(1.5)
            check("a bad edit sends no list_changed", not changed.is_set())
            check("a bad edit keeps the old wording", await description() == "Search notes.")
            tailoring.write_text(FILE.replace('"Search notes."', '"Find notes."'))
            with anyio.move_on_after(10):
                await changed.wait()
            check("a good edit sends notifications/tools/list_changed", changed.is_set())
            # An editor's write may be seen half done (an empty file is a valid one): the
            # file's words arrive with the change notified last.
            got = await description()
            with anyio.move_on_after(5):
                while got != "Find notes.":
                    # Sleep: a poll's interval (the words are read, nothing tells of them).
                    await anyio.sleep(0.1)
                    got = await description()
            check("a good edit's wording is served", got == "Find notes.", got)


async def call_error(client: Client, tool: str) -> tuple[str, float]:
    """Calls `tool`; returns the error the client got (or "no error") and how long it took."""
    began = time.monotonic()
    try:
        result = await client.call_tool(tool, {})
        outcome = f"no error: {result}"
    except Exception as error:  # the SDK raises the JSON-RPC error
        outcome = str(error)
    return outcome, time.monotonic() - began


async def faults(tailoring: pathlib.Path) -> None:
    """One gateway over HTTP: an upstream that hangs or crashes answers with an error within
    the deadline; the next session gets a fresh upstream; the gateway keeps serving."""
    args = ["proxy", "--tailoring", str(tailoring), "--http", "127.0.0.1:0", "--deadline", "2",
            "--", sys.executable, str(SERVER)]
    gateway, url = started([GATEWAY, *args], "mcp-tailor proxy on ", dict(os.environ, RUST_LOG="warn"))
    try:
        info = Implementation(name="codex", version="1.0")
        with anyio.fail_after(60):
            async with Client(streamable_http_client(url), client_info=info, mode="legacy", cache=None) as client:
                error, took = await call_error(client, "hang")
                check("a hung upstream: the call fails with a JSON-RPC error", "upstream failure" in error, error)
                check("a hung upstream: within the deadline (2 s) and a margin", took < 4.0, f"{took:.2f} s")
                error, took = await call_error(client, "crash")
                check("a crashed upstream: the call fails with a JSON-RPC error", "upstream failure" in error, error)
                check("a crashed upstream: at once, not at the deadline", took < 1.5, f"{took:.2f} s")
                found = await client.call_tool("search_notes", {"query": "plumber"})
                check("the same session goes on with a new upstream", "n2" in found.content[0].text, found)
            async with Client(streamable_http_client(url), client_info=info, mode="legacy", cache=None) as client:
                listed = await client.list_tools()
                check("the next session gets a fresh upstream", "search_notes" in {t.name for t in listed.tools})
        check("the gateway is still running", gateway.poll() is None, gateway.poll())
    finally:
        gateway.terminate()
        gateway.wait(timeout=10)


async def main() -> None:
    WORK.mkdir(parents=True, exist_ok=True)
    tailoring = WORK / "tailoring.toml"
    tailoring.write_text(FILE)
    await readers(tailoring)
    await reload(tailoring)
    tailoring.write_text(FILE)
    await faults(tailoring)


anyio.run(main)
failed = sum(1 for _, ok, _ in RESULTS if not ok)
print(f"{len(RESULTS) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
