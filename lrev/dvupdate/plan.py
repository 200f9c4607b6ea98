"""The dvupdate study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks, and the seconds a
fork's config sets it to spend."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.dvupdate import forks as dvu_forks
from lrev.dvupdate import layout
from lrev.plan import fork_names

RULES = {"dvupdate_real": "corpus", "dvupdate_synthetic": "corpus", "dvupdate_index": "index",
         "dvupdate_run": "run"}


def role_of(corpus: str) -> str:
    """The role of a corpus folder (``synthetic-big``, a ladder's ``synthetic-big-2000``), or a role name itself."""
    text, _, rest = corpus.partition("-")
    return rest if text in ("real", "synthetic") else corpus


def shape(corpus: str) -> str:
    """The shape, ``big`` (whole articles) or ``medium`` (1K chunks), of a corpus or role name: real and synthetic
    text of one shape, and the size ladder's corpora of the big one, have the same bytes per document."""
    return layout.shape(role_of(corpus))


def sizes(settings: dict[str, Any]) -> dict[str, int | None]:
    """Each role's documents; None for the real fragment, whose size is known only once it is parsed."""
    return {r: spec.get("docs") for r, spec in settings["corpora"].items()}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int | None:
    """The role a job names (``shape``, or ``corpus``'s); a run job's forks update every role's corpus
    (the size ladder's too), so its size is theirs together. None for the real fragment."""
    if rule == "dvupdate_real":
        return None
    named = wildcards.get("shape") or role_of(wildcards.get("corpus", ""))
    specs = layout.roles(settings)
    found = [specs[r].get("docs") for r in ([named] if named else specs) if r in specs]
    return None if not found or None in found else sum(found)


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    return fork_names(dvu_forks.jobs(root, settings), settings)


def configured(settings: dict[str, Any], fork: str) -> float:
    """Each of the fork's cells warms up for at least ``warmup_s`` (the first, the fork's warm-up:
    :func:`layout.first_warmup_s`) and measures for ``measure_s`` or ``min_reopens`` of its intervals, whichever is
    longer; a reindexing method's cells at the highest rate measure for ``max_measure_s``."""
    _, role, contender = layout.parse_job(fork)
    if role not in layout.roles(settings):
        return 0.0
    top = max(settings["grid"]["rates"].values())
    # Methods that re-add whole documents fall behind at the highest rate (the seed's own result), and in the
    # default run most such cells ran to max_measure_s: charging them as keeping up under-counted by 0.8 h.
    reindexing = layout.method(contender) in layout.REINDEXING
    fork_warmup = layout.first_warmup_s(settings, contender) - settings["warmup_s"]
    return fork_warmup + sum(cell_seconds(settings, c["interval_ms"], behind=reindexing and c["rate"] == top)
                             for c in layout.cells(settings, role))


#: The seed's grid: updates per second × reopen intervals, each cell warmed up for 5 s and measured for 30 s.
SEED_GRID = {"rates": (1, 10, 100, 1000), "intervals_ms": (1000, 2000, 5000), "warmup_s": 5, "measure_s": 30}


def seed_grid_factor(settings: dict[str, Any]) -> float:
    """How many times its big corpus's cells a fork would take on the seed's whole grid, each cell measuring
    ``min_reopens`` reopens too: what cutting the grid saves."""
    seed = {**settings, "warmup_s": SEED_GRID["warmup_s"], "measure_s": SEED_GRID["measure_s"]}
    full = len(SEED_GRID["rates"]) * sum(cell_seconds(seed, i) for i in SEED_GRID["intervals_ms"])
    return full / sum(cell_seconds(settings, c["interval_ms"]) for c in layout.cells(settings, "big"))


def cell_seconds(settings: dict[str, Any], interval_ms: int, behind: bool = False) -> float:
    """A cell's shortest run at this interval if its reopens keep up, else its longest."""
    measured = settings["max_measure_s"] if behind else max(settings["measure_s"],
                                                            settings["min_reopens"] * interval_ms / 1000)
    return settings["warmup_s"] + measured
