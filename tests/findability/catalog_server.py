"""A stdio MCP server that lists a captured `tools/list` result as it was captured, byte
for byte, and answers every tool call with one line of text: the upstream `surface.py`
puts behind `mcp-tailor proxy --surface index` and behind mcp-compressor, so both read the
same catalog. JSON-RPC by hand (no SDK), so nothing re-encodes the tools.

usage: python catalog_server.py CATALOG.json
"""

import json
import sys

with open(sys.argv[1]) as f:
    catalog = json.load(f)
tools = catalog["tools"] if isinstance(catalog, dict) else catalog


def answer(id_, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": id_, "result": result}, separators=(",", ":")) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    method, id_ = message.get("method"), message.get("id")
    if id_ is None:
        continue
    if method == "initialize":
        answer(id_, {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "captured-catalog", "version": "1.0.0"},
        })
    elif method == "tools/list":
        answer(id_, {"tools": tools})
    elif method == "tools/call":
        answer(id_, {"content": [{"type": "text", "text": f"called {message['params']['name']}"}]})
    else:
        answer(id_, {})
