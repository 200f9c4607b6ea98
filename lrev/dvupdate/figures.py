"""Figures of the `dvupdate` study.

- one figure per column of the seed's table, ``dvupdate_reopen``, ``dvupdate_update``, ``dvupdate_total`` and
  ``dvupdate_perdoc`` (reopen, update, total, per document), and ``dvupdate_queries`` (queries per second while
  updating): the geometric mean over forks with its 95% CI, per method and version, a panel per cell (corpus role,
  rate and interval); an interval running far past the estimates is cut at the axis' edge;
- ``dvupdate_crossover``: where a numeric DocValues update beats reindexing: the ratio of their total time per
  reopen (95% CI) by index size, per update rate and reopen interval, with the seed's two sizes marked.

CLI: ``python -m lrev.figures dvupdate --results RESULTS --settings JSON --out FIGDIR``
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.ticker import FuncFormatter, NullFormatter

from lrev import plots
from lrev.config import version_key
from lrev.dvupdate import layout, summary
from lrev.dvupdate.summary import DvuResults

#: Each bar figure and the column of the seed's table it draws.
BARS = {"dvupdate_reopen": "reopen_ms", "dvupdate_update": "update_ms", "dvupdate_total": "total_ms",
        "dvupdate_perdoc": "perdoc_ms", "dvupdate_queries": "queries_per_s"}
FIGURES = (*BARS, "dvupdate_crossover")
LABELS = {"reopen_ms": "reopen (ms)", "update_ms": "update calls per reopen (ms)",
          "total_ms": "total per reopen (ms)", "perdoc_ms": "per document (ms)", "queries_per_s": "queries/s"}
#: The seed's two datasets at its headline rate: (documents, updates per second).
SEED_SETTINGS = {"WIKIBIG": (6_640_000, 1000), "WIKIMEDIUM": (33_300_000, 1000)}


def names() -> list[str]:
    return list(FIGURES)


def _methods(table: pd.DataFrame) -> list[str]:
    return layout.ordered(table["contender"])


def _cell_label(row: pd.Series) -> str:
    return f"{row['role']}: {row['rate']}/s, every {row['interval_ms'] / 1000:g} s"


def bars_figure(table: pd.DataFrame, name: str) -> plt.Figure:
    """One column of the seed's table: each method's mean with its interval, one colour per version, a panel per
    cell, three to a row (a row of the seed's five cells would print too small to read)."""
    metric = BARS[name]
    table = table.assign(cell=table.apply(_cell_label, axis=1))
    cells = list(dict.fromkeys(table.sort_values(["role", "rate", "interval_ms"])["cell"]))
    versions = sorted(set(table["version"]), key=version_key)
    palette = dict(zip(versions, sns.color_palette("viridis", len(versions))))
    fig, axes = plots.panels(len(cells), per_row=3, height=2.0)
    for ax, cell in zip(axes, cells):
        mine = table[table["cell"] == cell]
        sns.barplot(plots.interval_rows(mine, metric, f"{metric}_low", f"{metric}_high"), x="contender", y=metric,
                    hue="version", order=_methods(mine), hue_order=versions, palette=palette, estimator="median",
                    errorbar=plots.span, err_kws={"linewidth": 0.7, "color": "0.2"}, ax=ax)
        plt.setp(ax.get_xticklabels(), rotation=45, ha="right", rotation_mode="anchor")
        if metric != "queries_per_s":
            plots.log_y(ax)
        else:  # plain numbers: matplotlib's "1e6" offset would sit on the panel's title
            ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: plots.plain(y)))
        # Two rounds' intervals span decades: cut at the edge, tenfold past the estimates (log), or twice the
        # largest (linear, from the bars' zero).
        plots.keep_in_view(ax, [0.0, *mine[metric]], fold=10, spans=1)
        ax.set(title=cell, xlabel="", ylabel="")
    fig.supylabel(LABELS[metric])
    plots.legend_above(fig, plots.entries(axes), title="Lucene")
    return fig


def crossover_figure(data: DvuResults) -> plt.Figure:
    """numeric ÷ reindex total time per reopen, paired by round (95% CI; log axis, 1 = break-even), against the
    index's documents, a series per update rate and reopen interval, a panel per version; the seed's WIKIBIG and
    WIKIMEDIUM sizes dotted (both at 1000 docs/s)."""
    table = summary.crossover(data)
    versions = sorted(set(table["version"]), key=version_key) if len(table) else []
    fig, axes = plots.panels(max(1, len(versions)), per_row=2, height=2.6, sharey=True)
    series = sorted(set(zip(table["rate"], table["interval_role"]))) if len(table) else []
    colors = dict(zip(series, sns.color_palette("tab10", len(series))))
    for ax, version in zip(axes, versions):
        mine = table[table["version"] == version]
        for (rate, interval), rows in mine.groupby(["rate", "interval_role"]):
            # Series at the same size side by side, a few percent apart on the log axis, so their intervals show.
            x = rows["docs"] * 10 ** (0.03 * (series.index((rate, interval)) - (len(series) - 1) / 2))
            ax.errorbar(x, rows["value"], yerr=[rows["value"] - rows["low"], rows["high"] - rows["value"]],
                        ls="none", marker="o" if interval == "short" else "s", ms=5, capsize=2,
                        color=colors[(rate, interval)], label=f"{rate:,}/s, {interval} interval")
        for label, (docs, rate) in SEED_SETTINGS.items():
            ax.axvline(docs, color="0.4", ls=":", lw=0.8)
            ax.annotate(f"seed {label} ({rate:,}/s)", (docs, 0.97), xycoords=("data", "axes fraction"), rotation=90,
                        ha="right", va="top", fontsize=plots.SMALL)
        ax.axhline(1.0, color="0.4", lw=0.8)
        ax.set_xscale("log")
        # 1M, not 1,000,000: a narrow panel's decades of documents would print over one another.
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: plots.compact(x)))
        ax.xaxis.set_minor_formatter(NullFormatter())  # 2× and 5× labels would collide at this width
        plots.log_y(ax)
        ax.set(title=f"Lucene {version}", xlabel="documents in the index")
    axes[0].set_ylabel("numeric ÷ reindex, total per reopen")
    plots.legend_above(fig, plots.entries(axes))
    return fig


def build(data: DvuResults, name: str) -> plt.Figure:
    if name in BARS:
        return bars_figure(summary.cell_table(data), name)
    if name == "dvupdate_crossover":
        return crossover_figure(data)
    raise KeyError(f"unknown figure '{name}' (figures: {', '.join(FIGURES)})")


def write_all(results: Path, settings: dict[str, Any], out: Path) -> list[Path]:
    """Every figure, from the results of the configured versions (:mod:`lrev.figures`)."""
    data = summary.without_ladder(summary.load(results, settings["versions"]))
    return [path for name in names() for path in plots.save(build(data, name), out, name)]
