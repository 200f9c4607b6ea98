"""The intervals keep their nominal 95% at the numbers of rounds runs have, proven by simulation.

Each simulated experiment has rounds of two forks (A and B) with a known ratio of their true speeds, a
drift shared by both forks of a round, log-normal between-fork noise of the spread this machine shows
(sd 5%, 15% and 25% per JVM) and a few log-normal iterations within each fork. A percentile bootstrap
over so few rounds covers 76-85% at n = 3 and below 93% at n = 5 and 8 for the larger spreads
(measured when the bootstrap was replaced), so these tests fail on it at every n.
"""
from __future__ import annotations

import numpy as np
import pytest

from lrev import stats

EXPERIMENTS = 2000
SPREADS = (0.05, 0.15, 0.25)
TRUE_RATIO = 1.7
#: Coverage is a proportion of 2,000: its standard error at 95% is 0.5 points, so 93% is four below.
FLOOR = 0.93


def _fork(rng: np.random.Generator, log_level: float, iterations: int = 3, within_sd: float = 0.05) -> np.ndarray:
    return np.exp(log_level + rng.normal(0, within_sd, iterations))


def _coverage(rounds: int, between_sd: float, seed: int) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(EXPERIMENTS):
        drift = rng.normal(0, 0.1, rounds)
        a = [_fork(rng, np.log(TRUE_RATIO) + d + rng.normal(0, between_sd)) for d in drift]
        b = [_fork(rng, d + rng.normal(0, between_sd)) for d in drift]
        est = stats.ratio(a, b)
        hits += est.low <= TRUE_RATIO <= est.high
    return hits / EXPERIMENTS


@pytest.mark.parametrize("rounds", [3, 5, 8])
def test_paired_ratio_interval_covers_the_true_ratio_at_95_percent(rounds):
    coverage = {sd: _coverage(rounds, sd, seed=rounds * 100 + int(sd * 100)) for sd in SPREADS}
    assert all(c >= FLOOR for c in coverage.values()), f"coverage at n={rounds}: {coverage}"


@pytest.mark.parametrize("forks", [3, 5, 8])
def test_location_interval_covers_the_true_mean_at_95_percent(forks):
    rng = np.random.default_rng(forks)
    for sd in SPREADS:
        hits = 0
        for _ in range(EXPERIMENTS):
            groups = [_fork(rng, rng.normal(0, sd)) for _ in range(forks)]
            est = stats.location(groups)
            # The true mean of a fork's mean: E[exp(N(0, sd))] * E[exp(N(0, 0.05))].
            truth = np.exp(sd**2 / 2 + 0.05**2 / 2)
            hits += est.low <= truth <= est.high
        assert hits / EXPERIMENTS >= FLOOR, f"coverage at n={forks}, sd={sd}: {hits / EXPERIMENTS}"


@pytest.mark.parametrize("forks", [3, 5, 8])
def test_log_location_interval_covers_the_true_geometric_mean_at_95_percent(forks):
    rng = np.random.default_rng(1000 + forks)
    # The true geometric mean of a fork's mean: exp(E[log mean of its iterations]); the level's log has mean 0.
    truth = np.exp(np.mean(np.log(np.exp(rng.normal(0, 0.05, (200_000, 3))).mean(axis=1))))
    for sd in SPREADS:
        hits = 0
        for _ in range(EXPERIMENTS):
            est = stats.location([_fork(rng, rng.normal(0, sd)) for _ in range(forks)], log=True)
            hits += est.low <= truth <= est.high
        assert hits / EXPERIMENTS >= FLOOR, f"coverage at n={forks}, sd={sd}: {hits / EXPERIMENTS}"
