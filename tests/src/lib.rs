//! Tests of mcp-tailor live in `tests/`.
