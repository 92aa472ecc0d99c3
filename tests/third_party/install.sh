#!/usr/bin/env bash
# Installs the six third-party MCP servers the tests draft, check and proxy, pinned: four
# from npm into PREFIX (default target/mcp-servers), two from PyPI into the venv whose Python
# is PYTHON. Re-running with everything in place installs nothing.
set -euo pipefail
prefix="${1:-target/mcp-servers}"
python="${2:?usage: install.sh PREFIX VENV_PYTHON}"
npm_packages=(
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-github@2025.4.8"
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
)
if [ ! -f "$prefix/node_modules/@modelcontextprotocol/server-memory/dist/index.js" ]; then
  mkdir -p "$prefix"
  npm install --silent --no-audit --no-fund --prefix "$prefix" "${npm_packages[@]}" > /dev/null
fi
"$python" -m pip install --quiet --disable-pip-version-check \
  "mcp-server-time==2026.10.19" "mcp-server-git==2026.10.19"
