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

import shutil
from pathlib import Path

from lrev import indexbuild
from lrev.dvjump import engine
from lrev.dvjump.layout import INDEX_KINDS
from lrev.io import read_json, tree_checksums, verify


def main() -> None:
    ap = indexbuild.arguments(__doc__.split("\n")[0])
    ap.add_argument("--kind", choices=sorted(INDEX_KINDS), required=True)
    ap.add_argument("--source", type=Path, help="the index to upgrade (kind upgraded)")
    a = ap.parse_args()
    if (a.kind == "upgraded") != (a.source is not None):
        ap.error("--source is needed for kind upgraded, and only for it")
    if a.source:
        verify(a.source / "manifest.json", read_json(a.source / "manifest.json")["sha256"], tree=True)
    with indexbuild.building("dvjump", a.version, a.corpus, a.out) as build:
        index = build.dir / "index"
        if a.source:
            shutil.copytree(a.source / "index", index)
            built = engine.upgrade_index(str(index))
        else:
            built = engine.build_index(str(a.corpus / "docs.tsv"), str(index), INDEX_KINDS[a.kind])
        # The source below the run's root (indexes/dvjump/<version>/<corpus>/<kind>): where the run lies is the
        # building machine's.
        build.record(kind=a.kind, source="/".join(a.source.resolve().parts[-5:]) if a.source else None,
                     built=built.to_dict(orient="records")[0], **tree_checksums(build.dir, ["index"]))


if __name__ == "__main__":
    main()
