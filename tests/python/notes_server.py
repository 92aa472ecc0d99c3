"""A small MCP server written with the official Python SDK (`mcp`, its `MCPServer` — the
SDK's 2.x name for FastMCP), over stdio: the upstream the gateway test puts behind
`mcp-tailor proxy`. Its own wording is deliberately plain; the tailoring file rewords it.

usage: python notes_server.py
"""

import os
import time

from mcp.server import MCPServer

NOTES = {"n1": "milk and eggs", "n2": "call the plumber"}

server = MCPServer("python-notes", instructions="A notes server written in Python.")


@server.tool()
def search_notes(query: str) -> str:
    """Search notes."""
    hits = [f"{k}: {v}" for k, v in NOTES.items() if query.lower() in v.lower()]
    return "\n".join(hits) or "no note matches"


@server.tool()
def get_note(id: str) -> str:
    """Get a note."""
    return NOTES.get(id, "no such note")


@server.tool()
def hang() -> str:
    """Never answers (the gateway's deadline test)."""
    time.sleep(3600)
    return "unreachable"


@server.tool()
def crash() -> str:
    """Exits the server mid-request (the gateway's fault test)."""
    os._exit(3)


if __name__ == "__main__":
    server.run("stdio")
