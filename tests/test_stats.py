"""Summaries of one sample, and JSON-safe output."""
from __future__ import annotations

import math

import numpy as np
import pytest

from lrev import stats


def test_spread():
    sp = stats.spread(np.arange(1.0, 101.0))
    assert sp.median == 50.5 and sp.p90 == pytest.approx(90.1) and sp.n == 100
    one = stats.spread([3.0])
    assert one.median == 3.0 and math.isnan(one.std)
    assert stats.spread([]).n == 0


def test_json_safe_drops_nan_and_inf():
    assert stats.json_safe({"a": [float("nan"), 1.0, np.float64(math.inf)], "b": np.int64(2)}) == \
        {"a": [None, 1.0, None], "b": 2}


def test_a_shares_interval_stays_within_0_and_1():
    assert stats.share(stats.Estimate(0.06, -0.006, 0.12, 3)) == stats.Estimate(0.06, 0.0, 0.12, 3)
    assert stats.share(stats.Estimate(0.95, 0.88, 1.07, 3)) == stats.Estimate(0.95, 0.88, 1.0, 3)
    assert math.isnan(stats.share(stats.Estimate(math.nan, math.nan, math.nan, 0)).low)
