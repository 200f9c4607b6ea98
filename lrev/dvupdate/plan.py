"""The dvupdate study's plan hook (:mod:`lrev.plan`): its jobs' kinds, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.dvupdate import forks as dvu_forks
from lrev.plan import forks_total

RULES = {"dvupdate_real": "corpus", "dvupdate_synthetic": "corpus", "dvupdate_index": "index",
         "dvupdate_run": "run"}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int | None:
    """The corpus role a job names (``shape``, or the end of ``corpus``: ``synthetic-big``); a run job's forks
    update every role's corpus, so its size is theirs together. None for the real fragment: its size is known only
    once it is parsed."""
    if rule == "dvupdate_real":
        return None
    role = wildcards.get("shape") or wildcards.get("corpus", "").rpartition("-")[2]
    roles = [role] if role else list(settings["corpora"])
    sizes = [settings["corpora"][r].get("docs") for r in roles if r in settings["corpora"]]
    return None if not sizes or None in sizes else sum(sizes)


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> int:
    return forks_total(dvu_forks.jobs(root, settings), settings["rounds"])
