"""Drives the mcp-tailor demo with the official Python MCP SDK.

Over stdio and streamable HTTP, in the legacy (`initialize`) and modern (`server/discover`,
2026-07-28) eras, as clients named `codex` and `grok`: their descriptions differ, their
schemas are identical, the tools really work, a scoped tool is hidden without its scope,
and modern list results are `private`.

usage: python demo_client.py PATH_TO_DEMO_BINARY
Prints one line per check and `N passed, M failed`; exits non-zero on any failure.
"""

from __future__ import annotations

import copy
import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation
from started import started

DEMO = sys.argv[1]
RESULTS: list[tuple[str, bool, str]] = []


def check(label: str, ok: bool, detail: str = "") -> None:
    RESULTS.append((label, ok, detail))
    print(("ok    " if ok else "FAIL  ") + label + ("" if ok else f": {detail}"), flush=True)




def strip_descriptions(schema: dict) -> dict:
    schema = copy.deepcopy(schema)
    for prop in schema.get("properties", {}).values():
        prop.pop("description", None)
    return schema


async def session(transport: str, era: str, name: str, url: str, scopes: str | None = None) -> dict:
    """Connects, lists, calls; returns what was seen."""
    mode = "legacy" if era == "legacy" else "auto"
    info = Implementation(name=name, version="1.0")
    if transport == "stdio":
        args = ["serve", "--verbosity", "2"] + (["--scopes", scopes] if scopes else [])
        server = StdioServerParameters(command=DEMO, args=args)
    else:
        headers = {"X-Demo-Scopes": scopes} if scopes else {}
        server = streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=30))
    with anyio.fail_after(60):
        async with Client(server, client_info=info, mode=mode, cache=None) as client:
            listed = await client.list_tools()
            created = await client.call_tool("create_note", {"title": "Groceries", "body": "milk and eggs", "tags": ["home"]})
            found = await client.call_tool("search_notes", {"query": "milk"})
            return {
                "protocol": client.protocol_version,
                "instructions": client.instructions,
                "tools": {t.name: t for t in listed.tools},
                "list": listed,
                "created": created.structured_content,
                "found": found.structured_content,
            }


async def run_era(transport: str, era: str, url: str) -> None:
    where = f"{transport}/{era}"
    codex = await session(transport, era, "codex", url)
    grok = await session(transport, era, "grok", url)
    want = "2026-07-28" if era == "modern" else None
    if want:
        check(f"{where}: negotiated {want} through server/discover", codex["protocol"] == want, codex["protocol"])
    else:
        check(f"{where}: negotiated a handshake-era version", codex["protocol"] < "2026-07-28", codex["protocol"])
    check(f"{where}: same tools for codex and grok", codex["tools"].keys() == grok["tools"].keys(),
          f"{sorted(codex['tools'])} vs {sorted(grok['tools'])}")
    differing = [n for n in codex["tools"] if codex["tools"][n].description != grok["tools"][n].description]
    check(f"{where}: codex and grok read different descriptions", len(differing) >= 2, str(differing))
    codex_create = codex["tools"]["create_note"].description or ""
    check(f"{where}: codex reads its own create_note wording", codex_create.startswith("Create a note. Arguments:"), codex_create)
    grok_tags = grok["tools"]["create_note"].input_schema["properties"]["tags"].get("description", "")
    check(f"{where}: grok reads its own argument wording", "JSON array" in grok_tags, grok_tags)
    same_schemas = all(
        strip_descriptions(codex["tools"][n].input_schema) == strip_descriptions(grok["tools"][n].input_schema)
        for n in codex["tools"]
    )
    check(f"{where}: schemas identical apart from descriptions", same_schemas)
    check(f"{where}: instructions differ by reader", codex["instructions"] != grok["instructions"] and bool(grok["instructions"]),
          f"{codex['instructions']!r} / {grok['instructions']!r}")
    check(f"{where}: delete_note hidden without its scope", "delete_note" not in codex["tools"], str(sorted(codex["tools"])))
    check(f"{where}: create_note works", isinstance(codex["created"], dict) and "id" in codex["created"], str(codex["created"]))
    found = (codex["found"] or {}).get("results", [])
    check(f"{where}: search_notes finds the note", any(r.get("title") == "Groceries" for r in found), str(found))
    if era == "modern":
        listed = codex["list"]
        on_wire = "cache_scope" in listed.model_fields_set and "ttl_ms" in listed.model_fields_set
        check(f"{where}: list result is private with ttlMs 0",
              on_wire and listed.cache_scope == "private" and listed.ttl_ms == 0,
              f"set={sorted(listed.model_fields_set)} scope={listed.cache_scope} ttl={listed.ttl_ms}")
    scoped = await session(transport, era, "codex", url, scopes="notes.delete")
    check(f"{where}: delete_note visible with notes.delete", "delete_note" in scoped["tools"], str(sorted(scoped["tools"])))


async def main() -> None:
    for era in ("legacy", "modern"):
        await run_era("stdio", era, "")
    # Port 0: the demo says the address it bound.
    server, url = started([DEMO, "serve", "--http", "127.0.0.1:0", "--verbosity", "2"],
                          "mcp-tailor demo: streamable HTTP at ")
    try:
        for era in ("legacy", "modern"):
            await run_era("http", era, url)
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    try:
        anyio.run(main)
    except Exception as error:  # a crash is a failure, reported like one
        check("the client run completed", False, repr(error))
    passed = sum(ok for _, ok, _ in RESULTS)
    failed = len(RESULTS) - passed
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not RESULTS else 0)
