"""A small MCP server written with the official Python SDK (`mcp`, its `MCPServer` — the
SDK's 2.x name for FastMCP), over stdio: the upstream the gateway test puts behind
`mcp-tailor proxy`. Its own wording is deliberately plain; the tailoring file rewords it.

With `http PORT` it serves streamable HTTP on 127.0.0.1:PORT instead, answering each
request with one JSON body (the SDK's `json_response`, as many remote servers do); with
`sse PORT`, the legacy HTTP+SSE transport (its stream at /sse), as remote servers written
before 2025-03-26 still do. Either lists each tool with `execution` (a field rmcp's types
do not hold): the upstream of the gateway's faithfulness tests for them
(`tests/tests/faithful/http.rs`).

usage: python notes_server.py [http PORT | sse PORT]
"""

import os
import sys
import time

from mcp.server import MCPServer
from mcp_types import ToolExecution

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
    # Sleep: simulated work, a tool that hangs.
    time.sleep(3600)
    return "unreachable"


@server.tool()
def crash() -> str:
    """Exits the server mid-request (the gateway's fault test)."""
    os._exit(3)


async def list_with_execution():
    tools = await MCPServer.list_tools(server)
    execution = ToolExecution(task_support="forbidden")
    return [tool.model_copy(update={"execution": execution}) for tool in tools]


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:
        server.list_tools = list_with_execution
        server.run("streamable-http", port=int(sys.argv[2]), json_response=True)
    elif sys.argv[1:2] == ["sse"]:
        server.list_tools = list_with_execution
        server.run("sse", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
