"""The `join` study's plug-in (:class:`lrev.studies.Study`): query-time join against block join, seed 002."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from lrev.config import ConfigError, major
from lrev.join import layout
from lrev.studies import Quantity

BASELINE = layout.BASELINE
AA = layout.AA

#: One row per fork and load: the saturation search's outcome. The closed-loop warm-up's verdict rides along
#: (``stable``): a saturation placed by a service time measured before the JIT settled is inconclusive.
LOAD = ("workers",)
QUANTITIES = {
    "saturation_rps": Quantity("saturation", "saturation_rps", LOAD, converges=True),
    "low_p50_ms": Quantity("saturation", "low_p50_ms", LOAD, converges=True),
    "low_p99_ms": Quantity("saturation", "low_p99_ms", LOAD, converges=True),
    "cpu_at_saturation": Quantity("saturation", "cpu_at_saturation", LOAD, converges=True),
    "service_ms": Quantity("saturation", "service_ms", LOAD, converges=True),
}


def solr_release(version: str) -> str | None:
    """The Solr release the join engine of Lucene ``version`` carries (engine/studies/join/build.properties),
    or None."""
    from lrev import engine

    return engine.study_properties("join", version).get("solr.version")


def check(join: dict[str, Any]) -> None:
    for version in join["versions"]:
        if version not in join["contenders"]:
            raise ConfigError(f"config error at 'join.contenders': nothing listed for Lucene {version}")
        listed = join["contenders"][version]
        if BASELINE not in listed:
            raise ConfigError(f"config error at 'join.contenders.{version}': '{BASELINE}' must be a contender "
                              "(ratios are taken against it)")
        early = [c for c in listed if major(version) < layout.SINCE_MAJOR[c]]
        if early:
            raise ConfigError(f"config error at 'join.contenders.{version}': Lucene {version} has no "
                              f"{', '.join(early)} (JoinUtil's global-ordinals join and Solr's score=none came "
                              "in 7, method=topLevelDV in Solr 8)")
        solr = [c for c in listed if c in layout.SOLR]
        if solr and solr_release(version) is None:
            raise ConfigError(f"config error at 'join.contenders.{version}': {', '.join(solr)} need real Solr, and "
                              f"no Solr release is paired with Lucene {version} (engine/studies/join/build.properties)")
    fractions = join["load"]["fractions"]
    if any(b <= a for a, b in zip(fractions, fractions[1:])):
        raise ConfigError(f"config error at 'join.load.fractions': rates must increase: {fractions}")
    warmup = join["warmup"]
    if warmup["max_warmup"] < warmup["min_warmup"]:
        raise ConfigError(f"config error at 'join.warmup.max_warmup': {warmup['max_warmup']} is below min_warmup "
                          f"({warmup['min_warmup']})")


def load(results: Path, versions: Sequence[str]):
    from lrev.join import summary

    return summary.load(results, versions)


def numbers(results: Path, versions: Sequence[str], figures: Path, claims: dict[str, Any]) -> dict[str, Any]:
    from lrev.join import numbers as join_numbers

    return join_numbers.numbers(results, versions, figures, claims)
