"""The pk study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.pk import forks as pk_forks
from lrev.plan import fork_names

RULES = {"pk_corpus": "corpus", "pk_index": "index", "pk_run": "run"}


def shape(corpus: str) -> str:
    """``seq``, ``rand`` or ``uuid``: the ids differ, so do their terms dictionaries."""
    return corpus


def sizes(settings: dict[str, Any]) -> dict[str, int]:
    return {"seq": settings["docs"], "rand": settings["docs"], "uuid": settings["uuid_docs"]}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """The corpus a job names (``seq``, ``rand`` or ``uuid``); the seq corpus, the seed's setting, otherwise."""
    return settings["uuid_docs"] if wildcards.get("corpus") == "uuid" else settings["docs"]


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    """A pk_run job measures one version."""
    return fork_names(pk_forks.jobs(root, wildcards["version"], settings), settings["rounds"])
