"""The figures' shared helpers (lrev.plots): seaborn draws the intervals a study computed, exactly."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import seaborn as sns  # noqa: E402

from lrev import plots  # noqa: E402


@pytest.mark.parametrize("kind", ["point", "bar"])
def test_seaborn_draws_each_estimate_and_its_interval_as_given(kind):
    """Skewed intervals (as paired-round ratios have) survive: the value is not the midpoint, and seaborn's own
    bootstrap of the three rows would give another interval."""
    table = pd.DataFrame({"version": ["a", "a", "b"], "family": ["x", "y", "x"], "value": [1.0, 2.0, 3.0],
                          "low": [0.5, 1.9, 1.0], "high": [1.2, 5.0, 3.1]})
    fig, ax = plt.subplots()
    draw = sns.pointplot if kind == "point" else sns.barplot
    extra = {"linestyle": "none"} if kind == "point" else {}
    draw(plots.interval_rows(table), x="version", y="value", hue="family", order=["a", "b"], hue_order=["x", "y"],
         estimator="median", errorbar=plots.span, ax=ax, **extra)
    bars = sorted((float(line.get_xdata()[0]), *sorted(line.get_ydata())) for line in ax.lines
                  if len(line.get_xdata()) == 2 and line.get_xdata()[0] == line.get_xdata()[1])
    drawn = {(round(lo, 6), round(hi, 6)) for _, lo, hi in bars if np.isfinite(lo)}  # b has no y: no bar
    assert drawn == {(0.5, 1.2), (1.9, 5.0), (1.0, 3.1)}
    if kind == "bar":
        heights = sorted(round(p.get_height(), 6) for p in ax.patches if p.get_height() > 0)
        assert heights == [1.0, 2.0, 3.0]
    plt.close(fig)


def test_a_log_axis_reads_in_plain_numbers():
    fig, ax = plt.subplots()
    ax.plot([1, 2], [0.5, 200])
    plots.log_y(ax)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert labels and all("^" not in label and "$" not in label for label in labels)
    assert "100" in labels
    plt.close(fig)


def test_one_contender_alone_is_drawn_too():
    """A run of one contender beside its baseline (the fault tests' dvjump run) still draws its figure."""
    table = pd.DataFrame({"hits": ["100", "export query"], "workload": ["a", "export"], "system": ["s", "s"],
                          "value": [1.0, 3.0], "low": [0.5, 2.0], "high": [1.5, 4.0]})
    grid = sns.catplot(plots.interval_rows(table), kind="point", x="hits", y="value", hue="system", col="workload",
                       estimator="median", errorbar=plots.span, dodge=plots.dodge(1), linestyle="none", sharex=False)
    assert len(grid.axes.flat) == 2
    plt.close(grid.figure)
