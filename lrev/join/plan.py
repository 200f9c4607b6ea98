"""The join study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.join import forks as join_forks
from lrev.join import layout
from lrev.plan import fork_names

RULES = {"join_corpus": "corpus", "join_index": "index", "join_run": "run"}


def shape(corpus: str) -> str:
    """One shape: the sweep's corpora (``share-N``) hold the main corpus's documents, keyed differently, and the
    ladder's (``parents-N``) the same recipe at other sizes, which a fit over documents prices."""
    return layout.CORPUS


def sizes(settings: dict[str, Any]) -> dict[str, int]:
    corpus = settings["corpus"]
    return {layout.CORPUS: corpus["parents"] * (1 + corpus["children"])}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """Parents and their children: a ladder corpus's or index's own, the main corpus's for every other job (the run
    job's forks are charged their own loops by :func:`configured`)."""
    return layout.docs(settings, wildcards.get("corpus", layout.CORPUS).removeprefix("-") or layout.CORPUS)


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    return fork_names(join_forks.jobs(root, settings), settings)


def configured(settings: dict[str, Any], fork: str) -> float:
    """The seconds a fork's config sets its loops to run, each warm-up at its least (as :mod:`lrev.join.tasks` runs
    them): an update fork's probes for ``updates.warmup.min_s`` and ``updates.measure_s``; a sweep fork's closed
    loop; a load fork's closed loop, one open-loop warm-up step, the saturation search's steps up to the capacity
    that service time implies (the rate at which it expects the first failure), its ``refine`` steps, the
    ``confirm`` repeats of the first failing rate and of each bisection (as if each failed), the
    profiled step and, where the contender has them on the version, the cold runs."""
    version, contender, corpus = layout.parse_job(fork)
    if contender in layout.UPDATE_DESIGNS:
        updates = settings["updates"]
        return updates["warmup"]["min_s"] + updates["measure_s"]
    warmup = settings["warmup"]
    closed = (warmup["min_warmup"] + warmup["measure_iterations"]) * warmup["iteration_ms"] / 1000
    if corpus is not None:
        return closed
    load = settings["load"]
    # Repeats of the first failing rung and of the bisections, as if each of them failed.
    steps = sum(f <= 1 for f in load["fractions"]) + load["refine"] + load["confirm"] * (1 + load["refine"])
    seconds = (closed + load["warmup_step_s"] + steps * load["step_s"] + settings["profile"]["seconds"]
               + load.get("closed_s", 0))
    if contender in settings["cold"]["contenders"].get(version, []):
        seconds += len(settings["cold"]["runs"]) * settings["cold"]["seconds"]
    return seconds
