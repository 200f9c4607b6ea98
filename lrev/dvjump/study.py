"""The `dvjump` study's plug-in (:class:`lrev.studies.Study`): DocValues jump tables, seed 000."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev import studies
from lrev.config import ConfigError
from lrev.dvjump import layout
from lrev.studies import Quantity

BASELINE = layout.BASELINE
AA = layout.AA
WORKLOADS = ("search", "facet", "group", "sort", "retrieve", "export", "combined")

CELL = ("corpus", "workload", "bucket", "threads")
QUANTITIES = {
    "latency_ms": Quantity("latency", "latency_ms", CELL, converges=True),
    # The segment's documents: the size a claim's mechanism needs and its ladder is fitted on.
    "docs": Quantity("latency", "docs", CELL),
    "export_ms": Quantity("export", "latency_ms", ("run",)),
    # How much a request's latency grows per document added to the segment (lrev.dvjump.summary.walk): the walk
    # model's slope (claims/dvjump.yaml).
    "walk_ms_per_doc": Quantity("walk", "walk_ms_per_doc", CELL),
}


def check(dvjump: dict[str, Any]) -> None:
    for key in ("workloads", "concurrent_workloads"):
        unknown = [w for w in dvjump[key] if w not in WORKLOADS]
        if unknown:
            raise ConfigError(f"config error at 'dvjump.{key}': unknown workload {', '.join(map(repr, unknown))} "
                              f"(known: {', '.join(WORKLOADS)})")
    extra = sorted(set(dvjump["concurrent_workloads"]) - set(dvjump["workloads"]))
    if extra:
        raise ConfigError(f"config error at 'dvjump.concurrent_workloads': {', '.join(extra)} not in workloads")
    buckets = dvjump["buckets"]
    if dvjump["variations"]["sizes"] and dvjump["variations"]["bucket"] not in buckets:
        raise ConfigError(f"config error at 'dvjump.variations.bucket': {dvjump['variations']['bucket']} is not "
                          f"one of the buckets {buckets}")
    if any(b >= a for a, b in zip(buckets[1:], buckets)) or buckets[0] < 0:
        raise ConfigError(f"config error at 'dvjump.buckets': {buckets} must increase, from 0 on")
    if 10 ** buckets[-1] > dvjump["docs"]:
        raise ConfigError(f"config error at 'dvjump.docs': {dvjump['docs']} documents cannot give the largest "
                          f"bucket's 10^{buckets[-1]} hits")
    bad = [c for c in dvjump["contenders"] if c not in layout.CONTENDERS]
    if bad:
        raise ConfigError(f"config error at 'dvjump.contenders': unknown contender {', '.join(map(repr, bad))} "
                          f"(known: {', '.join(layout.CONTENDERS)})")
    runs = {layout.CONTENDERS[c].version for c in dvjump["contenders"]}
    reads = {layout.CONTENDERS[c].index_version for c in dvjump["contenders"]}
    missing = sorted((runs | reads) - set(dvjump["versions"]))
    if missing:
        raise ConfigError(f"config error at 'dvjump.versions': the contenders need Lucene {', '.join(missing)}")
    idle = sorted(set(dvjump["versions"]) - runs)
    if idle:
        raise ConfigError(f"config error at 'dvjump.versions': no contender runs on Lucene {', '.join(idle)} "
                          f"(each version's results come from its contenders' forks)")
    if BASELINE not in dvjump["contenders"]:
        raise ConfigError(f"config error at 'dvjump.contenders': '{BASELINE}' must be a contender (the baseline)")
    odd = [f for f in dvjump["positions"]["fields"] if f not in layout.DV_FIELDS]
    if odd:
        raise ConfigError(f"config error at 'dvjump.positions.fields': not a DocValues field: {', '.join(odd)} "
                          f"(fields: {', '.join(layout.DV_FIELDS)})")
    idle = [w for w in dvjump["reads"]["workloads"] if w not in dvjump["workloads"]]
    if idle:
        raise ConfigError(f"config error at 'dvjump.reads.workloads': {', '.join(idle)} not in workloads (a walk is "
                          f"read beside the workload's requests)")
    if dvjump["min_warmup"] > dvjump["max_warmup"]:
        raise ConfigError(f"config error at 'dvjump.min_warmup': {dvjump['min_warmup']} exceeds max_warmup "
                          f"{dvjump['max_warmup']}")
    check_ladder(dvjump)


def check_ladder(dvjump: dict[str, Any]) -> None:
    """The ladder's corpora grow, stay below the full corpus, hold every bucket of the ladder, and run workloads and
    buckets the full corpus runs; a registry that fits claims on the ladder gets at least two sizes."""
    docs, ladder = dvjump["docs"], dvjump["ladder"]
    sizes = ladder["docs"]
    if sizes != sorted(sizes) or (sizes and sizes[-1] >= docs):
        raise ConfigError(f"config error at 'dvjump.ladder.docs': {sizes} must increase and stay below docs ({docs})")
    if ladder["buckets"] != sorted(set(ladder["buckets"])):
        raise ConfigError(f"config error at 'dvjump.ladder.buckets': {ladder['buckets']} must increase")
    top = max(ladder["buckets"])
    if sizes and sizes[0] < 10 ** (top + 1):
        # The corpus recipe spreads a bucket's queries over [10^m, 10^(m+1)) hits; a smaller corpus would give its
        # top bucket other hit counts than the full corpus's, and the ladder would vary more than the size.
        raise ConfigError(f"config error at 'dvjump.ladder.docs': {sizes[0]} documents cannot spread the ladder's "
                          f"bucket 10^{top} over 10^{top}-10^{top + 1} hits")
    if sizes and not ladder["workloads"]:
        raise ConfigError("config error at 'dvjump.ladder.workloads': a ladder with corpora runs some workload")
    for key in ("workloads", "buckets"):
        odd = [w for w in ladder[key] if w not in dvjump[key]]
        if odd:
            raise ConfigError(f"config error at 'dvjump.ladder.{key}': {', '.join(map(str, odd))} not in {key}")
    studies.require_rungs("dvjump", dvjump["versions"], sizes, "the full corpus")


def load(results: Path, versions: Sequence[str]):
    from lrev.dvjump import summary

    return summary.load(results, versions)


def numbers(results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
    from lrev.dvjump import numbers as dvjump_numbers

    return dvjump_numbers.numbers(results, versions, figures, claims)
