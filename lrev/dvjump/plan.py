"""The dvjump study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

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
    """The corpora the run's forks read."""
    return {c: layout.corpus_docs(settings, c) for c in layout.corpora(settings)}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """The corpus a job names; the full one otherwise."""
    return layout.corpus_docs(settings, wildcards.get("corpus", layout.FULL))


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    return fork_names(dvj_forks.jobs(root, settings), settings["rounds"])
