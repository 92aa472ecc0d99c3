#!/usr/bin/env bash
# Compile-time benchmark (see bench_compile.py): `cargo check` of 200 tools in three
# flavours, side by side, medians of several runs, and expanded lines per tool.
# usage: tests/bench-compile/run.sh [RUNS] [N]
set -euo pipefail
exec python3 "$(dirname "$0")/bench_compile.py" "$@"
