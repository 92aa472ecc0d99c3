#!/bin/sh
# What each reader's catalog costs, in tokens.
cargo run -q -p mcp-tailor-cli --example demo -- tokens
