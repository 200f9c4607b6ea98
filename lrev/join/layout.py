"""Where the `join` study's files live, below a scale's root (``<outdir>/<scale>``), and what it runs.

    corpora/join/blocks/                     docs.tsv, queries.tsv, manifest.json (synthetic, labelled so)
    indexes/join/<version>/lucene/           the Lucene index of the corpus, one segment + manifest.json
    indexes/join/<version>/solr/             the same corpus indexed by real Solr (nested documents) +
                                             manifest.json, on versions with Solr contenders
    results/join/<version>/                  gate, closed, steps, intervals .parquet, manifest.json
    results/join/forks/round-<r>/<job>/      each fork's own output (one run covers every version), with the
                                             HdrHistogram interval log of its load steps
    figures/join/                            <figure>.pdf / .png

A contender is a way of answering the seed's request: a Lucene join (``block``, ``terms``, ``ordinals``,
``scan``) on the Lucene index, or a Solr query parser (``solr-*``) on Solr's own index of the same corpus.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev import studies

#: Lucene-level contenders, then real Solr's; the first major each runs on.
LUCENE = ("block", "terms", "ordinals", "scan")
SOLR = ("solr-parent", "solr-join", "solr-join-none", "solr-topdv")
SINCE_MAJOR = {"block": 4, "terms": 4, "ordinals": 7, "scan": 4,
               "solr-parent": 4, "solr-join": 4, "solr-join-none": 7, "solr-topdv": 8}
#: Which kind of join each contender is: the seed compares query-time join with block join.
KIND = {"block": "block", "terms": "query-time", "ordinals": "query-time", "scan": "query-time",
        "solr-parent": "block", "solr-join": "query-time", "solr-join-none": "query-time",
        "solr-topdv": "query-time"}
BASELINE = "block"
AA_SUFFIX = "-aa"
AA = BASELINE + AA_SUFFIX
CORPUS = "blocks"


def contender(name: str) -> str:
    """The contender a job runs (the A/A contender runs the baseline again)."""
    return name.removesuffix(AA_SUFFIX)


def system(name: str) -> str:
    """``solr`` for Solr's query parsers, ``lucene`` otherwise: which index a contender reads."""
    return "solr" if contender(name) in SOLR else "lucene"


def contenders(settings: dict[str, Any], version: str) -> list[str]:
    """The contenders timed on ``version``, plus the A/A contender."""
    return [*settings["contenders"][version], AA]


def jobs(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """(version, contender) of every fork of a round."""
    return [(v, c) for v in settings["versions"] for c in contenders(settings, v)]


def job_name(version: str, contender_: str) -> str:
    return f"{version}_{contender_}"


def parse_job(name: str) -> tuple[str, str]:
    version, contender_ = name.split("_", 1)
    return version, contender_


def indexes(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """(version, system) of every index the run reads."""
    return sorted({(v, system(c)) for v, c in jobs(settings)})


def corpus_dir(root: Path) -> Path:
    return Path(root) / "corpora" / "join" / CORPUS


def index_dir(root: Path, version: str, system_: str) -> Path:
    return Path(root) / "indexes" / "join" / version / system_


#: What a contender opens below its index folder: Lucene's index, or the Solr home whose core holds the same
#: corpus in ``home/data/index``.
OPENED = {"lucene": "index", "solr": "home"}
#: The Lucene index files of each system, below its index folder: what the manifest's sha256 covers (not Solr's
#: configuration, which a core rewrites when it opens with a directory of its own).
FILES = {"lucene": "index", "solr": "home/data/index"}


def results_dir(root: Path, version: str) -> Path:
    return studies.results_dir(root, "join", version)


def forks_dir(root: Path) -> Path:
    return Path(root) / "results" / "join" / "forks"
