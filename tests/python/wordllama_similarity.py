"""WordLlama's own similarities, for `tests/tests/search_peers.rs`: with no argument, prints
the folder of the installed `wordllama` package (weights/ and tokenizers/); with
`similarities`, reads {"texts": [...], "queries": [...]} on stdin and writes, per query,
its cosine similarity to each text as WordLlama computes it (`embed`, then
`vector_similarity`), as JSON."""

import json
import os
import sys

import wordllama
from wordllama import WordLlama

FOLDER = os.path.dirname(wordllama.__file__)


def main() -> None:
    if sys.argv[1:] != ["similarities"]:
        print(FOLDER)
        return
    given = json.load(sys.stdin)
    model = WordLlama.load(cache_dir=FOLDER, disable_download=True)
    texts = model.embed(given["texts"])
    out = []
    for query in given["queries"]:
        scores = model.vector_similarity(model.embed(query)[0], texts)
        out.append([float(s) for s in scores[0]])
    json.dump(out, sys.stdout)


main()
