"""Smyth's moderated intervals keep their coverage at this machine's spreads, by simulation.

Each cell's true per-round spread is one observed in a default run (docs/noise/spreads-default.csv, written by
docs/noise/spreads.py), the widest included: taking an observed spread as a true one overstates how unlike the cells
are, which is the hard case for borrowing. lrev.stats.coverage_by_cell draws every cell's per-round log values,
fits the prior of each study's group of cells, as lrev.claims.evaluate does, and builds each cell's interval.

At n = 3, 5 and 8 rounds the intervals must cover the truth in at least 94% of cells overall and 90% of the noisiest
tenth (by true spread). One pooled variance per group, borrowing without Smyth's weighting, must fail that check,
so that it does not hold by construction.
"""
from __future__ import annotations

import csv

import numpy as np
import pytest
import scipy.stats

from lrev import stats
from lrev.config import REPO

SPREADS = REPO / "docs" / "noise" / "spreads-default.csv"


def observed() -> dict[tuple[str, str], np.ndarray]:
    """The observed sd of each cell, by (study, group)."""
    groups: dict[tuple[str, str], list[float]] = {}
    with SPREADS.open() as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            groups.setdefault((row["study"], row["group"]), []).append(float(row["sd"]))
    return {k: np.array(v) for k, v in groups.items()}


def pooled(variance: np.ndarray, d: np.ndarray, n: np.ndarray, confidence: float) -> np.ndarray:
    """One variance for every cell of a group, weighted by degrees of freedom, with t on their sum: borrowing all,
    trusting none."""
    df = float(np.sum(d))
    return scipy.stats.t.ppf(0.5 + confidence / 2, df) * np.sqrt(float(np.sum(d * variance)) / df / n)


def coverage(n: int, half=stats.moderated_half_width) -> tuple[float, float]:
    """(overall, noisiest tenth) coverage of 95% intervals at ``n`` rounds, each group's from ``half``."""
    spreads = observed()
    sds = np.concatenate(list(spreads.values()))
    hits = np.concatenate([stats.coverage_by_cell(sd, np.full(sd.size, n), half, seed=i)
                           for i, sd in enumerate(spreads.values())])
    return float(hits.mean()), float(hits[sds >= np.quantile(sds, 0.9)].mean())


def test_the_spreads_come_from_a_run_with_cells_in_every_study():
    spreads = observed()
    assert {study for study, _ in spreads} == {"pk", "dvjump", "join", "dvupdate"}
    assert sum(v.size for v in spreads.values()) >= 100 and all((v > 0).all() for v in spreads.values())


@pytest.mark.parametrize("n", [3, 5, 8])
def test_moderated_intervals_cover_overall_and_in_the_noisiest_tenth(n):
    overall, noisy = coverage(n)
    assert overall >= 0.94 and noisy >= 0.90, (overall, noisy)


def test_one_pooled_variance_per_group_fails_the_same_check():
    overall, noisy = coverage(3, pooled)
    assert overall < 0.94 or noisy < 0.90, (overall, noisy)


def test_cells_of_unlike_sizes_are_simulated_at_their_own_rounds():
    # Without a prior each cell's interval is Student's at its own n: 95% whatever n.
    plain = lambda v, d, n, c: stats.half_width(v, d, n, stats.NO_PRIOR, c)[0]  # noqa: E731
    hits = stats.coverage_by_cell([0.05, 0.3, 0.1], [3, 5, 8], plain, replicates=4000)
    assert hits == pytest.approx([0.95] * 3, abs=0.012)


def test_without_the_hypervariable_rule_the_noisiest_tenth_is_undercovered(monkeypatch):
    # Plain Smyth moderation shrinks the noisiest cells' variances towards the prior: the reason for the rule.
    monkeypatch.setattr(stats, "HYPERVARIABLE", 0.0)
    overall, noisy = coverage(3)
    assert overall < 0.94 or noisy < 0.90, (overall, noisy)
