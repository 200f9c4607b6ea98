"""join's figures drawn from synthetic results: legible whatever range the measured values span."""
from __future__ import annotations

from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from lrev.join import figures, summary  # noqa: E402
from conftest import assert_legible  # noqa: E402


@pytest.mark.parametrize("low, high", [(3.0, 40.0), (30.0, 45.0), (2.0, 900.0)])
def test_the_ladder_prints_legibly_whatever_span_its_break_even_has(monkeypatch, low, high):
    # A smoke run's break-evens of 3 to 40 queries per update drew matplotlib's minor labels 3×10⁰ over 4×10⁰.
    docs = [20_000, 60_000, 200_000]
    saved = pd.DataFrame(1.0, index=[0, 1, 2], columns=docs)
    extra = pd.DataFrame([np.geomspace(low, high, 3) * f for f in (0.9, 1.0, 1.1)], index=[0, 1, 2], columns=docs)
    monkeypatch.setattr(summary, "ladder_sides", lambda data, p, version: (extra, saved))
    data = SimpleNamespace(manifests={"m": {"parameters": {}}},
                           ladder=pd.DataFrame({"version": ["9.12.3", "10.6.0"]}))
    assert_legible(figures.ladder_figure(data), "join_ladder")


def test_a_ladder_with_no_positive_break_even_is_drawn_and_says_why(monkeypatch):
    # A smoke run's ladder where block join's updates were not dearer at any size: every break-even NaN, which a log
    # axis cannot show (matplotlib raised "Data cannot be log-scaled" when the figure was drawn).
    docs = [20_000, 60_000, 200_000]
    saved = pd.DataFrame(1.0, index=[0, 1], columns=docs)
    extra = pd.DataFrame(-1.0, index=[0, 1], columns=docs)
    monkeypatch.setattr(summary, "ladder_sides", lambda data, p, version: (extra, saved))
    data = SimpleNamespace(manifests={"m": {"parameters": {}}}, ladder=pd.DataFrame({"version": ["10.6.0"]}))
    fig = figures.ladder_figure(data)
    assert any("no break-even" in t.get_text() for t in fig.axes[0].texts)
    assert_legible(fig, "join_ladder")
