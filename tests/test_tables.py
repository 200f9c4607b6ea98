"""The generic result-table helpers: the share of measured time the JIT and the collectors took."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from lrev.tables import timing_hygiene


def test_compile_and_gc_shares_are_over_measured_wall_time_overall_and_per_version():
    measured = pd.DataFrame({"version": ["9.12.3", "10.6.0", "9.12.3"], "jit_ms": [1, 0, 2], "gc_ms": [0, 6, 0],
                             "wall_ns": [100e6, 200e6, 100e6]})
    shares = timing_hygiene(measured, nanos="wall_ns")
    assert (shares["compile_share"], shares["gc_share"]) == ("0.8%", "1.5%")
    assert shares["compile_share_raw"] == pytest.approx(3 / 400)
    assert list(shares["by_version"]) == ["9.12.3", "10.6.0"], "oldest first"
    assert shares["by_version"]["9.12.3"]["compile_share"] == "1.5%"
    assert shares["by_version"]["10.6.0"]["gc_share_raw"] == pytest.approx(0.03)


def test_nothing_measured_has_no_share():
    shares = timing_hygiene(pd.DataFrame(columns=["version", "jit_ms", "gc_ms", "nanos"]))
    assert shares["compile_share"] == "n/a" and math.isnan(shares["gc_share_raw"]) and shares["by_version"] == {}
