#!/usr/bin/env python3
"""One word per idea: lists each type name (struct, enum, union, trait, type alias) that
more than one definition in the workspace's crates' `src` gives (tests and examples
aside; an impl's associated types are the trait's words, not ours). Exits non-zero when
one does.

usage: python3 .ci/names.py [ROOT]
"""

import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
# The crates' sources (their `tests/` folders and examples aside).
SOURCES = ["runtime/src", "runtime/core/src", "runtime/server/src", "runtime/gateway/src",
           "runtime/inspect/src", "runtime/init/src", "macros/src", "macros/model/src", "cli/src"]
ITEM = re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(struct|enum|union|trait|type)\s+([A-Z]\w*)([^\n]*)", re.M)


def definitions(text: str) -> list[str]:
    """The type names `text` defines, its `#[cfg(test)] mod tests` aside."""
    text = text.split("#[cfg(test)]\nmod tests", 1)[0]
    names = []
    for indent, kind, name, rest in ITEM.findall(text):
        # An indented `type` is an associated type (or a local alias): the trait's word.
        if kind == "type" and indent:
            continue
        # `type Level = model::Level<Macro>`: the same idea, instantiated.
        if kind == "type" and re.match(rf"\s*=\s*[\w:]*\b{name}\b<", rest):
            continue
        names.append(name)
    return names


def main() -> int:
    found = collections.defaultdict(list)
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.rs")):
            if path.name == "tests.rs" or "tests" in path.relative_to(ROOT / source).parts[:-1]:
                continue
            for name in definitions(path.read_text()):
                found[name].append(str(path.relative_to(ROOT)))
    twice = {name: paths for name, paths in sorted(found.items()) if len(paths) > 1}
    for name, paths in twice.items():
        print(f"{name}: {', '.join(paths)}")
    print(f"{len(twice)} type names defined more than once" if twice else "every type name is defined once")
    return 1 if twice else 0


if __name__ == "__main__":
    sys.exit(main())
