"""Figures of the `join` study.

- ``join_latency``: p50 and p99 latency (from the intended send time) against the offered rate, per contender
  and version, every fork's steps, the saturation search's last passing step marked;
- ``join_saturation``: each contender's saturation rate (mean over forks, 95% CI), per version, on a log scale:
  the seed's 60x is the distance between block join's bars and query-time join's;
- ``join_cold``: the cold runs' timelines, p99 per short interval from the reopening on an evicted index, per
  directory and workers (the seed's two timelines: 50 threads against 4);
- ``join_io``: per cold run, bytes through read calls and from storage per query, and the p99, NIO against MMap;
- ``join_residency``: what was resident per index file type after the cold run (MMap, 4 workers);
- ``join_sweep``: closed-loop service time against the number of unique join values;
- ``join_ladder``: block join's break-even (queries per update) against the index's documents, per round, with
  each round's fitted curve (the ratio of its two sides' lines), solid over the measured sizes and dashed a decade
  beyond, and at each size the geometric mean over rounds with its 95% CI.

CLI: ``python -m lrev.figures join --results RESULTS --settings JSON --out FIGDIR``
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

from lrev import growth, load, plots
from lrev.config import version_key
from lrev.join import layout, summary
from lrev.join.summary import JoinResults

FIGURES = ("join_latency", "join_saturation", "join_cold", "join_io", "join_residency", "join_sweep", "join_ladder")
#: The figures paper/join.typ prints narrower than the text, by their share of its width (lrev.plots.figure).
WIDTHS = {"join_residency": 0.8, "join_sweep": 0.6, "join_ladder": 0.6}
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
    fig, axes = plots.figure(2, len(versions), height=2.0, sharey="row")
    for j, version in enumerate(versions):
        mine = steps[steps["version"] == version]
        for i, metric in enumerate(("p50_ms", "p99_ms")):
            ax = axes[i][j]
            for contender, group in mine.groupby("contender", sort=False):
                for _, fork_steps in group.groupby("fork"):
                    # A run that a repeat of its rate overturned is not a point of the curve.
                    kept = ~fork_steps["stop_reason"].str.endswith(load.OVERTURNED)
                    fork_steps = fork_steps[kept].sort_values("offered_rps", kind="stable")
                    ax.plot(fork_steps["offered_rps"], fork_steps[metric], marker=".", lw=0.8, alpha=0.8,
                            color=palette[contender], label=contender)
                    passed = fork_steps[fork_steps["passed"] == 1]
                    if len(passed):
                        last = passed.iloc[-1]
                        ax.scatter([last["offered_rps"]], [last[metric]], marker="o", s=24, facecolor="none",
                                   edgecolor=palette[contender])
            plots.log_x(ax)
            plots.log_y(ax)
            ax.set(ylabel=f"{metric.split('_')[0]} latency (ms)" if j == 0 else "")
            if i == 0:
                ax.set_title(f"Lucene {version}")
    fig.supxlabel("offered rate (requests/s)")  # once: repeated under each narrow panel, it would overrun the next
    plots.legend_above(fig, plots.entries(axes.flat))
    return fig


def saturation_figure(data: JoinResults) -> plt.Figure:
    table = summary.contender_table(data)
    versions = sorted(set(table["version"]), key=version_key)
    contenders = _contenders(table)
    palette = dict(zip(contenders, sns.color_palette("tab10", len(contenders))))
    fig, axes = plots.figure(height=2.6)
    ax = axes[0][0]
    sns.barplot(plots.interval_rows(table.assign(lucene="Lucene " + table["version"]), "saturation_rps",
                                    "saturation_rps_low", "saturation_rps_high"),
                x="lucene", y="saturation_rps", hue="contender", order=[f"Lucene {v}" for v in versions],
                hue_order=contenders, palette=palette, estimator="median", errorbar=plots.span, capsize=0.1,
                err_kws={"linewidth": 0.7, "color": "black"}, ax=ax)
    plots.log_y(ax)
    ax.set(xlabel="", ylabel="saturation rate (requests/s)")
    plots.legend_above(fig, plots.entries([ax]))
    return fig


def _panels(frame) -> list[tuple[str, str]]:
    """(version, contender) pairs of a table, in version order."""
    pairs = {(v, c) for v, c in zip(frame["version"], frame["contender"])}
    return sorted(pairs, key=lambda p: (version_key(p[0]), p[1]))


def cold_figure(data: JoinResults) -> plt.Figure:
    rows = data.cold_intervals[data.cold_intervals["part"] == "load"]
    rows = rows.assign(p99_ms=rows["p99_ns"] / NS_PER_MS, t_s=rows["t_ms"] / 1000,
                       run=rows["directory"] + ", " + rows["workers"].astype(str) + " workers")
    panels = _panels(rows)
    runs = sorted(set(rows["run"]))
    palette = dict(zip(runs, sns.color_palette("tab10", len(runs))))
    fig, axes = plots.panels(len(panels), per_row=3, height=1.9, sharey=True)
    for ax, (version, contender) in zip(axes, panels):
        mine = rows[(rows["version"] == version) & (rows["contender"] == contender)]
        for (run, _), group in mine.groupby(["run", "round"]):
            group = group[group["completed"] > 0].sort_values("t_s")
            ax.plot(group["t_s"], group["p99_ms"], lw=0.9, alpha=0.8, color=palette[run], label=run)
        plots.log_y(ax)
        ax.set(title=f"{contender}, Lucene {version}")
    fig.supxlabel("seconds after reopening")
    fig.supylabel("p99 per interval (ms)")
    plots.legend_above(fig, plots.entries(axes))
    return fig


def io_figure(data: JoinResults) -> plt.Figure:
    table = summary.cold_table(data)
    table = table.assign(panel=table["contender"] + "\n" + table["version"],
                         run=table["directory"] + ", " + table["workers"].astype(str))
    metrics = (("syscall_kb_per_query", "read calls (KiB/query)"), ("read_kb_per_query", "storage (KiB/query)"),
               ("p99_ms", "p99 of the cold run (ms)"))
    # A row per metric, the runs side by side across the text width: in three columns their names would overlap.
    fig, axes = plots.figure(len(metrics), 1, height=1.6, sharex=True)
    for ax, (metric, label) in zip(axes[:, 0], metrics):
        sns.barplot(table, x="panel", y=metric, hue="run", ax=ax, palette="tab10")
        ax.set(xlabel="", ylabel=label, yscale="symlog" if metric == "syscall_kb_per_query" else "linear")
        if metric == "p99_ms":
            # Plain labels, thinned on a short span: matplotlib's own label every minor tick of a log axis that spans
            # about a decade, and at this height they overlap.
            plots.log_y(ax)
    plots.legend_above(fig, plots.entries(axes[:, 0]))
    return fig


def residency_figure(data: JoinResults) -> plt.Figure:
    table = summary.residency_table(data)
    table = table.assign(panel=table["contender"] + "\n" + table["version"],
                         kind=table["extension"].map(layout.FILE_KINDS).fillna("other"))
    kinds = [k for k in dict.fromkeys([*layout.FILE_KINDS.values(), "other"]) if k in set(table["kind"])]
    grouped = table.groupby(["panel", "kind"])[["bytes", "resident_bytes"]].sum() / 2**20
    panels = list(dict.fromkeys(table["panel"]))
    palette = dict(zip(kinds, sns.color_palette("tab10", len(kinds))))
    fig, axes = plots.figure(height=2.6, share=WIDTHS["join_residency"])
    ax = axes[0][0]
    labelled: set[str] = set()
    for x, panel in enumerate(panels):
        bottom = size = 0.0
        for kind in kinds:
            if (panel, kind) not in grouped.index:
                continue
            resident, total = grouped.loc[(panel, kind), "resident_bytes"], grouped.loc[(panel, kind), "bytes"]
            ax.bar(x, resident, bottom=bottom, width=0.5, color=palette[kind],
                   label=None if kind in labelled else kind)
            labelled.add(kind)
            bottom += resident
            size += total
        ax.bar(x, size, width=0.7, fill=False, edgecolor="grey", linestyle=":",
               label="index size" if x == 0 else None)
    ax.set_xticks(range(len(panels)), panels)
    ax.set(ylabel="resident after the cold run (MiB)")
    plots.legend_above(fig, plots.entries([ax]))
    return fig


def sweep_figure(data: JoinResults) -> plt.Figure:
    rows = data.sweep
    fig, axes = plots.figure(height=2.6, share=WIDTHS["join_sweep"])
    ax = axes[0][0]
    sns.lineplot(rows, x="join_keys", y="service_ms", hue="contender", style="version", marker="o",
                 errorbar=("ci", 95), ax=ax)
    plots.log_x(ax)
    plots.log_y(ax)
    ax.set(xlabel="unique join values", ylabel="service time (ms, one thread)")
    ax.legend(frameon=False)
    return fig


def ladder_figure(data: JoinResults) -> plt.Figure:
    """Block join's break-even per round and size, each round's fitted curve (:func:`summary.ladder_fit`: its
    extra update cost's line over its query saving's, dashed beyond the measured sizes, left out where it is not
    positive), and at each size the geometric mean over rounds with its 95% CI, as the paper's table gives it."""
    parameters = next(iter(data.manifests.values()))["parameters"]
    versions = sorted(set(data.ladder["version"]), key=version_key)
    fig, axes = plots.panels(len(versions), per_row=2, height=2.6, share=WIDTHS["join_ladder"])
    for ax, version in zip(axes, versions):
        extra, saved = summary.ladder_sides(data, parameters, version)
        costs = summary.break_even(extra, saved)
        docs = costs.columns.to_numpy(dtype=float)
        palette = dict(zip(costs.index, sns.color_palette("tab10", len(costs))))
        for r, row in costs.iterrows():
            ax.plot(docs, row.to_numpy(dtype=float), "o", color=palette[r], label=f"round {r}")
        fit = summary.ladder_fit(extra, saved)
        for r, line in ([] if isinstance(fit, str) else zip(growth.complete(costs).index, fit.lines)):
            for x, style in ((np.geomspace(docs.min(), docs.max(), 50), "-"),
                             (np.geomspace(docs.min() / 10, docs.min(), 20), "--"),
                             (np.geomspace(docs.max(), docs.max() * 10, 20), "--")):
                extra_at, saved_at = growth.sides_at(np.array([line]), x)
                ax.plot(x, np.where((extra_at > 0) & (saved_at > 0), extra_at / saved_at, np.nan), color=palette[r],
                        lw=0.8, ls=style)
        means = [summary.geometric(costs[n].dropna()) for n in costs.columns]
        value, low, high = np.array([(e.value, e.low, e.high) for e in means]).T
        ax.errorbar(docs, value, yerr=[value - low, high - value], ls="none", marker="D", ms=4, capsize=3,
                    color="black", label="mean, 95% CI")
        if not (costs.to_numpy(dtype=float) > 0).any():
            # No size had both sides positive (a smoke run's few requests can): nothing to draw on a log axis.
            ax.text(0.5, 0.5, plots.wrap(f"no break-even: {summary.NOT_POSITIVE}", ax), transform=ax.transAxes,
                    ha="center", va="center", fontsize=plots.SMALL)
            ax.set(xticks=[], yticks=[])
        else:
            plots.log_x(ax)
            plots.log_y(ax)
        ax.set(title=f"Lucene {version}", xlabel="documents in the index",
               ylabel="break-even (queries per update)")
    plots.legend_above(fig, plots.entries(axes))
    return fig


def build(data: JoinResults, name: str) -> plt.Figure:
    builders = {"join_latency": latency_figure, "join_saturation": saturation_figure, "join_cold": cold_figure,
                "join_io": io_figure, "join_residency": residency_figure, "join_sweep": sweep_figure,
                "join_ladder": ladder_figure}
    if name in builders:
        return builders[name](data)
    raise KeyError(f"unknown figure '{name}' (figures: {', '.join(FIGURES)})")


def write_all(results: Path, settings: dict[str, Any], out: Path) -> list[Path]:
    """Every figure, from the results of the configured versions (:mod:`lrev.figures`)."""
    data = summary.load(results, settings["versions"])
    return [path for name in names() for path in plots.save(build(data, name), out, name)]
