"""Figures of the `join` study.

- ``join_latency``: p50 and p99 latency (from the intended send time) against the offered rate, per contender
  and version, every fork's steps, the saturation search's last passing step marked;
- ``join_saturation``: each contender's saturation rate (mean over forks, 95% CI), per version, on a log scale:
  the seed's 60x is the distance between block join's bars and query-time join's.

CLI: ``python -m lrev.join.figures --results RESULTS --versions V … --out FIGDIR``
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

import matplotlib
import matplotlib.pyplot as plt
import seaborn as sns

from lrev import plots
from lrev.config import version_key
from lrev.join import layout, summary
from lrev.join.summary import JoinResults

FIGURES = ("join_latency", "join_saturation")
NS_PER_MS = 1e6


def names() -> list[str]:
    return list(FIGURES)


def _contenders(frame) -> list[str]:
    known = [*layout.LUCENE, *layout.SOLR, layout.AA]
    return [c for c in known if c in set(frame["contender"])]


def latency_figure(data: JoinResults) -> plt.Figure:
    steps = data.steps.assign(p50_ms=data.steps["p50_ns"] / NS_PER_MS, p99_ms=data.steps["p99_ns"] / NS_PER_MS)
    versions = sorted(set(steps["version"]), key=version_key)
    contenders = _contenders(steps)
    palette = dict(zip(contenders, sns.color_palette("tab10", len(contenders))))
    fig, axes = plt.subplots(2, len(versions), figsize=(3.0 * len(versions), 5.0), squeeze=False, sharey="row")
    for j, version in enumerate(versions):
        mine = steps[steps["version"] == version]
        for i, metric in enumerate(("p50_ms", "p99_ms")):
            ax = axes[i][j]
            for contender, group in mine.groupby("contender", sort=False):
                for _, fork_steps in group.groupby("fork"):
                    fork_steps = fork_steps.sort_values("offered_rps")
                    ax.plot(fork_steps["offered_rps"], fork_steps[metric], marker=".", lw=0.8, alpha=0.8,
                            color=palette[contender], label=contender)
                    passed = fork_steps[fork_steps["passed"] == 1]
                    if len(passed):
                        last = passed.iloc[-1]
                        ax.scatter([last["offered_rps"]], [last[metric]], marker="o", s=24, facecolor="none",
                                   edgecolor=palette[contender])
            ax.set(xscale="log", yscale="log", xlabel="offered rate (requests/s)",
                   ylabel=f"{metric.split('_')[0]} latency (ms)" if j == 0 else "")
            if i == 0:
                ax.set_title(f"Lucene {version}")
    unique = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            unique.setdefault(label, handle)
    fig.legend(unique.values(), unique.keys(), loc="lower center", ncol=min(len(unique), 6), frameon=False,
               fontsize=7)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig


def saturation_figure(data: JoinResults) -> plt.Figure:
    table = summary.contender_table(data)
    versions = sorted(set(table["version"]), key=version_key)
    contenders = _contenders(table)
    palette = dict(zip(contenders, sns.color_palette("tab10", len(contenders))))
    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * len(versions) + 2), 3.2))
    width = 0.8 / len(contenders)
    for i, contender in enumerate(contenders):
        mine = table[table["contender"] == contender].set_index("version")
        xs = [versions.index(v) + (i - (len(contenders) - 1) / 2) * width for v in mine.index]
        values = mine["saturation_rps"].to_numpy()
        errors = [values - mine["saturation_rps_low"].to_numpy(), mine["saturation_rps_high"].to_numpy() - values]
        ax.bar(xs, values, width=width, color=palette[contender], label=contender)
        ax.errorbar(xs, values, yerr=errors, fmt="none", ecolor="black", elinewidth=0.7, capsize=1.5)
    ax.set_xticks(range(len(versions)), [f"Lucene {v}" for v in versions])
    ax.set(yscale="log", ylabel="saturation rate (requests/s)")
    ax.legend(fontsize=7, ncol=2, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def build(data: JoinResults, name: str) -> plt.Figure:
    if name == "join_latency":
        return latency_figure(data)
    if name == "join_saturation":
        return saturation_figure(data)
    raise KeyError(f"unknown figure '{name}' (figures: {', '.join(FIGURES)})")


def write_all(results: Path, versions: Sequence[str], out: Path) -> list[Path]:
    data = summary.load(results, versions)
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
