"""Build one `join` index (own process, own JVM of the version): Lucene's, or real Solr's.

    python -m lrev.join.index --version 9.12.3 --system lucene --corpus runs/default/corpora/join/blocks \\
        --out runs/default/indexes/join/9.12.3/lucene

The folder appears whole or not at all. ``lucene``: ``index/``, the corpus in blocks force-merged to one segment.
``solr``: ``home/``, a Solr home whose core holds the same corpus as nested documents, in one segment, in
``home/data/index``. The manifest records the sha256 of the index files (not of Solr's configuration, which a
core rewrites when it opens with a directory of its own), which every fork checks first.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from lrev import bridge, provenance
from lrev.io import atomic_dir, read_json, tree_checksums, verify, write_json
from lrev.join import engine, layout

#: Blocks per update request to Solr.
SOLR_BATCH = 500


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--system", choices=sorted(layout.FILES), required=True)
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    corpus = read_json(a.corpus / "manifest.json")
    verify(a.corpus / "manifest.json", corpus["sha256"])
    flags = bridge.start(a.version, "join")
    started = provenance.now()
    with atomic_dir(a.out) as tmp:
        began = time.monotonic()
        if a.system == "lucene":
            built = engine.build_lucene_index(a.corpus, tmp / layout.FILES["lucene"]).to_dict(orient="records")[0]
        else:
            engine.build_solr_index(a.corpus / "docs.tsv", tmp / layout.OPENED["solr"], SOLR_BATCH)
            files = [p for p in (tmp / layout.FILES["solr"]).iterdir() if p.is_file()]
            built = {"bytes": sum(p.stat().st_size for p in files), "millis": round((time.monotonic() - began) * 1000)}
        write_json(tmp / "manifest.json", {
            "study": "join", "lucene_version": a.version, "system": a.system, "engine": bridge.engine_info(),
            "jvm_flags": flags, "corpus": {"path": str(a.corpus), "sha256": corpus["sha256"], "docs": corpus["docs"]},
            "built": built, **tree_checksums(tmp, [layout.FILES[a.system]]),
            "host": provenance.host(), "git": provenance.git(), "started": started, "finished": provenance.now(),
        })


if __name__ == "__main__":
    main()
