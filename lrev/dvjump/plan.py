"""The dvjump study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lrev.dvjump import forks as dvj_forks
from lrev.dvjump import layout
from lrev.plan import fork_names

RULES = {"dvjump_corpus": "corpus", "dvjump_index": "index", "dvjump_run": "run"}


def shape(corpus: str) -> str:
    """Every corpus holds the same kind of documents, the ladder's fewer of them."""
    return layout.FULL


def sizes(settings: dict[str, Any]) -> dict[str, int]:
    """The largest index a fork maps, by shape: the full corpus's (a ladder's rung has forks of its own)."""
    return {layout.FULL: settings["docs"]}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int | None:
    """The corpus a job names; the full one otherwise; None for a corpus this layout no longer names (an older
    run's benchmarks on disk)."""
    corpus = wildcards.get("corpus", layout.FULL)
    if corpus != layout.FULL and not re.fullmatch(rf"{layout.LADDER_PREFIX}\d+", corpus):
        return None
    return layout.corpus_docs(settings, corpus)


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    return fork_names(dvj_forks.jobs(root, settings), settings)


def series(settings: dict[str, Any], corpus: str) -> int:
    """The timed series a fork runs on one corpus (as the engine's ``DvjBench`` forms them): per workload, one
    per bucket of the corpus's queries (a varied size's on the variation bucket only, the export on its one query),
    twice for a concurrent workload (one and two request threads)."""
    buckets = layout.corpus_buckets(settings, corpus)
    concurrent = settings["concurrent_workloads"] if corpus == layout.FULL else []
    count = 0
    for workload in layout.corpus_workloads(settings, corpus):
        if workload.startswith("export"):
            per_thread = 1
        elif "@" in workload:
            per_thread = int(settings["variations"]["bucket"] in buckets)
        else:
            per_thread = len(buckets)
        count += per_thread * (2 if workload in concurrent else 1)
    return count


def configured(settings: dict[str, Any], fork: str) -> float:
    """The seconds a fork's config sets its timed loops to run: its corpus's series, each at its least warm-up and
    its measured iterations of at least ``iteration_ms``. Every fork of a corpus, the A/A one too, times the same
    series."""
    iterations = settings["min_warmup"] + settings["measure_iterations"]
    _, corpus = layout.fork_parts(fork)
    return series(settings, corpus) * iterations * settings["iteration_ms"] / 1000
