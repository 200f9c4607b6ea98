"""Figures of the `dvupdate` study.

- ``dvupdate_costs``: the seed's per-reopen costs (reopen, update, total, per document), mean over forks with
  95% CI, per method, cell and version (big corpus; medium in its own row when it ran);
- ``dvupdate_queries``: queries per second while updating, per method, cell and version;
- ``dvupdate_crossover``: where a numeric DocValues update beats reindexing: the ratio of their total time
  per reopen by index size and update rate, with the seed's two settings marked.

CLI: ``python -m lrev.dvupdate.figures --results RESULTS --versions V … --out FIGDIR``
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from lrev import plots
from lrev.config import version_key
from lrev.dvupdate import layout, summary
from lrev.dvupdate.summary import DvuResults

FIGURES = ("dvupdate_costs", "dvupdate_queries", "dvupdate_crossover")
COSTS = ("reopen_ms", "update_ms", "total_ms", "perdoc_ms")
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


def _bars(table: pd.DataFrame, metrics: Sequence[str]) -> plt.Figure:
    """One panel per metric and cell: each method's mean with its interval, one colour per version."""
    table = table.assign(cell=table.apply(_cell_label, axis=1))
    cells = list(dict.fromkeys(table.sort_values(["role", "rate", "interval_ms"])["cell"]))
    versions = sorted(set(table["version"]), key=version_key)
    palette = dict(zip(versions, sns.color_palette("viridis", len(versions))))
    fig, axes = plt.subplots(len(metrics), len(cells), figsize=(2.8 * len(cells), 2.3 * len(metrics)),
                             squeeze=False)
    for i, metric in enumerate(metrics):
        for j, cell in enumerate(cells):
            ax, mine = axes[i][j], table[table["cell"] == cell]
            sns.barplot(plots.interval_rows(mine, metric, f"{metric}_low", f"{metric}_high"), x="contender", y=metric,
                        hue="version", order=_methods(mine), hue_order=versions, palette=palette, estimator="median",
                        errorbar=plots.span, err_kws={"linewidth": 0.7, "color": "0.2"}, ax=ax)
            if ax.get_legend():
                ax.get_legend().remove()
            ax.tick_params(axis="x", labelrotation=45, labelsize=7)
            ax.set_xlabel("")
            if metric != "queries_per_s":
                plots.log_y(ax)
            ax.set_title(cell if i == 0 else "", fontsize=8)
            ax.set_ylabel(LABELS[metric] if j == 0 else "", fontsize=8)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(dict(zip(labels, handles)).values(), dict(zip(labels, handles)).keys(), loc="lower center",
               ncol=len(versions), frameon=False, fontsize=7, title="Lucene")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def crossover_figure(data: DvuResults) -> plt.Figure:
    """numeric ÷ reindex total time per reopen (log colour, 1 = break-even) by corpus size and update rate, one
    marker per reopen interval, one panel per version; the seed's WIKIBIG and WIKIMEDIUM at 1000 docs/s marked."""
    table = summary.crossover(data)
    versions = sorted(set(table["version"]), key=version_key) if len(table) else []
    fig, axes = plt.subplots(1, max(1, len(versions)), figsize=(3.4 * max(1, len(versions)) + 1.0, 3.4),
                             squeeze=False, sharey=True)
    norm = matplotlib.colors.LogNorm(vmin=0.01, vmax=100)
    markers = {"short": "o", "long": "s"}
    points = None
    for ax, version in zip(axes[0], versions):
        mine = table[table["version"] == version]
        for interval, rows in mine.groupby("interval_role"):
            # The short and the long interval side by side at the same rate.
            shift, side = (0.75, -1) if interval == "short" else (1.33, 1)
            points = ax.scatter(rows["rate"] * shift, rows["docs"], c=rows["value"].clip(0.01, 100), norm=norm,
                                cmap="coolwarm", s=90, marker=markers[interval], edgecolor="0.2",
                                label=f"{interval} interval")
            for _, r in rows.iterrows():
                ax.annotate(f"×{r['value']:.2g}", (r["rate"] * shift, r["docs"]), textcoords="offset points",
                            xytext=(7 * side, 0), ha="left" if side > 0 else "right", va="center", fontsize=6)
        for label, (docs, rate) in SEED_SETTINGS.items():
            ax.scatter([rate], [docs], marker="*", s=120, color="black")
            ax.annotate(f"seed {label}", (rate, docs), textcoords="offset points", xytext=(-6, 0), ha="right",
                        va="center", fontsize=6)
        ax.set(xscale="log", yscale="log", title=f"Lucene {version}", xlabel="updates per second",
               ylabel="documents in the index", xlim=(1, 20000))
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False, fontsize=7)
    fig.tight_layout(rect=(0, 0.08, 0.88, 1))
    if points is not None:
        fig.colorbar(points, ax=axes[0].tolist(), fraction=0.04, label="numeric ÷ reindex, total per reopen")
    return fig


def build(data: DvuResults, name: str) -> plt.Figure:
    table = summary.cell_table(data)
    if name == "dvupdate_costs":
        return _bars(table, COSTS)
    if name == "dvupdate_queries":
        return _bars(table, ("queries_per_s",))
    if name == "dvupdate_crossover":
        return crossover_figure(data)
    raise KeyError(f"unknown figure '{name}' (figures: {', '.join(FIGURES)})")


def write_all(results: Path, versions: Sequence[str], out: Path) -> list[Path]:
    data = summary.without_ladder(summary.load(results, versions))
    plots.theme()
    return [path for name in names() for path in plots.save(build(data, name), out, name)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True)
    parser.add_argument("--versions", nargs="+", required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    matplotlib.use("Agg")
    write_all(args.results, args.versions, args.out)


if __name__ == "__main__":
    main()
