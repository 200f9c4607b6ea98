"""Build one `dvjump` index (own process, own JVM of the builder's version).

    python -m lrev.dvjump.index --version 8.11.4 --corpus runs/default/corpora/dvjump/full --kind dv70 \\
        --out runs/default/indexes/dvjump/8.11.4/full/dv70
    python -m lrev.dvjump.index --version 8.11.4 --corpus … --kind upgraded --source …/7.7.3/full/native --out …

The folder appears whole or not at all: one segment of the whole corpus (docID = row, checked), no compound file,
and a manifest.json with the version, the DocValues format asked for, the segment and the sha256 of the
index files, which every reader checks first. ``upgraded`` copies ``--source`` and rewrites it with this
version's codec (IndexUpgrader), as Solr 8 users upgraded Solr 7 collections.
"""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from lrev import bridge, provenance
from lrev.dvjump import engine
from lrev.dvjump.layout import INDEX_KINDS
from lrev.io import atomic_dir, read_json, tree_checksums, verify, write_json


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--kind", choices=sorted(INDEX_KINDS), required=True)
    ap.add_argument("--source", type=Path, help="the index to upgrade (kind upgraded)")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    if (a.kind == "upgraded") != (a.source is not None):
        ap.error("--source is needed for kind upgraded, and only for it")
    corpus = read_json(a.corpus / "manifest.json")
    verify(a.corpus / "manifest.json", corpus["sha256"])
    if a.source:
        verify(a.source / "manifest.json", read_json(a.source / "manifest.json")["sha256"], tree=True)
    flags = bridge.start(a.version, "dvjump")
    started = provenance.now()
    with atomic_dir(a.out) as tmp:
        index = tmp / "index"
        if a.source:
            shutil.copytree(a.source / "index", index)
            built = engine.upgrade_index(str(index))
        else:
            built = engine.build_index(str(a.corpus / "docs.tsv"), str(index), INDEX_KINDS[a.kind])
        write_json(tmp / "manifest.json", {
            "study": "dvjump", "lucene_version": a.version, "kind": a.kind, "engine": bridge.engine_info(),
            "jvm_flags": flags, "source": str(a.source) if a.source else None,
            "corpus": {"path": str(a.corpus), "sha256": corpus["sha256"], "docs": corpus["docs"],
                       "parameters": corpus["parameters"]},
            "built": built.to_dict(orient="records")[0], **tree_checksums(tmp, ["index"]),
            "host": provenance.host(), "git": provenance.git(), "started": started, "finished": provenance.now(),
        })


if __name__ == "__main__":
    main()
