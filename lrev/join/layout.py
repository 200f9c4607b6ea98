"""Where the `join` study's files live, below a scale's root (``<outdir>/<scale>``), and what it runs.

    corpora/join/blocks/                     docs.tsv, queries.tsv, manifest.json (synthetic, labelled so)
    corpora/join/share-<k>/                  the sweep's: the same, with k parents per join key
    corpora/join/parents-<n>/                the size ladder's: the same recipe with n parents
    indexes/join/<version>/lucene/           the Lucene index of the corpus, one segment + manifest.json
    indexes/join/<version>/solr/             the same corpus indexed by real Solr (nested documents) +
                                             manifest.json, on versions with Solr contenders
    indexes/join/<version>/<system>-share-<k>/  the same for a sweep corpus
    indexes/join/<version>/lucene-parents-<n>/  the Lucene index of a ladder corpus
    results/join/<version>/                  one .parquet per table of lrev/join/results.py, manifest.json
    results/join/forks/round-<r>/<job>/      each fork's own output (one run covers every version), with the
                                             HdrHistogram interval logs of its load steps and cold runs, and
                                             the Flight Recording of its profiled step
    figures/join/                            <figure>.pdf / .png

A contender is a way of answering the seed's request: a Lucene join (``block``, ``terms``, ``ordinals``,
``scan``) on the Lucene index, or a Solr query parser (``solr-*``) on Solr's own index of the same corpus.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

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
#: Marks of the profiled step (JFR execution samples with a frame whose ``class.method`` contains the string):
#: the terms dictionary, which the seed's jstack found Solr's join in, and its ``docFreq`` call.
MARKS = {"terms": "TermsEnum", "docfreq": ".docFreq"}
#: What each index file extension holds, 4.x to 10.x (a compound file would hide them: the indexes are written
#: without). The terms dictionary and the postings are the files the seed says must be hot.
FILE_KINDS = {"tim": "terms", "tip": "terms", "tmd": "terms", "doc": "postings", "pos": "postings",
              "pay": "postings", "psm": "postings", "fdt": "stored fields", "fdx": "stored fields",
              "fdm": "stored fields", "dvd": "doc values", "dvm": "doc values", "dvs": "doc values",
              "nvd": "norms", "nvm": "norms", "kdd": "points", "kdi": "points", "kdm": "points"}
TERMS_AND_POSTINGS = tuple(ext for ext, kind in FILE_KINDS.items() if kind in ("terms", "postings"))
BASELINE = "block"
#: The query-time join the crossover weighs block join against: the seed's algorithm, on every version.
QUERY_TIME = "scan"
AA_SUFFIX = "-aa"
AA = BASELINE + AA_SUFFIX
CORPUS = "blocks"
#: The update forks (the seed's conclusion): changing one child's acl by writing its whole block again, as block join
#: must, or the child alone, as query-time join may (engine ChildUpdates).
UPDATE_DESIGNS = {"update-block": "block", "update-child": "child"}
#: The size ladder (the seed's "and small indexes"): block join's and the query-time join's closed loops, and both
#: update designs, on corpora of other sizes; with the main corpus's, they place the crossover in index size.
LADDER = (BASELINE, QUERY_TIME, *UPDATE_DESIGNS)


def contender(name: str) -> str:
    """The contender a job runs (the A/A contender runs the baseline again)."""
    return name.removesuffix(AA_SUFFIX)


def system(name: str) -> str:
    """``solr`` for Solr's query parsers, ``lucene`` otherwise: which index a contender reads."""
    return "solr" if contender(name) in SOLR else "lucene"


def contenders(settings: dict[str, Any], version: str) -> list[str]:
    """The contenders timed on ``version``, plus the A/A contender where ``aa_versions`` has the version."""
    return [*settings["contenders"][version], *([AA] if version in settings["aa_versions"] else [])]


def jobs(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """(version, contender) of every load fork of a round."""
    return [(v, c) for v in settings["versions"] for c in contenders(settings, v)]


def sweep_jobs(settings: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(version, contender, corpus) of every fork of the unique-join-values sweep in a round."""
    sweep = settings["sweep"]
    return [(sweep["version"], c, sweep_corpus(k)) for k in sweep["shares"] for c in sweep["contenders"]]


def update_jobs(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """(version, update design) of every update fork of a round."""
    return [(v, d) for v in settings["versions"] for d in UPDATE_DESIGNS]


def ladder_jobs(settings: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(version, contender or update design, corpus) of every fork of the size ladder in a round."""
    ladder = settings["ladder"]
    return [(v, c, ladder_corpus(n)) for v in ladder["versions"] for n in ladder["parents"] for c in LADDER]


def share(corpus: str) -> int:
    """Parents per join key of a corpus."""
    return int(corpus.removeprefix("share-")) if corpus.startswith("share-") else 1


def ladder_corpus(parents: int) -> str:
    """The size ladder's corpus of ``parents`` parents."""
    return f"parents-{parents}"


def parents(settings: dict[str, Any], corpus: str) -> int:
    """Parents in a corpus: a ladder corpus's own count, the main corpus's otherwise."""
    return int(corpus.removeprefix("parents-")) if corpus.startswith("parents-") else settings["corpus"]["parents"]


def corpus_settings(settings: dict[str, Any], corpus: str) -> dict[str, Any]:
    """The settings data-recipes/join_corpus.py builds ``corpus`` with (lrev/recipe.py), all from the config: the
    main corpus's, with a ladder corpus's parents or a sweep corpus's parents per join key."""
    return {**settings["corpus"], "parents": parents(settings, corpus), "share": share(corpus), "seed": settings["seed"]}


def docs(settings: dict[str, Any], corpus: str) -> int:
    """Documents in a corpus: each parent with its children."""
    return parents(settings, corpus) * (1 + settings["corpus"]["children"])


def sweep_corpus(share: int) -> str:
    """The corpus in which ``share`` consecutive parents share a join key (1: the main corpus)."""
    return CORPUS if share == 1 else f"share-{share}"


def job_name(version: str, contender_: str, corpus: str | None = None) -> str:
    """A load fork's name, or with ``corpus`` a sweep fork's."""
    return f"{version}_{contender_}" if corpus is None else f"{version}_{contender_}_{corpus}"


def parse_job(name: str) -> tuple[str, str, str | None]:
    version, rest = name.split("_", 1)
    contender_, _, corpus = rest.partition("_")
    return version, contender_, corpus or None


def indexes(settings: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(version, system, corpus) of every index the run reads."""
    return sorted({(v, system(c), CORPUS) for v, c in jobs(settings)}
                  | {(v, system(c), corpus) for v, c, corpus in sweep_jobs(settings)}
                  | {(v, "lucene", corpus) for v, _, corpus in ladder_jobs(settings)})


def corpora(settings: dict[str, Any]) -> list[str]:
    return sorted({corpus for _, _, corpus in indexes(settings)})


def index_name(system_: str, corpus: str = CORPUS) -> str:
    """``lucene`` or ``solr`` for the main corpus, ``<system>-<corpus>`` for a sweep's or the ladder's."""
    return system_ if corpus == CORPUS else f"{system_}-{corpus}"


def corpus_dir(root: Path, corpus: str = CORPUS) -> Path:
    return Path(root) / "corpora" / "join" / corpus


def index_dir(root: Path, version: str, system_: str, corpus: str = CORPUS) -> Path:
    return Path(root) / "indexes" / "join" / version / index_name(system_, corpus)


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


def solr_release(version: str) -> str | None:
    """The Solr release the join engine of Lucene ``version`` carries (engine/studies/join/build.properties),
    or None."""
    from lrev import engine

    return engine.study_properties("join", version).get("solr.version")


#: Caches solrconfig.xml names by element; any other is a <cache name="...">.
NAMED_ELEMENTS = ("filterCache", "queryResultCache", "documentCache", "fieldValueCache")


def solr_caches(join: dict[str, Any], version: str) -> str:
    """The <query> cache elements of the Solr release paired with Lucene ``version`` (solrconfig.xml syntax), or
    '' when it has none."""
    caches = join["solr_caches"].get(solr_release(version) or "", {})
    elements = []
    for name, attributes in caches.items():
        attrs = " ".join(f'{k}="{escape(str(v))}"' for k, v in attributes.items())
        elements.append(f"<{name} {attrs}/>" if name in NAMED_ELEMENTS else f'<cache name="{escape(name)}" {attrs}/>')
    return "".join(elements)
