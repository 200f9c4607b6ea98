"""Build one `join` index (own process, own JVM of the version): Lucene's, or real Solr's.

    python -m lrev.join.index --version 9.12.3 --system lucene --corpus runs/default/corpora/join/blocks \\
        --out runs/default/indexes/join/9.12.3/lucene

The folder appears whole or not at all. ``lucene``: ``index/``, the corpus in blocks force-merged to one segment.
``solr``: ``home/``, a Solr home whose core holds the same corpus as nested documents, in one segment, in
``home/data/index``. The manifest records the sha256 of the index files (not of Solr's configuration, which a
core rewrites when it opens with a directory of its own), which every fork checks first.
"""
from __future__ import annotations

import time

from lrev import indexbuild
from lrev.io import tree_checksums
from lrev.join import engine, layout

#: Blocks per update request to Solr.
SOLR_BATCH = 500


def main() -> None:
    ap = indexbuild.arguments(__doc__.split("\n")[0])
    ap.add_argument("--system", choices=sorted(layout.FILES), required=True)
    a = ap.parse_args()
    with indexbuild.building("join", a.version, a.corpus, a.out) as build:
        began = time.monotonic()
        if a.system == "lucene":
            built = engine.build_lucene_index(a.corpus, build.dir / layout.FILES["lucene"]).to_dict(orient="records")[0]
        else:
            engine.build_solr_index(a.corpus / "docs.tsv", build.dir / layout.OPENED["solr"], SOLR_BATCH)
            files = [p for p in (build.dir / layout.FILES["solr"]).iterdir() if p.is_file()]
            built = {"bytes": sum(p.stat().st_size for p in files), "millis": round((time.monotonic() - began) * 1000)}
        build.record(system=a.system, built=built, **tree_checksums(build.dir, [layout.FILES[a.system]]))


if __name__ == "__main__":
    main()
