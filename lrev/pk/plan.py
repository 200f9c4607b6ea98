"""The pk study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.pk import forks as pk_forks
from lrev.pk import layout
from lrev.plan import fork_names

RULES = {"pk_corpus": "corpus", "pk_index": "index", "pk_run": "run"}


def shape(corpus: str) -> str:
    """``seq``, ``rand`` or ``uuid``: the ids differ, so do their terms dictionaries."""
    return corpus


def sizes(settings: dict[str, Any]) -> dict[str, int]:
    return {corpus: layout.corpus_docs(settings, corpus) for corpus in ("seq", "rand", "uuid")}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """The corpus a job names (``seq``, ``rand`` or ``uuid``); the seq corpus, the seed's setting, otherwise."""
    return layout.corpus_docs(settings, wildcards.get("corpus", "seq"))


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    """A pk_run job measures one version."""
    return fork_names(pk_forks.jobs(root, wildcards["version"], settings), settings["rounds"])
