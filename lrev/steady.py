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

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
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
