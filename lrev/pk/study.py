"""The `pk` study's plug-in (:class:`lrev.studies.Study`): primary-key lookups, seed 001."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev import engine, studies
from lrev.config import ConfigError
from lrev.pk import contenders, layout
from lrev.studies import Quantity

BASELINE = layout.BASELINE_CONTENDER
AA = layout.AA

CONDITION = layout.CONDITION
FOOTPRINT_CONDITION = layout.FOOTPRINT_CONDITION
QUANTITIES = {
    "lookups_per_s": Quantity("lookups", "lookups_per_s", CONDITION, converges=True),
    "heap_bytes_per_doc": Quantity("footprint", "heap_bytes_per_doc", FOOTPRINT_CONDITION),
    "ram_bytes_per_doc": Quantity("footprint", "ram_bytes_per_doc", FOOTPRINT_CONDITION, positive=True),
    "disk_bytes_per_doc": Quantity("footprint", "disk_bytes_per_doc", FOOTPRINT_CONDITION),
    "reopen_ms": Quantity("reopen", "reopen_ms", ("corpus",)),
    # The documents of a lookup's corpus: the size a claim fitted on the ladder grows with (lrev/growth.py).
    "docs": Quantity("lookups", "docs", CONDITION),
}


def check(pk: dict[str, Any]) -> None:
    studies.require_baseline(pk["contenders"], "pk.contenders", pk["versions"], BASELINE)
    # Every version listed, run at this scale or not: a name a later scale would meet is wrong now.
    for version, listed in pk["contenders"].items():
        try:
            bad = contenders.unknown(version, listed)
        except KeyError as exc:
            raise ConfigError(f"config error at 'pk.contenders.{version}': {exc.args[0]}") from None
        if bad:
            raise ConfigError(f"config error at 'pk.contenders.{version}': unknown contender "
                              f"{', '.join(repr(b) for b in bad)} (Lucene {version} has: "
                              f"{', '.join(contenders.available(version))})")
        check_jdks(version, listed)
        # A JVM variant is judged against its contender in the default JVM, whose index it reads.
        alone = [c for c in listed if layout.jvm_variant(c) and layout.engine_name(c) not in listed]
        if alone:
            raise ConfigError(f"config error at 'pk.contenders.{version}': {', '.join(repr(c) for c in alone)} "
                              f"runs {', '.join(repr(layout.engine_name(c)) for c in alone)} in other JVMs, "
                              "which must be a contender too")
    if pk["min_warmup"] > pk["max_warmup"]:
        raise ConfigError("config error at 'pk.min_warmup': "
                          f"{pk['min_warmup']} exceeds max_warmup {pk['max_warmup']}")
    if pk["mixed_rounds"] > pk["rounds"]:
        raise ConfigError(f"config error at 'pk.mixed_rounds': {pk['mixed_rounds']} exceeds rounds {pk['rounds']}")
    check_ladder(pk)
    smallest = min(layout.corpus_docs(pk, c) for c in layout.corpora(pk))
    if pk["segment_docs"] > smallest:
        raise ConfigError(f"config error at 'pk.segment_docs': {pk['segment_docs']} exceeds the smallest corpus "
                          f"({smallest} docs)")


def check_jdks(version: str, listed: Sequence[str]) -> None:
    """A contender on another JDK needs an engine whose class files that JDK loads: the release the engine is
    compiled for (:func:`lrev.engine.release`) must not exceed it."""
    target = engine.release("pk", version)
    old = [c for c in listed if layout.java(c) is not None and layout.java(c) < target]
    if old:
        raise ConfigError(f"config error at 'pk.contenders.{version}': {', '.join(repr(c) for c in old)} would run "
                          f"on a JDK older than Java {target}, which the engine for Lucene {version} is compiled for "
                          f"(engine/shims/lucene<major>/build.properties, maven.compiler.release)")


def check_ladder(pk: dict[str, Any]) -> None:
    """The ladder's corpora grow and stay below the seq corpus (its top rung), its contenders are ones some
    version runs, and a registry that fits claims on the ladder gets a rung."""
    sizes, listed = pk["ladder"]["docs"], pk["ladder"]["contenders"]
    if sizes != sorted(set(sizes)) or (sizes and sizes[-1] >= pk["docs"]):
        raise ConfigError(f"config error at 'pk.ladder.docs': {sizes} must increase and stay below docs "
                          f"({pk['docs']}), the ladder's top rung")
    # Every version listed, run at this scale or not, as in check(): each run keeps its own (layout.for_version).
    run = {c for listed_ in pk["contenders"].values() for c in listed_}
    odd = [c for c in listed if c not in run]
    if odd:
        raise ConfigError(f"config error at 'pk.ladder.contenders': {', '.join(odd)} not a contender of any "
                          f"version in pk.contenders")
    if sizes and BASELINE not in listed:
        raise ConfigError(f"config error at 'pk.ladder.contenders': a ladder with corpora measures '{BASELINE}', "
                          f"which every version runs and every ratio is taken against")
    studies.require_rungs("pk", pk["versions"], sizes, "the seq corpus")
    if sizes:
        studies.require_on_ladder("pk", pk["versions"], pk["contenders"], listed, "pk.ladder.contenders")


def load(results: Path, versions: Sequence[str]):
    from lrev.pk import summary

    return summary.load(results, versions)


def numbers(results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
    from lrev.pk import numbers as pk_numbers

    return pk_numbers.numbers(results, versions, figures, claims)
