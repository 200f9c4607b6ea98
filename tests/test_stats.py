"""Bootstrap estimates on data with known answers."""
from __future__ import annotations

import math

import numpy as np
import pytest

from lrev import stats


def test_exact_paired_ratio_has_a_degenerate_interval():
    est = stats.paired_ratio([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    assert (est.value, est.low, est.high, est.n) == (2.0, 2.0, 2.0, 3)


def test_noisy_paired_ratio_of_two_covers_two_and_not_one():
    rng = np.random.default_rng(1)
    drift = rng.uniform(0.5, 1.5, 40)  # host drift shared by both contenders of a round
    b = 1e6 * drift
    a = 2 * b * rng.normal(1, 0.03, 40)
    est = stats.paired_ratio(a, b)
    assert est.low < 2 < est.high
    assert est.low > 1.8 and est.high < 2.2


def test_pairing_removes_shared_drift_that_unpaired_cannot():
    rng = np.random.default_rng(2)
    drift = rng.uniform(0.5, 1.5, 30)
    a, b = 1.1 * drift, drift
    paired = stats.paired_ratio(a, b)
    unpaired = stats.unpaired_ratio(a, b)
    assert paired.high - paired.low < unpaired.high - unpaired.low


def test_fewer_than_two_pairs_gives_no_interval():
    est = stats.paired_ratio([3.0], [1.0])
    assert est.value == pytest.approx(3.0) and math.isnan(est.low) and math.isnan(est.high)
    assert math.isnan(stats.paired_ratio([], []).value)


def test_mismatched_pairs_are_an_error():
    with pytest.raises(ValueError, match="differ in length"):
        stats.paired_ratio([1.0, 2.0], [1.0])


def test_location_and_spread():
    x = np.arange(1.0, 101.0)
    est = stats.location(x, statistic="median")
    assert est.value == 50.5 and est.low < 50.5 < est.high
    sp = stats.spread(x)
    assert sp.median == 50.5 and sp.p90 == pytest.approx(90.1) and sp.n == 100


def test_bootstrap_is_deterministic():
    rng = np.random.default_rng(3)
    a, b = rng.uniform(1, 2, 20), rng.uniform(1, 2, 20)
    assert stats.unpaired_ratio(a, b) == stats.unpaired_ratio(a, b)
