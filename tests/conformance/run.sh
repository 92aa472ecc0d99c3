#!/usr/bin/env bash
# Runs the official MCP conformance suite against the conformance example over streamable
# HTTP on loopback: every scenario of both protocol revisions, the frozen requirement sets
# of both, and every extension scenario (tasks, skills). Installs Node 22 and the suite (npm) under
# target/conformance-node on first use; the machine's own Node may be older.
set -euo pipefail
cd "$(dirname "$0")/../.."

. tests/conformance/suite.sh

# MCP_TAILOR_BUILD: more cargo arguments (`--no-default-features`: the fast path off).
# shellcheck disable=SC2086
cargo build --locked -q -p mcp-tailor ${MCP_TAILOR_BUILD:-} --features http --example conformance
log="$PWD/target/conformance-server.log"
./target/debug/examples/conformance --http 127.0.0.1:0 > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
addr=$(said_at "$log" "conformance server on http://" "$server")

out="$PWD/target/conformance-results"
rm -rf "$out"
run() { # NAME ARGS...: one run of the suite, its log kept; a failure prints it and stops.
  local name=$1
  shift
  "$node" "$suite" server --url "http://$addr/mcp" \
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
