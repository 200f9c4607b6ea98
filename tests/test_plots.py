"""The figures' shared helpers (lrev.plots): seaborn draws the intervals a study computed, exactly."""
from __future__ import annotations

import importlib
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import seaborn as sns  # noqa: E402

from lrev import plots, studies  # noqa: E402
from lrev.config import REPO  # noqa: E402


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


def test_a_log_axis_over_four_decades_in_a_small_panel_labels_no_tick_over_another():
    # dvupdate's grid of bars: 2×- and 5×-decade labels over four decades collided in panels this low.
    fig, axes = plots.panels(3, per_row=3, height=1.5)
    for ax in axes:
        ax.bar(["a", "b"], [0.005, 20])
        plots.log_y(ax)
        ax.set_ylim(0.004, 30)
    assert plots.overlapping(fig) == []
    labels = [t.get_text() for t in axes[0].get_yticklabels(which="both") if t.get_text()]
    assert {"0.01", "0.1", "1", "10"} <= set(labels)
    plt.close(fig)


@pytest.mark.parametrize("span, expected", [((38, 95), {"40", "50", "60", "70", "80", "90"}),
                                            ((15, 90), {"20", "30", "50"})])
def test_a_log_axis_under_a_decade_shows_at_least_two_numbers(span, expected):
    # join-2's growth figure: a ratio from 38 to 95 showed "50" alone, which gives no scale.
    fig, axes = plots.panels(1, per_row=1, height=2.6)
    axes[0].plot([1, 2], span)
    plots.log_y(axes[0])
    axes[0].set_ylim(*span)
    fig.canvas.draw()
    labels = {t.get_text() for t in axes[0].get_yticklabels(which="both")
              if t.get_text() and span[0] <= t.get_position()[1] <= span[1]}
    assert labels == expected and plots.overlapping(fig) == []
    plt.close(fig)


def test_overlapping_tick_labels_are_found():
    fig, ax = plt.subplots(figsize=(2, 1))
    ax.set_xticks([0, 0.01], ["a long label", "another long one"])
    assert plots.overlapping(fig) == ["a long label / another long one"]
    plt.close(fig)


@pytest.mark.parametrize("suptitle", [{}, {"y": 1.02}])
def test_a_figure_title_over_the_legend_above_is_found(suptitle):
    # The pk notebook's inline figures: suptitle(name, y=1.02) covered the legend's first entries; left to the
    # layout, a suptitle and an outside legend share one top margin, and cover each other too.
    fig, axes = plots.panels(2, per_row=2)
    for ax in axes:
        for i in range(5):
            ax.plot([1, 2], [i, i], label=f"contender {i}")
    plots.legend_above(fig, plots.entries(axes))
    assert plots.overlapping(fig) == []
    fig.suptitle("pk_lookups", **suptitle)
    assert plots.overlapping(fig) == ["pk_lookups / legend"]
    plt.close(fig)


def test_a_panel_title_under_its_own_legend_is_found():
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([1, 2], [1, 2], label="a series")
    ax.set_title("a panel")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 0.98))  # lifted off the panel, onto its title
    assert plots.overlapping(fig) == ["a panel / legend"]
    plt.close(fig)


@pytest.mark.parametrize("kind", ["lines", "points", "bars"])
def test_legend_entries_in_one_colour_are_found(kind):
    frame = pd.DataFrame({"x": ["a", "b"] * 3, "y": [1.0, 2.0] * 3, "who": ["p", "p", "q", "q", "r", "r"]})
    found = []
    for colours in ({"p": "C0", "q": "C1", "r": "C2"}, {"p": "C0", "q": "C1", "r": "C0"}):
        fig, ax = plt.subplots()
        if kind == "lines":
            for who, rows in frame.groupby("who"):
                ax.plot(rows["x"], rows["y"], color=colours[who], label=who)
            ax.legend()
        elif kind == "points":
            sns.pointplot(frame, x="x", y="y", hue="who", palette=colours, ax=ax)
        else:
            sns.barplot(frame, x="x", y="y", hue="who", palette=colours, ax=ax)
        found.append(plots.same_colour(fig))
        plt.close(fig)
    assert found == [[], ["p / r"]]


def test_one_contender_alone_is_drawn_too():
    """A run of one contender beside its baseline (the fault tests' dvjump run) still draws its figure."""
    table = pd.DataFrame({"hits": ["100", "export query"], "workload": ["a", "export"], "system": ["s", "s"],
                          "value": [1.0, 3.0], "low": [0.5, 2.0], "high": [1.5, 4.0]})
    grid = sns.catplot(plots.interval_rows(table), kind="point", x="hits", y="value", hue="system", col="workload",
                       estimator="median", errorbar=plots.span, dodge=plots.dodge(1), linestyle="none", sharex=False)
    assert len(grid.axes.flat) == 2
    plt.close(grid.figure)


def _drawn(share: float) -> plt.Figure:
    """A figure drawn as the studies draw theirs: panels through the shared style, intervals as computed, one legend."""
    table = pd.DataFrame({"version": ["4.10.4", "10.6.0"] * 2, "family": ["default", "default", "Memory", "Memory"],
                          "value": [1.0, 2.0, 3.0, 4.0], "low": [0.5, 1.5, 2.5, 3.5], "high": [1.5, 2.5, 3.5, 4.5]})
    fig, axes = plots.panels(3, per_row=2, share=share)
    for ax in axes:
        sns.pointplot(plots.interval_rows(table), x="version", y="value", hue="family", estimator="median",
                      errorbar=plots.span, linestyle="none", ax=ax)
        plots.log_y(ax)
        ax.set(title="a panel's title", xlabel="Lucene version", ylabel="lookups/s ÷ default")
    plots.legend_above(fig, plots.entries(axes))
    return fig


@pytest.mark.parametrize("share", [1.0, 0.6])
def test_a_figure_in_the_shared_style_prints_no_text_below_7_pt_and_none_cut_off(share):
    fig = _drawn(share)
    assert fig.get_figwidth() == pytest.approx(plots.width(share))
    texts = {t.get_text() for t in plots.texts(fig)}
    assert {"a panel's title", "lookups/s ÷ default", "default", "4.10.4", "1"} <= texts  # ticks, labels, legend
    assert plots.smallest_pt(fig, plots.width(share)) >= plots.MIN_PT
    assert not plots.cut_off(fig)
    plt.close(fig)


def test_the_smallest_font_at_print_size_catches_a_5_pt_tick_and_scales_with_the_print_width():
    fig = _drawn(1.0)
    fig.axes[0].tick_params(axis="y", labelsize=5)
    assert plots.smallest_pt(fig, plots.width()) == pytest.approx(5)
    fig.axes[0].tick_params(axis="y", labelsize=plots.SMALL)
    # Printed at half its width, every font prints at half its size.
    assert plots.smallest_pt(fig, fig.get_figwidth() / 2) == pytest.approx(plots.SMALL / 2)
    plt.close(fig)


def test_a_hidden_panels_texts_do_not_count():
    fig, axes = plots.panels(1, per_row=2)
    assert len(fig.axes) == 1
    fig, axes = plots.panels(3, per_row=2)
    hidden = fig.axes[3]
    hidden.tick_params(labelsize=5)
    assert not hidden.get_visible() and plots.smallest_pt(fig, plots.width()) >= plots.MIN_PT
    plt.close("all")


def test_a_text_past_the_figures_edge_is_cut_off():
    fig = _drawn(0.6)
    assert not plots.cut_off(fig)
    fig.text(0.9, 0.5, "a note running past the right edge")  # constrained layout places no figure text
    assert plots.cut_off(fig)
    plt.close(fig)


def test_a_legend_of_long_labels_takes_as_many_columns_as_fit():
    fig, (ax,) = plots.panels(1, per_row=1, share=0.6)
    for i in range(8):
        ax.plot([1, 2], [i, i], label=f"contender {i}")
    plots.legend_above(fig, plots.entries([ax]))
    (legend,) = fig.legends
    fig.canvas.draw()
    assert 1 < legend._ncols < 8 and not ax.get_legend()
    assert legend.get_window_extent().width <= fig.bbox.width
    assert not plots.cut_off(fig)
    plt.close(fig)


def test_each_paper_figure_is_drawn_as_wide_as_the_paper_prints_it():
    """paper/*.typ includes a figure at the share of the text width its study's figures.WIDTHS gives it, the whole
    width if it names none; so its fonts print at the sizes it was drawn with."""
    widths = {name: share for study in studies.names()
              for name, share in getattr(importlib.import_module(f"lrev.{study}.figures"), "WIDTHS", {}).items()}
    named, dynamic = {}, []
    for typ in sorted((REPO / "paper").glob("*.typ")):
        text = typ.read_text()
        found = re.findall(r"image\(run-file\(\w+\.figures(?:\.(\w+)|\.at\([^()]*\))\), width: (\d+)%\)", text)
        assert len(found) == text.count("image("), f"{typ.name}: an image included otherwise"
        for name, percent in found:
            if name:
                named[name] = int(percent) / 100
            else:
                dynamic.append(int(percent) / 100)
    assert named and dynamic and set(widths) <= set(named)
    assert {name: widths.get(name, 1.0) for name in named} == named
    assert set(dynamic) == {1.0}  # per workload, per claim, per column of the seed's table: all full width
