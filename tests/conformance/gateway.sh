#!/usr/bin/env bash
# Runs the official MCP conformance suite through the gateway — `server --suite active` of
# both protocol revisions, and with the stdio upstream also `--suite all` (pending and
# draft scenarios) and each extension scenario: `mcp-tailor proxy --http` in front of the conformance
# example run as a stdio upstream, then in front of it over streamable HTTP. The gateway
# applies a tailoring file, so the suite also sees tailored wording pass its checks.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/conformance/suite.sh

# MCP_TAILOR_BUILD: more cargo arguments (`--no-default-features`: the fast path off).
# shellcheck disable=SC2086
cargo build --locked -q -p mcp-tailor ${MCP_TAILOR_BUILD:-} --features http --example conformance
# shellcheck disable=SC2086
cargo build --locked -q -p mcp-tailor-cli ${MCP_TAILOR_BUILD:-}
example="$PWD/target/debug/examples/conformance"
gateway="$PWD/target/debug/mcp-tailor"
out="$PWD/target/conformance-gateway"
rm -rf "$out" && mkdir -p "$out"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

# The file rewords one of the suite's tools for every reader (the suite checks its
# results, not its wording).
cat > "$out/tailoring.toml" <<'TOML'
[instructions]
levels = [{ verbosity = 0, text = "Conformance server." }, { verbosity = 9, text = "The MCP conformance suite's reference server, behind mcp-tailor's gateway." }]

[tools.test_simple_text.description]
levels = [{ verbosity = 0, text = "Simple text." }, { verbosity = 9, text = "Returns a simple text: the suite's first tool, tailored." }]
TOML

run() { # NAME URL SUITE: the suite (`active` or `all`) of both revisions against URL
  local name=$1 url=$2 which=$3
  for version in 2025-11-25 2026-07-28; do
    echo "== conformance through the gateway ($name): server --suite $which --spec-version $version"
    "$node" "$suite" server --url "$url" --suite "$which" --spec-version "$version" \
      --expected-failures tests/conformance/gateway-expected-failures.yaml \
      -o "$out/$name-$which-$version" > "$out/$name-$which-$version.log" 2>&1 \
      || { cat "$out/$name-$which-$version.log"; exit 1; }
    grep -E '^Total' "$out/$name-$which-$version.log"
  done
}

# A stdio upstream: the gateway starts the example itself, one process per session.
"$gateway" proxy --tailoring "$out/tailoring.toml" --http 127.0.0.1:0 -- "$example" \
  > "$out/gateway-stdio.log" 2>&1 &
pids+=($!)
addr=$(said_at "$out/gateway-stdio.log" "mcp-tailor proxy on http://" "$!")
run stdio "http://$addr/mcp" active
run stdio "http://$addr/mcp" all

# The extension scenarios (tasks, skills), each on its own, through the same gateway.
echo "== conformance through the gateway (stdio): extension scenarios"
extensions=$("$node" "$suite" list --server | sed -n 's/^  - \([^ ]*\) \[extension\]$/\1/p')
[ -n "$extensions" ] || { echo "the suite lists no extension scenario"; exit 1; }
for scenario in $extensions; do
  "$node" "$suite" server --url "http://$addr/mcp" --scenario "$scenario" \
    --expected-failures tests/conformance/gateway-expected-failures.yaml \
    -o "$out/stdio-$scenario" > "$out/stdio-$scenario.log" 2>&1 \
    || { cat "$out/stdio-$scenario.log"; exit 1; }
  printf '%-32s %s\n' "$scenario" "$(grep -E '^Passed' "$out/stdio-$scenario.log")"
done

# An HTTP upstream.
"$example" --http 127.0.0.1:0 > "$out/upstream.log" 2>&1 &
pids+=($!)
upstream=$(said_at "$out/upstream.log" "conformance server on http://" "$!")
"$gateway" proxy --tailoring "$out/tailoring.toml" --http 127.0.0.1:0 \
  --upstream "http://$upstream/mcp" > "$out/gateway-http.log" 2>&1 &
pids+=($!)
addr=$(said_at "$out/gateway-http.log" "mcp-tailor proxy on http://" "$!")
run http "http://$addr/mcp" active
