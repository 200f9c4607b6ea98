"""Tidy summary tables of the `join` results (configured versions only).

Statistical unit: the fork. Each (version, contender) runs alone in one JVM per round: a closed-loop warm-up,
then the saturation search, whose outcome is one row per fork. A comparison of two contenders is the geometric
mean over rounds of the ratio of their forks' values, its interval resampling rounds (:mod:`lrev.rounds`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pandas as pd

from lrev import manifest, rounds
from lrev.join import layout, results
from lrev.tables import by_version, estimate_columns

STUDY = "join"
#: What one fork's saturation search yields.
METRICS = ("saturation_rps", "low_p50_ms", "low_p99_ms", "cpu_at_saturation", "service_ms")


@dataclass(frozen=True)
class JoinResults:
    gate: pd.DataFrame
    closed: pd.DataFrame
    steps: pd.DataFrame
    intervals: pd.DataFrame
    saturation: pd.DataFrame
    manifests: dict[str, dict]

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(self.manifests)


def load(results_root: str | Path, versions: Sequence[str]) -> JoinResults:
    frames, manifests = manifest.load(Path(results_root) / STUDY, versions, results.TABLES)
    return JoinResults(**frames, manifests=manifests)


def contender_table(data: JoinResults) -> pd.DataFrame:
    """Per version and contender: each metric's mean over forks, with its interval, and how the saturation
    searches ended."""
    rows = []
    for (version, contender), group in data.saturation.groupby(["version", "contender"], sort=True):
        row = {"version": version, "contender": contender, "system": group["system"].iloc[0],
               "kind": layout.KIND[layout.contender(contender)], "forks": len(group),
               "stable": int(group["stable"].all()), "outcomes": ", ".join(sorted(set(group["outcome"])))}
        for metric in METRICS:
            est = rounds.location(group, metric)
            row.update({metric: est.value, f"{metric}_low": est.low, f"{metric}_high": est.high})
        rows.append(row)
    return by_version(pd.DataFrame(rows))


def ratio(data: JoinResults, metric: str, a: str, b: str) -> pd.DataFrame:
    """``metric`` of contender a ÷ contender b per version, paired by round."""
    out = []
    for version, group in data.saturation.groupby("version", sort=True):
        sa, sb = group[group["contender"] == a], group[group["contender"] == b]
        if sa.empty or sb.empty or set(sa["round"]) != set(sb["round"]):
            continue
        try:
            est = rounds.ratio(sa, sb, metric)
        except ValueError:  # a fork whose search never saturated has no rate
            continue
        out.append({"version": version, "a": a, "b": b, "metric": metric, **estimate_columns(est)})
    return by_version(pd.DataFrame(out))


def gated(data: JoinResults) -> pd.DataFrame:
    """Per version and contender: the queries its gate checked (every answer agreed, or the run would have
    stopped) and the hits they matched."""
    return by_version(data.gate.groupby(["version", "contender"], as_index=False).agg(
        queries=("query", "nunique"), rounds=("round", "nunique"), hits=("hits", "sum")))
