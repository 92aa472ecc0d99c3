#!/usr/bin/env bash
# Installs the MCP proxies the proxies benchmark measures mcp-tailor against, pinned, into
# PREFIX (default target/proxies): supergateway and mcp-proxy from npm, FastMCP from PyPI
# (a venv of its own), the `mcp-proxy` crate (tower-mcp) with cargo. Re-running with
# everything in place installs nothing. The upstream servers come from
# tests/third_party/install.sh.
set -euo pipefail
prefix="${1:-target/proxies}"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
if [ ! -x "$prefix/node/node_modules/.bin/supergateway" ]; then
  npm install --silent --no-audit --no-fund --prefix "$prefix/node" \
    supergateway@4.0.0 mcp-proxy@6.7.19 > /dev/null
fi
if [ ! -x "$prefix/venv/bin/python" ]; then
  python3 -m venv "$prefix/venv"
fi
"$prefix/venv/bin/python" -m pip install --quiet --disable-pip-version-check fastmcp==4.2.3
if [ ! -x "$prefix/cargo/bin/mcp-proxy" ]; then
  cargo install --quiet --locked mcp-proxy --version 0.6.0 --root "$prefix/cargo"
fi
