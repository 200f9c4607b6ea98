"""The join study's plan hook (:mod:`lrev.plan`): its jobs' kinds, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.join import forks as join_forks
from lrev.plan import forks_total

RULES = {"join_corpus": "corpus", "join_index": "index", "join_run": "run"}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """Parents and their children; the sweep's corpora hold the same documents, so every job handles as many."""
    corpus = settings["corpus"]
    return corpus["parents"] * (1 + corpus["children"])


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> int:
    return forks_total(join_forks.jobs(root, settings), settings["rounds"])
