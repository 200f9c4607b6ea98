"""Pairing by round, the unit of every comparison between forks.

In round r each job got exactly one fork (a JVM), so two sides measured in round r saw the same
stretch of host drift; their ratio is taken round by round. A side with two forks in one round, or
two sides measured in different rounds, cannot be paired: that is a bug in the run or its analysis,
and it raises instead of being averaged away. The one exception is a round a budget ran for some contenders
only (rows marked ``partial``, :func:`lrev.manifest.load`): a side it did not run is paired over the other rounds.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from lrev import stats

UNIT = "round"
FORK = "fork"


class PairingError(ValueError):
    """Samples that should pair by round do not."""


def by_round(rows: pd.DataFrame, column: str) -> dict[int, np.ndarray]:
    """One side's samples of ``column``, grouped by round; exactly one fork per round."""
    forks = rows.groupby(UNIT)[FORK].nunique()
    if (forks > 1).any():
        r = int(forks[forks > 1].index[0])
        names = sorted(rows.loc[rows[UNIT] == r, FORK].unique())
        raise PairingError(f"round {r} holds {len(names)} forks of one side ({', '.join(names)}); "
                           f"pairing by round needs exactly one")
    return {int(r): g[column].to_numpy(dtype=float) for r, g in rows.groupby(UNIT)}


def partial(rows: pd.DataFrame) -> set[int]:
    """The rounds of ``rows`` that a budget ran for some contenders only (their ``partial`` column)."""
    return set(rows.loc[rows["partial"].astype(bool), UNIT]) if "partial" in rows else set()


def _aligned(a: pd.DataFrame, b: pd.DataFrame, column: str) -> tuple[list[int], list[np.ndarray], list[np.ndarray]]:
    """The rounds and both sides' samples in them; both sides must cover the same rounds."""
    ga, gb = by_round(a, column), by_round(b, column)
    if (set(ga) ^ set(gb)) - (partial(a) | partial(b)):
        raise PairingError(f"sides were measured in different rounds: {sorted(ga)} vs {sorted(gb)}")
    rounds = sorted(set(ga) & set(gb))
    return rounds, [ga[r] for r in rounds], [gb[r] for r in rounds]


def paired(a: pd.DataFrame, b: pd.DataFrame, column: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Both sides' samples, aligned round by round; both must cover the same rounds."""
    return _aligned(a, b, column)[1:]


def ratio(a: pd.DataFrame, b: pd.DataFrame, column: str, statistic: stats.Statistic = "mean",
          confidence: float = stats.CONFIDENCE) -> stats.Estimate:
    """Geometric mean over rounds of stat(a's fork) / stat(b's fork), with a t interval over rounds."""
    return stats.ratio(*paired(a, b, column), statistic=statistic, confidence=confidence)


def ratio_of_measured_rounds(a: pd.DataFrame, b: pd.DataFrame, column: str, statistic: stats.Statistic = "mean",
                             confidence: float = stats.CONFIDENCE) -> tuple[stats.Estimate, list[int]]:
    """:func:`ratio` over the rounds in which both forks measured something, and the rounds that did not.

    A fork whose statistic is not positive (a reopen interval that carried no update, bytes attributed by a
    difference that came out at zero) measured nothing a ratio can use: its round is failed, left out and
    reported, rather than entering the log scale as an infinity. So is a round in which one side has no samples
    at all (a fork that fell so far behind that no reopen of the cell was measured)."""
    fn = stats.STATISTICS[statistic]
    ga, gb = by_round(a, column), by_round(b, column)
    rounds = sorted(set(ga) | set(gb))
    kept = [r for r in rounds if r in ga and r in gb and not (fn(ga[r]) <= 0 or fn(gb[r]) <= 0)]
    failed = [r for r in rounds if r not in kept]
    return stats.ratio([ga[r] for r in kept], [gb[r] for r in kept], statistic=statistic,
                       confidence=confidence), failed


def savings(pairs: list[tuple[pd.DataFrame, pd.DataFrame]], column: str,
            statistic: stats.Statistic = "mean") -> tuple[list[int], np.ndarray]:
    """The rounds, and per (a, b) pair (rows) and round (columns) stat(a's fork) - stat(b's fork); every pair
    must cover the same rounds."""
    fn = stats.STATISTICS[statistic]
    per_round = [_aligned(a, b, column) for a, b in pairs]
    if len({tuple(r) for r, _, _ in per_round}) != 1:
        raise PairingError("the pairs were measured in different rounds")
    rounds = per_round[0][0]
    return rounds, np.array([[float(fn(x) - fn(y)) for x, y in zip(ga, gb)] for _, ga, gb in per_round])


def saving_ratio(whole: tuple[pd.DataFrame, pd.DataFrame], parts: list[tuple[pd.DataFrame, pd.DataFrame]],
                 column: str, statistic: stats.Statistic = "mean",
                 confidence: float = stats.CONFIDENCE) -> tuple[stats.Estimate, list[int]]:
    """What b saves against a on ``whole``, ÷ the sum of what it saves on each of ``parts``; each a (a, b) pair
    of sides. A round's saving is stat(a's fork) - stat(b's fork); the value is the geometric mean over rounds
    of the per-round ratio, the interval a t interval of its logs. Above 1 the whole saves more than the sum of
    its parts. A round in which the whole or the summed parts saved nothing (≤ 0) has no ratio on the log
    scale: it is failed, left out and reported."""
    rounds, saved = savings([whole, *parts], column, statistic)
    top, bottom = saved[0], saved[1:].sum(axis=0)
    kept = [i for i in range(len(rounds)) if top[i] > 0 and bottom[i] > 0]
    failed = [r for i, r in enumerate(rounds) if i not in kept]
    return stats.ratio([top[[i]] for i in kept], [bottom[[i]] for i in kept], confidence=confidence), failed


def location(rows: pd.DataFrame, column: str, statistic: stats.Statistic = "mean",
             confidence: float = stats.CONFIDENCE, log: bool = False) -> stats.Estimate:
    """Mean over forks of stat(fork), with a t interval over forks (geometric, on the log scale, with ``log``)."""
    return stats.location(list(by_round(rows, column).values()), statistic=statistic, confidence=confidence,
                          log=log)


def location_of_measured_rounds(rows: pd.DataFrame, column: str, statistic: stats.Statistic = "mean",
                                confidence: float = stats.CONFIDENCE) -> tuple[stats.Estimate, list[int]]:
    """:func:`location` on the log scale over the rounds whose fork measured something, and the rounds that did
    not. A size taken as a difference (bytes a contender adds over a baseline opened in the same fork) comes out
    at or below zero where it is smaller than the measurement's noise: as in :func:`ratio_of_measured_rounds`,
    that round is failed, left out and reported, rather than entering the log scale undefined."""
    fn = stats.STATISTICS[statistic]
    groups = by_round(rows, column)
    failed = [r for r, x in groups.items() if not fn(x) > 0]
    return stats.location([x for r, x in groups.items() if r not in failed], statistic=statistic,
                          confidence=confidence, log=True), failed
