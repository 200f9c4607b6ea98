"""Steady state read from a fork's measured series, as Barrett et al. ("Virtual Machine Warmup Blows Hot and Cold",
OOPSLA 2017) read it: changepoints, then a class.

A series is a fork's iterations (or probes, or reopens) in the order they ran, each a time per operation or a rate.
PELT (``ruptures``, least absolute deviations on the log values scaled by the series' own short-range noise: a
collection's or an interrupt's spike moves a median, which this cost fits, less than a mean) finds its changepoints;
a segment whose mean differs from the level before it by less than ``merge`` (a relative difference), or by less than
the noise explains, continues that level. Then:

- ``flat``: one segment, steady from the first iteration;
- ``warm-up``: the last segment is the fastest, or as fast as the fastest within ``merge``: steady after a warm-up;
- ``slowdown``: an earlier segment was faster than the last: steady, but slower than the series once ran;
- ``no steady state``: the last segment is shorter than ``min_steady`` iterations, so nothing shows that the series
  settled.

The steady segment is the last one, in the first three classes. The penalty is in units of the series' noise per
changepoint, times log n (a BIC-like penalty): a shift the noise alone would often make costs more than it saves.
tests/test_steady.py chose the cost and checks the penalty at this machine's per-iteration noise.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Sequence

import numpy as np
import pandas as pd
import ruptures

CLASSES = ("flat", "warm-up", "slowdown", "no steady state")
Faster = Literal["lower", "higher"]


@dataclass(frozen=True)
class Steady:
    """A series' class, the index its last (steady) segment starts at, and its changepoints (segment starts)."""

    kind: str
    start: int
    changepoints: tuple[int, ...]


def noise(logs: np.ndarray) -> float:
    """The series' short-range noise: the median absolute first difference, scaled to a normal sd (a level shift
    moves one difference, so it barely moves the median)."""
    diffs = np.abs(np.diff(logs))
    return float(np.median(diffs) / (0.6745 * math.sqrt(2))) if diffs.size else 0.0


def segments(logs: np.ndarray, penalty: float, min_size: int = 2) -> list[int]:
    """The starts of the segments PELT finds (0 first)."""
    sd = noise(logs)
    if logs.size < 2 * min_size or sd == 0:
        return [0]
    z = (logs - np.median(logs)) / sd
    ends = ruptures.Pelt(model="l1", min_size=min_size, jump=1).fit(z).predict(pen=penalty * math.log(logs.size))
    return [0, *ends[:-1]]


def classify(values: np.ndarray | list[float], penalty: float, min_steady: int, merge: float = 0.01,
             faster: Faster = "lower") -> Steady:
    """The class of one series (module docstring). ``values`` must be positive; ``faster`` says which way is
    faster (lower for a time per operation, higher for a rate)."""
    if penalty <= 0:
        raise ValueError(f"penalty must be positive, got {penalty}")
    if min_steady < 1:
        raise ValueError(f"min_steady must be at least 1, got {min_steady}")
    x = np.asarray(values, dtype=float)
    if x.size == 0 or (x <= 0).any() or not np.isfinite(x).all():
        raise ValueError("a series needs positive finite values")
    logs = np.log(x) if faster == "lower" else -np.log(x)  # lower is faster from here on
    starts = segments(logs, penalty)
    bounds = [*starts, logs.size]
    # A segment that differs from the level before it (its merged run so far) by less than ``merge``, or by less than
    # the noise can explain (three standard errors of the difference), continues that level.
    sd = noise(logs)
    kept = [0]
    for i in range(1, len(starts)):
        before, here = logs[kept[-1]:starts[i]], logs[starts[i]:bounds[i + 1]]
        floor = max(math.log1p(merge), 3 * sd * math.sqrt(1 / before.size + 1 / here.size))
        if abs(float(np.mean(here)) - float(np.mean(before))) >= floor:
            kept.append(starts[i])
    kept_means = [float(np.mean(logs[a:b])) for a, b in zip(kept, [*kept[1:], logs.size])]
    kept_starts = kept
    last = kept_starts[-1]
    changepoints = tuple(kept_starts[1:])
    if logs.size - last < min_steady:
        return Steady("no steady state", last, changepoints)
    if len(kept_starts) == 1:
        return Steady("flat", 0, ())
    fastest = min(kept_means[:-1])
    kind = "warm-up" if kept_means[-1] <= fastest + math.log1p(merge) else "slowdown"
    return Steady(kind, last, changepoints)


@dataclass(frozen=True)
class Policy:
    """The changepoint penalty (per changepoint, in units of the series' noise, times log n) and the least length of
    a steady segment: config ``steady.penalty`` and ``steady.min_steady``."""

    penalty: float = 2.0
    min_steady: int = 5

    def __post_init__(self):
        if not self.penalty > 0:
            raise ValueError(f"steady.penalty must be positive, got {self.penalty}")
        if self.min_steady < 1:
            raise ValueError(f"steady.min_steady must be at least 1, got {self.min_steady}")


#: Where a run's results folder keeps the policy its loaders read (written from the config by the pipeline); results
#: without one are read with the defaults above.
POLICY_FILE = "steady.json"


def policy(results: Path) -> Policy:
    """The policy of the run whose results folder is ``results``."""
    path = Path(results) / POLICY_FILE
    return Policy(**json.loads(path.read_text())) if path.is_file() else Policy()


#: A cell withholds its verdict as unconverged when more than this share of a side's forks show no steady state:
#: one such fork among three moves the interval as one noisy round does, which the t interval carries; two make
#: the value one of a series that never settled.
UNSTEADY_SHARE = 1 / 3


@dataclass(frozen=True)
class Series:
    """Where a study keeps a fork's series: ``table``'s rows (loaded warm-up and measured alike), one series per
    ``keys`` (with version, contender, round and fork), in the order of ``order``; its value per row is ``value``
    (a column, or a ratio of two columns ``"ops/nanos"``), faster ``lower`` or ``higher``. ``measured`` says which rows
    the study measured (the rest warmed up): a column and the value it has on those rows. ``time`` is the column of
    each row's duration in nanoseconds, beside ``jit_ms``, for the JIT's share of the steady segment."""

    table: str
    keys: tuple[str, ...]
    order: tuple[str, ...]
    value: str
    faster: Faster
    measured: tuple[str, Any]
    time: str = "nanos"
    #: Whether the measured rows before the steady segment are left out. A held load's measured window is a sample of
    #: the work its rate asks for (reopens with and without updates); it is classified but kept whole.
    cut: bool = True


IDENTITY = ("version", "contender", "round", "fork")


def _values(rows: pd.DataFrame, value: str) -> np.ndarray:
    top, _, bottom = value.partition("/")
    x = rows[top].to_numpy(dtype=float)
    if bottom:
        x = x / rows[bottom].to_numpy(dtype=float)
    # A reopen that applied nothing can take a microsecond; it is still a positive time, not a missing one.
    return np.maximum(x, np.finfo(float).tiny)


def mark(frame: pd.DataFrame, series: Series, policy: Policy) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The measured rows of ``frame`` with their series' verdict, and one row per series.

    Each series (warm-up and measured rows in order) is classified (:func:`classify`). Its measured rows keep those
    inside its final steady segment (all of them where ``series.cut`` is off), ``stable`` 1; a series with no steady
    state keeps all its measured rows, ``stable`` 0. Each kept row also carries its series' class (``steady``) and
    JIT share (``steady_jit``). The per-series table: the identity and keys, ``steady`` (the class), ``start`` (the
    row the steady segment starts at), ``length`` (rows in the series), ``measured`` (rows kept) and ``jit_share``
    (the JIT's share of the kept rows' time: a covariate, never a gate)."""
    column, measured_value = series.measured
    keys = [*IDENTITY, *series.keys]
    kept, rows = [], []
    if frame.empty:  # a table older results did not keep
        return frame, pd.DataFrame(columns=[*keys, "steady", "start", "length", "measured", "jit_share"])
    for key, group in frame.groupby(keys, sort=False):
        # Warm-up rows first, then the measured ones, each in the order they ran.
        group = group.assign(_measured=group[column] == measured_value).sort_values(["_measured", *series.order],
                                                                                    kind="stable")
        group = group.drop(columns="_measured")
        found = classify(_values(group, series.value), policy.penalty, policy.min_steady, faster=series.faster)
        position = np.arange(len(group))
        is_measured = (group[column] == measured_value).to_numpy()
        settled = found.kind != "no steady state" and series.cut
        steady_rows = position >= found.start if settled else np.ones(len(group), bool)
        keep = group[is_measured & steady_rows]
        if keep.empty:  # the steady segment lies in the warm-up and the measured rows left it: keep them, unsteady
            keep, found = group[is_measured], Steady("no steady state", found.start, found.changepoints)
        # A share of no time is undefined (a window that timed nothing): NaN, and no warning in a notebook's output.
        spent = float(keep[series.time].sum()) if "jit_ms" in keep else 0.0
        jit = float(keep["jit_ms"].sum()) * 1e6 / spent if spent > 0 else math.nan
        kept.append(keep.assign(stable=int(found.kind != "no steady state"), steady=found.kind, steady_jit=jit))
        rows.append({**dict(zip(keys, key)), "steady": found.kind, "start": found.start, "length": len(group),
                     "measured": len(keep), "jit_share": jit})
    out = pd.concat(kept).sort_index() if kept else frame.iloc[0:0].assign(stable=0, steady="", steady_jit=0.0)
    return out.reset_index(drop=True), pd.DataFrame(rows, columns=[*keys, "steady", "start", "length", "measured",
                                                                   "jit_share"])


def mark_all(frames: dict[str, pd.DataFrame], series: Sequence[Series],
             policy: Policy) -> tuple[dict[str, pd.DataFrame], pd.DataFrame]:
    """``frames`` with each table a ``series`` names marked (:func:`mark`), and the per-series rows of all of them,
    a ``table`` column naming each one's table."""
    frames, found = dict(frames), []
    for s in series:
        frames[s.table], rows = mark(frames[s.table], s, policy)
        found.append(rows.assign(table=s.table))
    return frames, pd.concat(found, ignore_index=True) if found else pd.DataFrame()
