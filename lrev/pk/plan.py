"""The pk study's plan hook (:mod:`lrev.plan`): its jobs' kinds, shapes, documents and forks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from lrev.pk import forks as pk_forks
from lrev.pk import layout, results
from lrev.plan import fork_names

RULES = {"pk_corpus": "corpus", "pk_index": "index", "pk_run": "run"}


def shape(corpus: str) -> str:
    """``seq``, ``rand`` or ``uuid``: the ids differ, so do their terms dictionaries; a ladder's ``seq-<n>`` holds
    sequential ids, so its cost per document is fitted with the seq corpus's."""
    return layout.corpus_kind(corpus)


def sizes(settings: dict[str, Any]) -> dict[str, int]:
    return {corpus: layout.corpus_docs(settings, corpus) for corpus in ("seq", "rand", "uuid")}


def docs(settings: dict[str, Any], rule: str | None, wildcards: dict[str, str]) -> int:
    """The corpus a job names (``seq``, ``rand``, ``uuid`` or a ladder's ``seq-<n>``); the seq corpus, the seed's
    setting, otherwise."""
    return layout.corpus_docs(settings, wildcards.get("corpus", "seq"))


def job_settings(settings: dict[str, Any], wildcards: dict[str, str]) -> dict[str, Any]:
    """A pk_run job runs one version with that version's settings (:func:`layout.for_version`, as
    :func:`lrev.pk.forks.run` does): a version whose ladder is the baseline alone runs no ladder forks."""
    version = wildcards.get("version")
    return layout.for_version(settings, version) if version in settings["contenders"] else settings


def forks(root: Path, settings: dict[str, Any], wildcards: dict[str, str]) -> list[str]:
    """A pk_run job measures one version."""
    return fork_names(pk_forks.jobs(root, wildcards["version"], settings), settings)


def configured(settings: dict[str, Any], fork: str) -> float:
    """The seconds a fork's config sets its timed loops to run, each warm-up at its least (as
    :mod:`lrev.pk.tasks` runs them), one ``iteration_ms`` per series and iteration: an ``alone-`` fork's seed
    series (:func:`layout.cold_warmup`), then its other series interleaved, then an index's NRT reopens; a
    ``rung-`` fork's one series, warmed up as the seed's; a ``plain-`` fork's loop; the ``mixed`` fork's series, one
    per contender in the default JVM (no JVM variant) of the version that times the most."""
    it = settings["iteration_ms"] / 1000
    measure = settings["measure_iterations"]
    if fork == results.MIXED:
        n = max(sum(not layout.jvm_variant(c) for c in layout.timed_contenders(settings, v))
                for v in settings["versions"])
        return (layout.cold_warmup(settings, n) + measure) * n * it
    if fork.startswith(results.PLAIN):
        return settings["plain"]["warmup_s"] + settings["plain"]["measure_s"]
    if fork.startswith(results.RUNG):
        return (layout.cold_warmup(settings, 1) + measure) * it
    contender = fork.removeprefix(results.ALONE)
    others = sum(len(c["threads"]) for c in settings["conditions"]) - 1
    seconds = (layout.cold_warmup(settings, 1) + measure + others * (settings["min_warmup"] + measure)) * it
    if not contender.endswith(layout.AA_SUFFIX) and not layout.strategy(contender):
        reopen = settings["reopen"]
        reopens = reopen["warmup_reopens"] + reopen["rounds"] * reopen["reopens_per_round"]
        seconds += reopens * reopen["interval_ms"] / 1000
    return seconds
