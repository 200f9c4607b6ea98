"""The pk study's plan hook (:mod:`lrev.plan`): its jobs' kinds, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.pk import forks as pk_forks
from lrev.plan import forks_total

RULES = {"pk_corpus": "corpus", "pk_index": "index", "pk_run": "run"}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """The corpus a job names (``uuid`` or ``seq``); the seq corpus, the seed's setting, otherwise."""
    return settings["uuid_docs"] if wildcards.get("corpus") == "uuid" else settings["docs"]


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> int:
    """A pk_run job measures one version."""
    return forks_total(pk_forks.jobs(root, wildcards["version"], settings), settings["rounds"])
