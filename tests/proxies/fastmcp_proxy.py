"""FastMCP's proxy (`fastmcp.server.create_proxy`) in front of one upstream, or of every
server of an `mcpServers` file (each tool's name prefixed with its server's), served on
streamable HTTP at http://127.0.0.1:PORT/mcp: a peer of the proxies benchmark.

usage: fastmcp_proxy.py PORT URL
       fastmcp_proxy.py PORT --servers FILE
       fastmcp_proxy.py PORT COMMAND ARGS...

Several servers are proxied through one connected `Client`, so one session of each serves
every request (as `mcp-tailor proxy --upstream-sessions shared` does). Given the file
itself, FastMCP 4.2.3 starts every server anew for each request (2.8 s each, measured).
"""

import asyncio
import json
import sys

from fastmcp import Client
from fastmcp.server import create_proxy

port, target = int(sys.argv[1]), sys.argv[2:]
served = {"transport": "http", "host": "127.0.0.1", "port": port, "path": "/mcp"}


async def serve_shared(config: dict) -> None:
    async with Client(config) as client:
        await create_proxy(client, name="fastmcp-proxy").run_async(show_banner=False, **served)


if target[0] == "--servers":
    with open(target[1], encoding="utf-8") as file:
        asyncio.run(serve_shared(json.load(file)))
else:
    if len(target) == 1 and target[0].startswith("http"):
        backend = target[0]
    else:
        backend = {"mcpServers": {"upstream": {"command": target[0], "args": target[1:]}}}
    create_proxy(backend, name="fastmcp-proxy").run(show_banner=False, **served)
