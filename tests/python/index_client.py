"""The index surface read by the official Python client: `mcp-tailor proxy --surface index`
in front of the Python SDK's notes server (`notes_server.py`), over stdio and over
streamable HTTP.

The client lists two tools (`search_tools`, whose description is the index, and
`call_tool`), searches, calls a found tool through `call_tool` (valid arguments reach the
server; invalid ones are refused as invalid params naming the path, the schema carried),
and calls a tool by its own name directly. With `--load-on-find`, a search sends
`notifications/tools/list_changed`, the client lists again and calls the found tool by
its own name.

usage: python index_client.py PATH_TO_MCP_TAILOR
Prints one line per check and `N passed, M failed`; exits non-zero on any failure.
"""

from __future__ import annotations

import os
import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation
from started import started

GATEWAY = sys.argv[1]
SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes_server.py")
RESULTS: list[tuple[str, bool, str]] = []
INFO = Implementation(name="small-model-client", version="1.0")


def check(label: str, ok: bool, detail: object = "") -> None:
    RESULTS.append((label, ok, str(detail)))
    print(("ok    " if ok else "FAIL  ") + label + ("" if ok else f": {detail}"), flush=True)


def proxy_args(*extra: str) -> list[str]:
    return ["proxy", "--surface", "index", *extra, "--", sys.executable, SERVER]


async def session(client: Client, where: str) -> None:
    """What any reader of the index surface does, on one session."""
    listed = {t.name: t for t in (await client.list_tools()).tools}
    check(f"{where}: the listing is search_tools and call_tool", set(listed) == {"search_tools", "call_tool"}, set(listed))
    index = listed["search_tools"].description or ""
    lines = index.splitlines()
    check(f"{where}: the index has a line per tool, its name first",
          all(any(line == name or line.startswith(name + ":") for line in lines) for name in ("search_notes", "get_note", "hang", "crash")),
          index)
    found = await client.call_tool("search_tools", {"query": "look for notes with these words", "limit": 3})
    tools = (found.structured_content or {}).get("tools", [])
    names = [t["name"] for t in tools]
    check(f"{where}: search_tools finds search_notes", "search_notes" in names, names)
    check(f"{where}: at most `limit` tools answer", len(tools) <= 3, names)
    found_search = next((t for t in tools if t["name"] == "search_notes"), {})
    check(f"{where}: a found tool carries its whole input schema",
          found_search.get("inputSchema", {}).get("required") == ["query"], found_search)
    text = found.content[0].text if found.content else ""
    check(f"{where}: the same answer as text", '"search_notes"' in text, text)
    called = await client.call_tool("call_tool", {"name": "search_notes", "arguments": {"query": "milk"}})
    text = called.content[0].text if called.content else ""
    check(f"{where}: call_tool with valid arguments reaches the server", "n1: milk and eggs" in text, text)
    try:
        refused = await client.call_tool("call_tool", {"name": "search_notes", "arguments": {"query": 7}})
        outcome = f"no error: {refused}"
        data = None
    except Exception as error:  # the SDK raises the JSON-RPC error
        outcome = str(error)
        data = getattr(getattr(error, "error", None), "data", None)
    check(f"{where}: invalid arguments are refused, the path named",
          "do not match its input schema: at /query" in outcome, outcome)
    check(f"{where}: the refusal carries the tool's schema",
          isinstance(data, dict) and data.get("inputSchema", {}).get("required") == ["query"], data)
    direct = await client.call_tool("get_note", {"id": "n2"})
    text = direct.content[0].text if direct.content else ""
    check(f"{where}: a tool's own name stays callable", "call the plumber" in text, text)


async def stdio() -> None:
    params = StdioServerParameters(command=GATEWAY, args=proxy_args(), env=dict(os.environ, RUST_LOG="warn"))
    with anyio.fail_after(60):
        async with Client(params, client_info=INFO, mode="legacy", cache=None) as client:
            await session(client, "stdio")


async def http() -> None:
    # Port 0: the proxy says the address it bound.
    gateway, url = started([GATEWAY, *proxy_args("--http", "127.0.0.1:0")], "mcp-tailor proxy on ",
                           dict(os.environ, RUST_LOG="warn"))
    try:
        with anyio.fail_after(60):
            async with Client(streamable_http_client(url), client_info=INFO, mode="legacy", cache=None) as client:
                await session(client, "http")
    finally:
        gateway.terminate()
        gateway.wait(timeout=10)


async def load_on_find() -> None:
    changed = anyio.Event()

    async def on_message(message: object) -> None:
        if type(message).__name__ == "ToolListChangedNotification":
            changed.set()

    params = StdioServerParameters(command=GATEWAY, args=proxy_args("--load-on-find"), env=dict(os.environ, RUST_LOG="warn"))
    with anyio.fail_after(60):
        async with Client(params, client_info=INFO, mode="legacy", cache=None, message_handler=on_message) as client:
            before = {t.name for t in (await client.list_tools()).tools}
            check("load on find: the listing starts as the index", before == {"search_tools", "call_tool"}, before)
            await client.call_tool("search_tools", {"query": "get one note by its id", "limit": 1})
            with anyio.move_on_after(10):
                await changed.wait()
            check("load on find: a search sends tools/list_changed", changed.is_set())
            after = {t.name: t for t in (await client.list_tools()).tools}
            check("load on find: the found tool is listed natively", "get_note" in after, set(after))
            typed = after.get("get_note")
            check("load on find: with its own schema", typed is not None and typed.input_schema.get("required") == ["id"], typed)
            got = await client.call_tool("get_note", {"id": "n1"})
            text = got.content[0].text if got.content else ""
            check("load on find: the client calls it by its own name", "milk and eggs" in text, text)


async def main() -> None:
    await stdio()
    await http()
    await load_on_find()


anyio.run(main)
failed = sum(1 for _, ok, _ in RESULTS if not ok)
print(f"{len(RESULTS) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
