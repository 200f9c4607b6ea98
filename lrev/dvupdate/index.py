"""Build one `dvupdate` index (own process, own JVM of the version).

    python -m lrev.dvupdate.index --version 10.6.0 --corpus runs/default/corpora/dvupdate/synthetic-big \\
        --id-format FST50 --flush-docs 2000 --out runs/default/indexes/dvupdate/10.6.0/synthetic-big

The folder appears whole or not at all: the corpus in segments of ``--flush-docs`` documents, the same
layout on every version, and a manifest.json with the version, the id field's postings format, the
segments and the sha256 of the index files, which every fork checks before it copies the index.
"""
from __future__ import annotations

from lrev import indexbuild
from lrev.dvupdate import engine
from lrev.io import tree_checksums


def main() -> None:
    ap = indexbuild.arguments(__doc__.split("\n")[0])
    ap.add_argument("--id-format", required=True, help="postings format of the id field (SPI name)")
    ap.add_argument("--flush-docs", type=int, required=True)
    a = ap.parse_args()
    with indexbuild.building("dvupdate", a.version, a.corpus, a.out) as build:
        built = engine.build_index(str(a.corpus / "docs.tsv"), str(build.dir / "index"), a.id_format, a.flush_docs)
        build.record(id_format=a.id_format, flush_docs=a.flush_docs, built=built.to_dict(orient="records")[0],
                     **tree_checksums(build.dir, ["index"]))


if __name__ == "__main__":
    main()
