#!/usr/bin/env python3
"""The declared MSRV holds for the dependencies: no package in the resolved graph declares a
`rust-version` newer than the workspace's. Exits 1, naming each one that does."""
import json
import subprocess
import sys
import tomllib

with open("Cargo.toml", "rb") as f:
    declared = tomllib.load(f)["workspace"]["package"]["rust-version"]


def version(text):
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


metadata = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)
resolved = {node["id"] for node in metadata["resolve"]["nodes"]}
newer = [
    f"{p['name']} {p['version']} needs Rust {p['rust_version']}"
    for p in metadata["packages"]
    if p["id"] in resolved and p.get("rust_version") and version(p["rust_version"]) > version(declared)
]
for line in newer:
    print(f"error: {line}; the workspace declares {declared}", file=sys.stderr)
print(f"msrv: {len(resolved)} packages checked against Rust {declared}, {len(newer)} newer")
sys.exit(1 if newer else 0)
