"""The join study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.join import forks as join_forks
from lrev.join import layout
from lrev.plan import fork_names

RULES = {"join_corpus": "corpus", "join_index": "index", "join_run": "run"}


def shape(corpus: str) -> str:
    """One shape: the sweep's corpora (``share-N``) hold the main corpus's documents, keyed differently."""
    return layout.CORPUS


def sizes(settings: dict[str, Any]) -> dict[str, int]:
    corpus = settings["corpus"]
    return {layout.CORPUS: corpus["parents"] * (1 + corpus["children"])}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """Parents and their children; every job of the study handles as many."""
    return sizes(settings)[layout.CORPUS]


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    return fork_names(join_forks.jobs(root, settings), settings["rounds"])
