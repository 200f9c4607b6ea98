"""Tidy summary tables of the `pk` (primary-key lookup) study results.

Reads RESULTS/pk/<version>/{lookups,footprint,reopen}.parquet and
manifest.json. Only ``phase == "measure"`` samples are analysed: warm-up rounds
exist to reach a JIT-stable state and would bias every statistic.

Every table is long-format (one row per estimate) so that seaborn can facet
it directly and the paper can look values up by key.

Statistical unit: within one fork, one (corpus, layout, miss_rate, threads)
group is a single interleaved run in which every contender ran once per
round, so contender ratios are paired by (fork, round). Footprints are one
value per fork, paired by fork. Reopen samples are separate indexing sessions
per contender and are never paired.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

from lrev import stats

STUDY = "pk"
BASELINE = "default"
AA = "default-aa"
"""The A/A contender: the default format measured again as a separate reader."""

CONDITION = ("corpus", "layout", "miss_rate", "threads")
FOOTPRINT_CONDITION = ("corpus", "layout")
FOOTPRINT_METRICS = ("heap", "disk", "accounted")


@dataclass(frozen=True)
class PkResults:
    """All `pk` results, measure phase only, concatenated over versions."""

    lookups: pd.DataFrame
    footprint: pd.DataFrame
    reopen: pd.DataFrame
    manifests: dict[str, dict]

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(self.manifests)


def version_key(version: str) -> tuple[int, ...]:
    """Numeric sort key: "10.5.1" sorts after "9.12.3"."""
    return tuple(int(part) for part in version.split("."))


def load(results: str | Path) -> PkResults:
    """Load every version directory present under ``results/pk``, oldest first."""
    base = Path(results) / STUDY
    dirs = sorted((d for d in base.iterdir() if (d / "manifest.json").is_file()), key=lambda d: version_key(d.name))
    if not dirs:
        raise FileNotFoundError(f"no {STUDY} results (no */manifest.json) under {base}")

    def read(name: str) -> pd.DataFrame:
        frame = pd.concat([pd.read_parquet(d / f"{name}.parquet") for d in dirs], ignore_index=True)
        return frame[frame["phase"] == "measure"].reset_index(drop=True) if "phase" in frame else frame

    return PkResults(
        lookups=read("lookups"),
        footprint=read("footprint"),
        reopen=read("reopen"),
        manifests={d.name: json.loads((d / "manifest.json").read_text()) for d in dirs},
    )


def _estimate_columns(est: stats.Estimate) -> dict[str, float | int]:
    return {"value": est.value, "low": est.low, "high": est.high, "n": est.n}


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    """Sort rows by numeric version so tables and figures read oldest→newest."""
    if frame.empty:
        return frame
    return frame.sort_values("version", key=lambda s: s.map(version_key), kind="stable").reset_index(drop=True)


def lookups_table(lookups: pd.DataFrame) -> pd.DataFrame:
    """Mean lookups/s (95% CI over rounds), median, p90, std and stable share per contender × condition."""
    rows = []
    keys = ["version", "contender", "family", *CONDITION]
    for key, group in lookups.groupby(keys, sort=True):
        x = group["lookups_per_s"].to_numpy()
        sp = stats.spread(x)
        rows.append({**dict(zip(keys, key)), **_estimate_columns(stats.location(x)),
                     "median": sp.median, "p90": sp.p90, "std": sp.std,
                     "stable_fraction": float(group["stable"].mean())})
    return _ordered(pd.DataFrame(rows))


def paired_samples(group: pd.DataFrame, a: object, b: object, value: str = "lookups_per_s",
                   on: Iterable[str] = ("fork", "round"), column: str = "contender") -> tuple[np.ndarray, np.ndarray]:
    """Aligned samples where ``column`` is ``a`` and ``b`` (contenders by default) from one run, matched on
    ``on``; unmatched rows drop."""
    wide = group.pivot_table(index=list(on), columns=column, values=value, aggfunc="first")
    pairs = wide[[a, b]].dropna()
    return pairs[a].to_numpy(), pairs[b].to_numpy()


def ratio_table(lookups: pd.DataFrame, baseline: str = BASELINE) -> pd.DataFrame:
    """Paired lookups/s ratio of every contender vs ``baseline`` per version × condition.

    Includes the A/A contender, whose ratio is the noise floor of that run.
    """
    rows = []
    for key, group in lookups.groupby(["version", *CONDITION], sort=True):
        present = set(group["contender"])
        if baseline not in present:
            continue
        for contender, fam in group[["contender", "family"]].drop_duplicates().itertuples(index=False):
            if contender == baseline:
                continue
            a, b = paired_samples(group, contender, baseline)
            rows.append({**dict(zip(["version", *CONDITION], key)), "contender": contender, "family": fam,
                         **_estimate_columns(stats.paired_ratio(a, b))})
    return _ordered(pd.DataFrame(rows))


def noise_floor(low: float, high: float) -> float:
    """Symmetric A/A noise factor f >= 1: ratios inside [1/f, f] are indistinguishable from noise.

    Taken from the A/A CI's farther bound, so it covers both the sampling
    noise and any systematic bias between two readers of the same index.
    """
    if math.isnan(low) or math.isnan(high):
        return math.nan
    return float(math.exp(max(abs(math.log(low)), abs(math.log(high)))))


def noise_table(ratios: pd.DataFrame) -> pd.DataFrame:
    """A/A rows of :func:`ratio_table` with their noise factor ``floor``."""
    aa = ratios[ratios["contender"] == AA].copy()
    aa["floor"] = [noise_floor(lo, hi) for lo, hi in zip(aa["low"], aa["high"])]
    return aa.reset_index(drop=True)


def footprint_table(footprint: pd.DataFrame) -> pd.DataFrame:
    """Mean heap/disk/accounted bytes per doc (95% CI over forks) per contender × corpus × layout.

    ``accounted`` is dropped where the benchmark reports -1 (unavailable).
    """
    rows = []
    keys = ["version", "contender", "family", *FOOTPRINT_CONDITION]
    for key, group in footprint.groupby(keys, sort=True):
        for metric in FOOTPRINT_METRICS:
            x = group[f"{metric}_bytes_per_doc"].to_numpy(dtype=float)
            x = x[x >= 0]
            if x.size:
                rows.append({**dict(zip(keys, key)), "metric": metric, **_estimate_columns(stats.location(x))})
    return _ordered(pd.DataFrame(rows))


def reopen_table(reopen: pd.DataFrame) -> pd.DataFrame:
    """NRT reopen latency per contender × corpus: median (95% CI), p90 and std, in ms."""
    rows = []
    keys = ["version", "contender", "family", "corpus"]
    for key, group in reopen.groupby(keys, sort=True):
        x = group["reopen_ms"].to_numpy()
        sp = stats.spread(x)
        rows.append({**dict(zip(keys, key)), **_estimate_columns(stats.location(x, statistic="median")),
                     "p90": sp.p90, "std": sp.std})
    return _ordered(pd.DataFrame(rows))


def scaling_table(lookups: pd.DataFrame) -> pd.DataFrame:
    """Paired lookups/s ratio 2 threads ÷ 1 thread per contender × condition: both thread counts run in
    the same interleaved rounds, so samples pair by fork and round."""
    rows = []
    keys = ["version", "contender", "family", "corpus", "layout", "miss_rate"]
    for key, group in lookups.groupby(keys, sort=True):
        if {1, 2} <= set(group["threads"]):
            two, one = paired_samples(group, 2, 1, column="threads")
            rows.append({**dict(zip(keys, key)), **_estimate_columns(stats.paired_ratio(two, one))})
    return _ordered(pd.DataFrame(rows))


def select(frame: pd.DataFrame, **where: object) -> pd.DataFrame:
    """Rows matching all ``column == value`` conditions (float-safe for miss_rate)."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        col = frame[column]
        mask &= np.isclose(col.to_numpy(dtype=float), float(value)) if isinstance(value, float) else (col == value).to_numpy()
    return frame[mask]
