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
    """The largest index a fork maps, by shape: the full corpus's (it reads the ladder's one at a time)."""
    return {layout.FULL: settings["docs"]}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int | None:
    """The corpus a job names; the full one otherwise; None for a corpus this layout no longer names (an older
    run's benchmarks on disk)."""
    corpus = wildcards.get("corpus", layout.FULL)
    if corpus != layout.FULL and not re.fullmatch(rf"{layout.LADDER_PREFIX}\d+", corpus):
        return None
    return layout.corpus_docs(settings, corpus)


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    return fork_names(dvj_forks.jobs(root, settings), settings["rounds"])
