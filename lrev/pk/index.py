"""Build the `pk` indexes of one corpus for one Lucene version (own process, own JVM).

    python -m lrev.pk.index --version 9.12.3 --corpus runs/default/corpora/pk/seq \
        --out runs/default/indexes/pk/9.12.3/seq --segment-docs 20000 --contenders default Memory …

The folder appears whole or not at all. Its manifest.json records the Lucene version, the fields and
their formats, and every index's segments, so another tool (Luke, luceneutil) can open them: each
``<contender>/<layout>/`` is a plain Lucene index of that version, read through its default codec
plus lucene-codecs on the classpath.
"""
from __future__ import annotations

from pathlib import Path

from lrev import indexbuild
from lrev.io import tree_checksums
from lrev.pk import engine

FIELDS = {
    "id": "StringField: the primary key, indexed as one term (docs only, no freqs/positions/norms), "
          "not stored; its postings format is the contender",
    "body": "TextField: whitespace-tokenised synthetic text, not stored; the version's default format",
}


def main() -> None:
    ap = indexbuild.arguments(__doc__.split("\n")[0])
    ap.add_argument("--segment-docs", type=int, required=True)
    ap.add_argument("--contenders", nargs="+", required=True)
    ap.add_argument("--merged", action="store_true", help="also build force-merged copies")
    a = ap.parse_args()
    with indexbuild.building("pk", a.version, a.corpus, a.out) as build:
        tmp = build.dir
        built = engine.build_indexes(str(a.corpus / "docs.tsv"), str(tmp), a.contenders, a.segment_docs, a.merged)
        built["path"] = [str(Path(p).relative_to(tmp.resolve())) for p in built["path"]]
        # Readers check these before measuring (lrev.io.verify): an index changed since it was built is refused.
        build.record(fields=FIELDS, segment_docs=a.segment_docs,
                     merge_policy="LogDocMergePolicy + SerialMergeScheduler (deterministic; docID == corpus row)",
                     indexes=built.to_dict(orient="records"), **tree_checksums(tmp, list(built["path"])))


if __name__ == "__main__":
    main()
