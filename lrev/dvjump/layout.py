"""Where the `dvjump` study's files live, below a scale's root (``<outdir>/<scale>``), and its contenders.

    corpora/dvjump/<corpus>/                 docs.tsv, queries.tsv, manifest.json (corpus: full, docs-<n>)
    indexes/dvjump/<version>/<corpus>/<kind>/   one single-segment Lucene index + manifest.json
    results/dvjump/<version>/                latency, warmup, answers, export, positions, reads, cost .parquet,
                                             manifest.json
    results/dvjump/forks/round-<r>/<job>/    each fork's own output (one run covers every version): a contender on one
                                             corpus, named <contender> on the full one, <contender>_<corpus> on a rung
    figures/dvjump/                          <figure>.pdf / .png
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lrev import studies


@dataclass(frozen=True)
class Contender:
    """A system of the seed, or of this study: the Lucene version whose JVM reads, the index it reads
    (built by ``index_version`` as ``index_kind``), and how (``access``, a kind of DvjAccess)."""

    version: str
    index_version: str
    index_kind: str
    access: str
    label: str


#: Index kinds: ``native`` (built by the version, its default codec), ``dv70``/``dv80`` (built by 8.11.4 with
#: every field's DocValues in the Lucene70 or Lucene80 format), ``upgraded`` (the 7.7.3 index after 8.11.4's
#: IndexUpgrader).
INDEX_KINDS = {"native": "", "dv70": "Lucene70", "dv80": "Lucene80", "upgraded": ""}
CONTENDERS: dict[str, Contender] = {
    "lucene6": Contender("6.6.6", "6.6.6", "native", "native", "Lucene 6.6.6: random access"),
    "lucene7": Contender("7.7.3", "7.7.3", "native", "native", "Lucene 7.7.3: sequential"),
    "lucene7-index": Contender("8.11.4", "7.7.3", "native", "native",
                               "8.11.4 on the 7.7.3 index (the seed's Solr 7)"),
    "upgraded": Contender("8.11.4", "8.11.4", "upgraded", "native",
                          "8.11.4 on that index upgraded: LUCENE-8585 (Solr 8r1)"),
    "search-time": Contender("8.11.4", "7.7.3", "native", "jump",
                             "8.11.4 on the 7.7.3 index with search-time jump tables (Solr 7 L8374)"),
    "dv70": Contender("8.11.4", "8.11.4", "dv70", "native", "8.11.4, DocValues format Lucene70"),
    "dv80": Contender("8.11.4", "8.11.4", "dv80", "native", "8.11.4, DocValues format Lucene80"),
    "lucene9": Contender("9.12.3", "9.12.3", "native", "native", "Lucene 9.12.3"),
    "lucene10": Contender("10.6.0", "10.6.0", "native", "native", "Lucene 10.6.0"),
}
#: The seed's baseline: sequential DocValues (Lucene 7's format, read by 8.11.4); its A/A twin.
BASELINE = "lucene7-index"
AA_SUFFIX = "-aa"
AA = BASELINE + AA_SUFFIX
#: The main corpus; the ladder's are named by their documents.
FULL = "full"
LADDER_PREFIX = "docs-"
#: The bucket the export workload reports its one query in (the seed's ~0.02% of the index), whatever its size.
EXPORT_BUCKET = -1
#: The corpus's DocValues fields (data-recipes/dvjump_corpus.py; the engine's DvjSchema indexes them).
DV_FIELDS = ("id", "source_file_s", "url_norm", "host", "domain", "public_suffix", "crawl_year", "crawl_date",
             "content_type_norm", "content_type_served", "content_type_ext", "status_code", "content_length",
             "content_language")


def contender(name: str) -> Contender:
    return CONTENDERS[name.removesuffix(AA_SUFFIX)]


def timed(settings: dict[str, Any]) -> list[str]:
    """The configured contenders plus the A/A contender."""
    return [*settings["contenders"], AA]


#: The workloads whose size the seed's "variations of rows, facet.limit and group.limit" vary.
VARIED = ("facet", "group", "sort", "retrieve")


def workloads(settings: dict[str, Any]) -> list[str]:
    """The configured workloads, then each varied one at each other size (``facet@100``, …), which runs on
    the variation bucket's queries only."""
    return [*settings["workloads"], *(f"{w}@{n}" for w in VARIED if w in settings["workloads"]
                                      for n in settings["variations"]["sizes"])]


def corpus_dir(root: Path, corpus: str) -> Path:
    return Path(root) / "corpora" / "dvjump" / corpus


def index_dir(root: Path, version: str, corpus: str, kind: str) -> Path:
    return Path(root) / "indexes" / "dvjump" / version / corpus / kind


def indexes(settings: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(builder version, corpus, kind) of every index the configured contenders read."""
    return sorted({(c.index_version, corpus, c.index_kind) for name in settings["contenders"]
                   for c in [CONTENDERS[name]] for corpus in corpora(settings)})


def corpora(settings: dict[str, Any]) -> list[str]:
    """The full corpus, then the ladder's, smallest first."""
    return [FULL, *(f"{LADDER_PREFIX}{n}" for n in settings["ladder"]["docs"])]


#: Between a contender and a ladder corpus in a fork's name (no contender's name holds it).
RUNG = "_"


def fork_name(contender: str, corpus: str) -> str:
    """The fork that times ``contender`` on ``corpus``: the contender's name on the full corpus, with the corpus
    after :data:`RUNG` on a ladder's."""
    return contender if corpus == FULL else f"{contender}{RUNG}{corpus}"


def fork_parts(name: str) -> tuple[str, str]:
    """The contender and the corpus of the fork ``name`` (:func:`fork_name`)."""
    contender, _, corpus = name.partition(RUNG)
    return contender, corpus or FULL


def corpus_docs(settings: dict[str, Any], corpus: str) -> int:
    return settings["docs"] if corpus == FULL else int(corpus.removeprefix(LADDER_PREFIX))


def corpus_workloads(settings: dict[str, Any], corpus: str) -> list[str]:
    """Every workload and variation on the full corpus; the ladder's workloads on the others."""
    return workloads(settings) if corpus == FULL else list(settings["ladder"]["workloads"])


def corpus_buckets(settings: dict[str, Any], corpus: str) -> list[int]:
    """The configured buckets (the ladder's, on its corpora) a corpus is large enough for."""
    buckets = settings["buckets"] if corpus == FULL else settings["ladder"]["buckets"]
    return [b for b in buckets if 10 ** b <= corpus_docs(settings, corpus)]


def corpus_settings(settings: dict[str, Any], corpus: str) -> dict[str, Any]:
    """The settings data-recipes/dvjump_corpus.py builds ``corpus`` with (lrev/recipe.py), all from the config."""
    return {"docs": corpus_docs(settings, corpus), "seed": settings["seed"], "buckets": corpus_buckets(settings, corpus),
            "queries_per_bucket": settings["queries_per_bucket"], "export_fraction": settings["export_fraction"]}


#: The index every contender of 8.11.4 reading a Lucene 7 index reads, and the one IndexUpgrader rewrites.
UPGRADED_FROM = "7.7.3"


def results_dir(root: Path, version: str) -> Path:
    return studies.results_dir(root, "dvjump", version)


def forks_dir(root: Path) -> Path:
    return Path(root) / "results" / "dvjump" / "forks"
