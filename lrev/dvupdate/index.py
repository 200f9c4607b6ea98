"""Build one `dvupdate` index (own process, own JVM of the version).

    python -m lrev.dvupdate.index --version 10.6.0 --corpus runs/default/corpora/dvupdate/synthetic-big \\
        --id-format FST50 --flush-docs 2000 --out runs/default/indexes/dvupdate/10.6.0/synthetic-big

The folder appears whole or not at all: the corpus in segments of ``--flush-docs`` documents, the same
layout on every version, and a manifest.json with the version, the id field's postings format, the
segments and the sha256 of the index files, which every fork checks before it copies the index.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from lrev import bridge, provenance
from lrev.dvupdate import engine
from lrev.io import atomic_dir, read_json, tree_checksums, verify, write_json


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--id-format", required=True, help="postings format of the id field (SPI name)")
    ap.add_argument("--flush-docs", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    corpus = read_json(a.corpus / "manifest.json")
    verify(a.corpus / "manifest.json", corpus["sha256"])
    flags = bridge.start(a.version, "dvupdate")
    started = provenance.now()
    with atomic_dir(a.out) as tmp:
        index = tmp / "index"
        built = engine.build_index(str(a.corpus / "docs.tsv"), str(index), a.id_format, a.flush_docs)
        write_json(tmp / "manifest.json", {
            "study": "dvupdate", "lucene_version": a.version, "id_format": a.id_format, "flush_docs": a.flush_docs,
            "engine": bridge.engine_info(), "jvm_flags": flags,
            "corpus": {"path": str(a.corpus), "sha256": corpus["sha256"], "docs": corpus["docs"]},
            "built": built.to_dict(orient="records")[0], **tree_checksums(tmp, ["index"]),
            "host": provenance.host(), "git": provenance.git(), "started": started, "finished": provenance.now(),
        })


if __name__ == "__main__":
    main()
