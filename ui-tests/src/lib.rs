//! trybuild tests of mcp-tailor live in `tests/`.
