"""FastMCP's proxy (`fastmcp.server.create_proxy`) in front of one upstream, served on
streamable HTTP at http://127.0.0.1:PORT/mcp: a peer of the proxies benchmark.

usage: fastmcp_proxy.py PORT URL
       fastmcp_proxy.py PORT COMMAND ARGS...
"""

import sys

from fastmcp.server import create_proxy

port, target = int(sys.argv[1]), sys.argv[2:]
if len(target) == 1 and target[0].startswith("http"):
    backend = target[0]
else:
    backend = {"mcpServers": {"upstream": {"command": target[0], "args": target[1:]}}}
create_proxy(backend, name="fastmcp-proxy").run(
    transport="http", host="127.0.0.1", port=port, path="/mcp", show_banner=False
)
