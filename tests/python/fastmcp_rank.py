"""FastMCP's own tool search, for `tests/tests/search_peers.rs`: reads {"tools": [MCP Tool
objects], "queries": [...]} on stdin and writes, per query, the names FastMCP's
BM25SearchTransform returns (no limit), best first, as JSON. The tools are made as FastMCP's
proxy makes them from an upstream's listing (ProxyTool.from_mcp_tool)."""

import asyncio
import json
import sys

from mcp import types as mcp_types
from fastmcp.server.providers.proxy import ProxyTool
from fastmcp.server.transforms.search import BM25SearchTransform


def main() -> None:
    given = json.load(sys.stdin)
    tools = [
        ProxyTool.from_mcp_tool(lambda: None, mcp_types.Tool.model_validate(tool))
        for tool in given["tools"]
    ]
    search = BM25SearchTransform(max_results=len(tools))

    async def ranks() -> list[list[str]]:
        return [[t.name for t in await search._search(tools, q)] for q in given["queries"]]

    json.dump(asyncio.run(ranks()), sys.stdout)


main()
