"""The dvjump study's plan hook (:mod:`lrev.plan`): its jobs' kinds, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.dvjump import forks as dvj_forks
from lrev.dvjump import layout
from lrev.plan import forks_total

RULES = {"dvjump_corpus": "corpus", "dvjump_index": "index", "dvjump_run": "run"}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """The corpus a job names (``full`` or ``tenth``); the full one otherwise."""
    return layout.corpus_docs(settings, wildcards.get("corpus", "full"))


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> int:
    return forks_total(dvj_forks.jobs(root, settings), settings["rounds"])
